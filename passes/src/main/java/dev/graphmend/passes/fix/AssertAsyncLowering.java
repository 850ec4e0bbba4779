package dev.graphmend.passes.fix;

import dev.graphmend.passes.model.FixInfo;
import dev.graphmend.passes.model.Safety;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.symbols.Target;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.rules.Conditions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * GM103 → predicated trap lowering: {@code if c: raise E("msg")} becomes
 * {@code torch._assert_async(torch.logical_not(c), "E: msg")}, which checks inside the graph;
 * {@code if p and c: raise …}, with {@code p} decided while tracing, keeps {@code if p:} around it.
 * Always unsafe: the exception becomes a RuntimeError, and on CUDA the assert is reported
 * asynchronously and leaves the CUDA context unusable. Declined inside {@code try}, for
 * {@code raise … from …}, for exception classes that are not builtins (or are shadowed), for
 * messages that are not one plain string literal, and for conditions that are not bool tensors.
 * A single condition of unknown shape is asserted through {@code .reshape(())}, which raises for
 * other than one element, as Python's {@code bool()} does (issue 43 item 4).
 */
public final class AssertAsyncLowering implements Transformation {
    private static final Set<String> BUILTIN_EXCEPTIONS = Set.of("ValueError", "RuntimeError", "AssertionError",
            "TypeError", "IndexError", "KeyError", "NotImplementedError", "OverflowError", "ZeroDivisionError",
            "ArithmeticError", "Exception", "LookupError");

    static final FixInfo INFO = new FixInfo("Lower to `torch._assert_async`", Safety.UNSAFE);

    @Override public FixInfo info() { return INFO; }

    @Override
    public Proposal propose(FixSite site) {
        if (!(site.at() instanceof Expr cond) || !(site.statementOf(cond) instanceof Stmt.If guard) || guard.test() != cond) {
            return Proposal.decline("internal: not at a guard's condition");
        }
        FunctionContext f = site.function();
        Stmt.Raise raise = (Stmt.Raise) guard.body().get(0);
        if (site.insideTry(guard)) return Proposal.decline("the guard is inside a try block, where the changed exception type would change which handler runs");
        if (raise.cause() != null) return Proposal.decline("`raise ... from ...` keeps a cause that an assert cannot carry");
        if (raise.exc() == null) return Proposal.decline("a bare `raise` re-raises the current exception");
        Expr exc = raise.exc();
        Expr.Call call = exc instanceof Expr.Call c ? c : null;
        Expr cls = call != null ? call.func() : exc;
        if (!isBuiltinException(site, cls)) return Proposal.decline(NOT_BUILTIN_EXCEPTION);
        Expr.Name clsName = (Expr.Name) cls;
        String message = "";
        if (call != null) {
            if (!call.keywords().isEmpty() || call.args().size() > 1) return Proposal.decline("the exception takes more than one message argument");
            if (call.args().size() == 1) {
                if (!(call.args().get(0) instanceof Expr.Constant k) || !(k.value() instanceof String s)) {
                    return Proposal.decline("the message is not a plain string literal (an f-string or expression would be "
                            + "evaluated on every call, and could read tensor values)");
                }
                message = s;
            }
        }
        // `if index is not None and not torch.all(...): raise`: the operands Dynamo decides while
        // tracing stay a Python `if` around the assert, evaluated first, as the `and` does
        List<Expr> decided = decidedWhileTracing(f, cond);
        Expr checked = decided.isEmpty() ? cond : ((Expr.BoolOp) cond).values().get(decided.size());
        String why = condition(f, checked);
        // a condition of unknown shape: Python's `if` takes bool() of it, which raises RuntimeError
        // unless it has exactly one element; `.reshape(())` keeps that (a RuntimeError, for none or
        // many, when the graph is traced) and gives the assert the one element it needs
        boolean anyShape = WhereRewrite.onlyItsShapeIsUnknown(f, checked, why);
        if (why != null && !anyShape) return Proposal.decline(why);
        if (!guard.orelse().isEmpty()) return Proposal.decline("the guard has an else branch");
        SourceText src = site.source();
        List<Diagnostic.Edit> edits = new ArrayList<>();
        String optionalTorch = site.optionalTorchProblem();
        if (optionalTorch != null) return Proposal.decline(optionalTorch);
        String torch = site.torchName();
        if (torch == null) {
            torch = "torch";
            edits.add(src.insertLinesAfter(src.importInsertionLine(), "import torch"));
        }
        WhereRewrite.Torch t = new WhereRewrite.Torch(torch, List.of());
        // assert the negation of the condition; `if not c: raise` asserts c itself
        boolean negated = checked instanceof Expr.UnaryOp u && u.op() == dev.graphmend.ir.ast.UnaryOperator.Not;
        Expr positive = negated ? ((Expr.UnaryOp) checked).operand() : checked;
        String value = anyShape ? oneElement(src, positive) : WhereRewrite.condText(site, t, positive);
        String asserted = negated ? value : torch + ".logical_not(" + value + ")";
        String text = torch + "._assert_async(" + asserted + ", "
                + pyString(clsName.id() + (message.isEmpty() ? "" : ": " + message)) + ")";
        String comment = src.comment(guard.span().line());
        if (!decided.isEmpty()) {
            StringBuilder test = new StringBuilder();
            for (Expr v : decided) {
                if (test.length() > 0) test.append(" and ");
                boolean loose = v instanceof Expr.BoolOp || v instanceof Expr.IfExp || v instanceof Expr.NamedExpr || v instanceof Expr.Lambda;
                test.append(loose ? "(" + src.text(v) + ")" : src.text(v));
            }
            String head = test.indexOf("\n") >= 0 ? "(" + test + ")" : test.toString();
            text = "if " + head + ":" + (comment != null ? "  " + comment : "") + "\n"
                    + src.indentation(guard.span().line()) + src.indentUnit() + text;
        } else if (comment != null) {
            text += "  " + comment;
        }
        edits.add(new Diagnostic.Edit(guard.span(), text));
        return Proposal.of(new Diagnostic.Fix("Lower guard to torch._assert_async", Safety.UNSAFE, edits,
                "Unsafe: the check runs inside the graph, but a failure raises RuntimeError instead of "
                        + clsName.id() + ", and on CUDA the assert is asynchronous: it is reported at a later "
                        + "synchronisation and leaves the CUDA context unusable."
                        + (anyShape ? " The condition's shape is not known: one of other than one element raises "
                        + "RuntimeError as Python's bool() does, with reshape's message." : "")));
    }

