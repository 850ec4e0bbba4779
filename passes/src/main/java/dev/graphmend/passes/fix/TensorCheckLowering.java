package dev.graphmend.passes.fix;

import dev.graphmend.passes.model.FixInfo;
import dev.graphmend.passes.model.Safety;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Keyword;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.model.Diagnostic;
import java.util.ArrayList;
import java.util.List;

/**
 * GM201 at {@code torch._check_tensor_all(cond[, msg])} (and {@code _check_tensor_all_with(E,
 * cond[, msg])}) → {@code torch._assert_async(torch.all(cond)[, "msg"])}, which checks inside
 * the graph instead of reading {@code cond} with {@code .item()}. Always unsafe: on CUDA the
 * assert is reported asynchronously and leaves the CUDA context unusable, and the bool-dtype
 * check of {@code _check_tensor_all} is gone; for the {@code _with} form the exception becomes a
 * RuntimeError. Declined when the result is used, when the message is not a string literal (or a
 * lambda that returns one), for non-builtin or shadowed exception classes, and, for the
 * {@code _with} form, inside {@code try}. Other GM201 sites ({@code .item()}, …) have no fix.
 */
public final class TensorCheckLowering implements Transformation {
    static final String TITLE = "Check inside the graph with torch._assert_async";

    static final FixInfo INFO = new FixInfo("Check inside the graph with `torch._assert_async`", Safety.UNSAFE);

    @Override public FixInfo info() { return INFO; }

    @Override
    public Proposal propose(FixSite site) {
        String optionalTorch = site.optionalTorchProblem();
        if (optionalTorch != null) return Proposal.decline(optionalTorch);
        if (!(site.at() instanceof Expr.Call call)) return Proposal.notApplicable();
        String qn = site.function().qualifiedName(call.func());
        boolean with = "torch._check_tensor_all_with".equals(qn);
        if (!with && !"torch._check_tensor_all".equals(qn)) return Proposal.notApplicable();
        if (!(site.statementOf(call) instanceof Stmt.Expr st) || st.value() != call) {
            return Proposal.decline("the check's result is used, so the call cannot be replaced by an assert");
        }
        // the parameters: ([error_type,] cond, message=None)
        List<Expr> args = new ArrayList<>(call.args());
        Expr errorType = null, cond = null, message = null;
        if (with) {
            if (args.isEmpty()) return Proposal.decline("the exception class is not given positionally");
            errorType = args.remove(0);
        }
        if (!args.isEmpty()) cond = args.remove(0);
        if (!args.isEmpty()) message = args.remove(0);
        if (!args.isEmpty()) return Proposal.decline("the check takes more arguments than a condition and a message");
        for (Keyword k : call.keywords()) {
            if ("cond".equals(k.arg()) && cond == null) cond = k.value();
            else if ("message".equals(k.arg()) && message == null) message = k.value();
            else return Proposal.decline("the check has an argument the assert cannot take (" + (k.arg() == null ? "**" : k.arg()) + ")");
        }
        if (cond == null) return Proposal.decline("the check has no condition argument");
        String prefix = "";
        if (with) {
            if (!AssertAsyncLowering.isBuiltinException(site, errorType)) {
                return Proposal.decline(AssertAsyncLowering.NOT_BUILTIN_EXCEPTION);
            }
            Expr.Name cls = (Expr.Name) errorType;
            if (site.insideTry(st)) {
                return Proposal.decline("the check is inside a try block, where the changed exception type would change "
                        + "which handler runs");
            }
            if (!cls.id().equals("RuntimeError")) prefix = cls.id();
        }
        String text = null;
        if (message != null) {
            text = literal(message);
            if (text == null) {
                return Proposal.decline("the message is not a plain string literal or a lambda returning one (anything else "
                        + "would be evaluated on every call, and could read tensor values)");
            }
        }
        if (!prefix.isEmpty()) text = prefix + (text == null || text.isEmpty() ? "" : ": " + text);
        SourceText src = site.source();
        WhereRewrite.Torch t = WhereRewrite.Torch.of(site);
        List<String> newArgs = new ArrayList<>();
        newArgs.add(t.name() + ".all(" + src.argument(cond) + ")");
        if (text != null) newArgs.add(AssertAsyncLowering.pyString(text));
        List<Diagnostic.Edit> edits = new ArrayList<>(t.importEdits());
        edits.add(new Diagnostic.Edit(call.span(), layout(src, call, cond, t.name() + "._assert_async", newArgs)));
        String what = !prefix.isEmpty() ? "a failure raises RuntimeError instead of " + prefix + ", "
                : "a failure still raises RuntimeError" + (message == null ? " (with torch's assert message)" : "") + ", but ";
        return Proposal.of(new Diagnostic.Fix(TITLE, Safety.UNSAFE, edits,
                "Unsafe: the check runs inside the graph; " + what + "a condition that is not a bool tensor is no longer "
                        + "rejected, and on CUDA the assert is asynchronous: it is reported at a later synchronisation and "
                        + "leaves the CUDA context unusable."));
    }

    /**
     * The new call, on one line where the check was on one line; else one argument per line,
     * keeping the comments of the old call's lines (the first line's after the parenthesis).
     */
    private static String layout(SourceText src, Expr.Call call, Expr cond, String callee, List<String> args) {
        Span span = call.span();
        if (span.endLine() == span.line()) return callee + "(" + String.join(", ", args) + ")";
        String indent = src.indentation(span.line());
        StringBuilder b = new StringBuilder(callee).append('(');
        for (int l = span.line(); l < span.endLine(); l++) {
            boolean inCondition = l > cond.span().line() && l <= cond.span().endLine(); // kept in its text
            String c = inCondition ? null : src.comment(l);
            if (c == null) continue;
            if (l == span.line()) b.append("  ").append(c);
            else b.append('\n').append(indent).append("    ").append(c);
        }
        for (String a : args) b.append('\n').append(indent).append("    ").append(a).append(',');
        return b.append('\n').append(indent).append(')').toString();
    }

    /** The text of a string literal, or of a lambda without parameters that returns one; else null. */
    private static String literal(Expr message) {
        Expr e = message;
        if (e instanceof Expr.Lambda l && l.args().args().isEmpty() && l.args().posonlyargs().isEmpty()
                && l.args().kwonlyargs().isEmpty() && l.args().vararg() == null && l.args().kwarg() == null) {
            e = l.body();
        }
        return e instanceof Expr.Constant c && c.value() instanceof String s ? s : null;
    }
}
