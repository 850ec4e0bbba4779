package dev.graphmend.passes.fix;

import dev.graphmend.passes.model.FixInfo;
import dev.graphmend.passes.model.Safety;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.analysis.ValueKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * GM101 → {@code torch.cond} for an {@code if}/{@code else} whose branches call modules or other
 * torch operations that torch.where cannot evaluate unconditionally: each branch becomes a local
 * function of the tensors it reads, and {@code torch.cond} picks one inside the graph.
 * Shapes: the same single name assigned in both branches, or a {@code return} in both.
 * Legal when the condition is a one-element bool tensor, both branch values are tensors, every
 * call in them is a torch operation or a call of a module (no printing, no user functions, no
 * attribute or container writes), and the operands are tensors. Always unsafe: torch.cond is a
 * prototype API, both branches must return tensors of the same shape and dtype (else compiling
 * fails), and the branches are traced even when not taken.
 */
public final class CondRewrite implements Transformation {
    static final String TITLE = "Rewrite to torch.cond";

    static final FixInfo INFO = new FixInfo("Rewrite to `torch.cond`", Safety.UNSAFE);

    @Override public FixInfo info() { return INFO; }

    @Override
    public Proposal propose(FixSite site) {
        String optionalTorch = site.optionalTorchProblem();
        if (optionalTorch != null) return Proposal.decline(optionalTorch);
        if (TorchScriptCode.mayCompile(site)) return Proposal.decline(TorchScriptCode.reason("torch.cond with nested branch functions"));
        if (!(site.at() instanceof Expr cond) || !(site.statementOf(cond) instanceof Stmt.If i) || i.test() != cond) {
            return Proposal.decline("torch.cond applies to if statements");
        }
        if (i.orelse().isEmpty() || i.body().size() != 1 || i.orelse().size() != 1
                || i.orelse().get(0) instanceof Stmt.If) {
            return Proposal.decline("torch.cond needs an if/else with one statement in each branch");
        }
        FunctionContext f = site.function();
        String why = WhereRewrite.checkCondition(f, cond);
        if (why != null) return Proposal.decline(why);
        Stmt a = i.body().get(0), b = i.orelse().get(0);
        String target = null;
        Expr va, vb;
        if (a instanceof Stmt.Return ra && b instanceof Stmt.Return rb && ra.value() != null && rb.value() != null) {
            va = ra.value();
            vb = rb.value();
        } else if (a instanceof Stmt.Assign aa && b instanceof Stmt.Assign ab && aa.targets().size() == 1 && ab.targets().size() == 1
                && aa.targets().get(0) instanceof Expr.Name na && ab.targets().get(0) instanceof Expr.Name nb && na.id().equals(nb.id())) {
            target = na.id();
            va = aa.value();
            vb = ab.value();
        } else {
            return Proposal.decline("torch.cond needs the same name assigned, or a return, in both branches");
        }
        for (Expr v : List.of(va, vb)) {
            if (f.kind(v) != ValueKind.TENSOR && f.kind(v) != ValueKind.BOOL_TENSOR) {
                return Proposal.decline("a branch value is not a tensor, which torch.cond's branches must return");
            }
            String bad = impureCall(f, v);
            if (bad != null) return Proposal.decline("a branch calls " + bad + ", which torch.cond cannot trace as a pure branch");
        }
        // operands: the tensors the branches read (names other than modules and self)
        Set<String> operands = new LinkedHashSet<>();
        List<String> unknown = new ArrayList<>();
        for (Expr v : List.of(va, vb)) collectOperands(f, v, operands, unknown);
        if (!unknown.isEmpty()) {
            return Proposal.decline("a branch reads " + unknown.get(0) + ", whose kind is not known (torch.cond operands "
                    + "must be tensors)");
        }
        if (operands.isEmpty()) return Proposal.decline("the branches read no tensor to pass to torch.cond");
        SourceText src = site.source();
        WhereRewrite.Torch t = WhereRewrite.Torch.of(site);
        Set<String> taken = new HashSet<>();
        var scope = site.module().symbols().scopeOpenedBy(f.function().def());
        if (scope != null) scope.symbols().forEach(sym -> taken.add(sym.name()));
        String tn = fresh("_gm_true", taken), fn = fresh("_gm_false", taken);
        String params = String.join(", ", operands);
        String indent = src.indentation(i.span().line()), unit = src.indentUnit();
        List<String> lines = new ArrayList<>();
        lines.add("def " + tn + "(" + params + "):");
        lines.add(unit + "return " + branchValue(src, va, operands));
        lines.add("def " + fn + "(" + params + "):");
        lines.add(unit + "return " + branchValue(src, vb, operands));
        String call = t.name() + ".cond(" + WhereRewrite.condText(site, t, cond) + ", " + tn + ", " + fn + ", ("
                + params + (operands.size() == 1 ? "," : "") + "))";
        lines.add(target == null ? "return " + call : target + " = " + call);
        StringBuilder text = new StringBuilder();
        for (int k = 0; k < lines.size(); k++) {
            if (k > 0) text.append('\n').append(indent);
            text.append(lines.get(k));
            if (k == lines.size() - 1) {
                String c = src.comment(i.span().line());
                if (c != null) text.append("  ").append(c);
            }
        }
        List<Diagnostic.Edit> edits = new ArrayList<>(t.importEdits());
        edits.add(new Diagnostic.Edit(i.span(), text.toString()));
        return Proposal.of(new Diagnostic.Fix(TITLE, Safety.UNSAFE, edits, "Unsafe: torch.cond is a prototype API; both "
                + "branches are traced and must return tensors of the same shape and dtype, or compiling fails; "
                + "branches must not mutate their inputs."));
    }