    /** {@code c.reshape(())}, parenthesised unless {@code c} is a primary expression. */
    private static String oneElement(SourceText src, Expr c) {
        boolean primary = c instanceof Expr.Name || c instanceof Expr.Attribute || c instanceof Expr.Call
                || c instanceof Expr.Subscript;
        String text = src.text(c);
        return (primary && text.indexOf('\n') < 0 ? text : "(" + text + ")") + ".reshape(())";
    }

    static final String NOT_BUILTIN_EXCEPTION = "the exception class is not a builtin exception (or is shadowed), so the "
            + "error a caller catches would change beyond its type";

    /** Whether {@code cls} names one of the common builtin exception classes, not shadowed here. */
    static boolean isBuiltinException(FixSite site, Expr cls) {
        return cls instanceof Expr.Name n && site.module().names().resolve(n) instanceof Target.Builtin
                && BUILTIN_EXCEPTIONS.contains(n.id());
    }

    /**
     * The leading operands of an {@code and} test whose truth Dynamo knows while tracing (no tensor
     * value read: {@code index is not None}, {@code self.training}), when exactly one operand
     * follows them; else none.
     */
    private static List<Expr> decidedWhileTracing(FunctionContext f, Expr cond) {
        if (!(cond instanceof Expr.BoolOp b) || b.op() != dev.graphmend.ir.ast.BoolOperator.And) return List.of();
        List<Expr> values = b.values();
        int k = 0;
        while (k < values.size() - 1 && !Conditions.isDataDependent(f, values.get(k))) k++;
        return k == values.size() - 1 ? values.subList(0, k) : List.of();
    }

    private static String condition(FunctionContext f, Expr c) {
        return WhereRewrite.checkCondition(f, c);
    }

    /** A Python string literal for {@code s}. */
    static String pyString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '\\': b.append("\\\\"); break;
                case '"': b.append("\\\""); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default: b.append(ch);
            }
        }
        return b.append('"').toString();
    }
}