    /** A branch returning an operand unchanged must return a copy (torch.cond rejects aliasing outputs). */
    private static String branchValue(SourceText src, Expr v, Set<String> operands) {
        if (v instanceof Expr.Name n && operands.contains(n.id())) return n.id() + ".clone()";
        return src.text(v);
    }

    private static String fresh(String base, Set<String> taken) {
        String n = base;
        for (int k = 2; taken.contains(n); k++) n = base + "_" + k;
        taken.add(n);
        return n;
    }

    /** The first call that is neither a torch operation nor a module call, or null. */
    private static String impureCall(FunctionContext f, Expr e) {
        String[] found = {null};
        visit(e, n -> {
            if (found[0] != null) return;
            if (n instanceof Expr.NamedExpr || n instanceof Expr.Lambda || n instanceof Expr.Yield || n instanceof Expr.Await) {
                found[0] = "an expression with effects";
            } else if (n instanceof Expr.Call c) {
                if (c.func() instanceof Expr.Attribute a && a.attr().endsWith("_") && !a.attr().startsWith("_")) {
                    found[0] = Purity.calleeText(c) + " (in place)";
                    return;
                }
                if (f.value(c.func()).kind() == ValueKind.MODULE) return;
                if (c.func() instanceof Expr.Attribute a && f.value(a.value()).isTensor()) return;
                String qn = f.qualifiedName(c.func());
                if (qn != null && qn.startsWith("torch.") && !qn.startsWith("torch._dynamo") && !qn.startsWith("torch.compiler")) return;
                found[0] = Purity.calleeText(c);
            }
        });
        return found[0];
    }

    /**
     * The tensor locals a branch reads become operands; modules, {@code self} and Python values
     * Dynamo treats as constants stay closure variables; anything else is listed in {@code unknown}.
     */
    private static void collectOperands(FunctionContext f, Expr e, Set<String> out, List<String> unknown) {
        visit(e, n -> {
            if (n instanceof Expr.Name name && f.module().names().resolve(name) instanceof dev.graphmend.ir.symbols.Target.Local) {
                ValueKind k = f.kind(name);
                if (k.isTensor()) out.add(name.id());
                else if (k != ValueKind.MODULE && k != ValueKind.SELF && k != ValueKind.OBJECT && k != ValueKind.STATIC) {
                    unknown.add(name.id());
                }
            }
        });
    }

    private static void visit(dev.graphmend.ir.ast.Node n, java.util.function.Consumer<dev.graphmend.ir.ast.Node> v) {
        v.accept(n);
        n.forEachChild(c -> visit(c, v));
    }
}
