package dev.graphmend.passes.rules;

import dev.graphmend.ir.ast.BoolOperator;
import dev.graphmend.ir.ast.CmpOperator;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.ExprContext;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.UnaryOperator;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.analysis.Statements;
import dev.graphmend.passes.analysis.TorchApi;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.model.RuleInfo;
import dev.graphmend.passes.model.Severity;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * GM301 capture-at-root (docs/rules/GM301.md): a {@code torch.compile} call or decorator whose root
 * breaks only where torch captures the operation under {@code fullgraph=True} — scalar reads
 * ({@code .item()}, {@code int()} of a tensor) and data-dependent output shapes ({@code nonzero},
 * boolean masks), observed on torch 2.10 and 2.15 — so one keyword gives the root one graph.
 *
 * <p>Unlike the other rules it judges a compile root, not a function: it runs after the analysis,
 * over the diagnostics that reach the root ({@code Findings.Attribution}), and only where those are
 * all known (every module in a whole-project analysis; in the editor, a root whose compiled code
 * is all in the open file). Not reported where a captured value decides a Python branch (an
 * {@code if}, {@code while}, {@code and}/{@code or}/{@code not}, {@code bool()}, or
 * the bound of a {@code for} loop), directly or through the names assigned from it: Dynamo cannot
 * guard on a value it has not computed, and fails there under {@code fullgraph=True}.
 */
public final class CaptureAtRoot {
    private CaptureAtRoot() {}

    public static final RuleInfo INFO = new RuleInfo("GM301", "capture-at-root", List.of(), Severity.INFORMATION,
            "A compile root whose every break torch captures under fullgraph=True").followingTorchVersion();

    /** The first torch release whose {@code fullgraph=True} was observed to capture these breaks. */
    public static final String CAPTURES_SINCE = "2.10";

    /** One diagnostic that reaches the root, with its module. */
    public record Reaching(SourceModule module, Diagnostic diagnostic) {}

    /**
     * Whether {@code fullgraph=True} captures the break of {@code d} (a diagnostic of {@code m}):
     * an explicit scalar read, {@code .item()}, {@code int(t)} or {@code float(t)} (GM201 without
     * a fix), a tensor check GM201's lowering is offered for, or an operator with a data-dependent
     * output shape seen captured (GM202, GB0036,
     * {@link #isCapturedShapeOp}). Not an implicit
     * read (a tensor where Python needs a size, a dim, a range bound, a padding, an {@code alpha}):
     * under fullgraph=True those fail ("Could not extract specialized integer from data-dependent
     * expression") or change the output, observed on torch 2.15 (fixtures/GM201.py under the Dynamo
     * oracle); nor {@code .tolist()}, which fails for float tensors, unless the function's code
     * shows the tensor holds integers ({@link #isIntegerTolist}); nor {@code bool(t)}, a branch.
     */
    public static boolean capturedUnderFullgraph(SourceModule m, Diagnostic d) {
        boolean shape = d.code().equals("GM202") && d.dynamoIds().contains("GB0036");
        // GM201's one fix lowers a tensor check (torch._check_tensor_all and helpers that call it):
        // under fullgraph=True Dynamo traces the check itself, with the same outcome (fixtures/GM201.py)
        if (d.code().equals("GM201") && !d.fixes().isEmpty()) return true;
        boolean read = d.code().equals("GM201") && d.fixes().isEmpty() && d.noFixReason() == null;
        if (!shape && !read) return false;
        List<Stmt> body = enclosingBody(m.ir().module().body(), d.span());
        Stmt at = Statements.innermostAround(body, d.span());
        if (at == null) return false;
        boolean[] captured = {false};
        Statements.expressions(at, e -> {
            if (!d.span().equals(e.span())) return;
            if (read && e instanceof Expr.Call c) captured[0] = isExplicitRead(c) || isIntegerTolist(Statements.of(body), c);
            if (shape) captured[0] = isCapturedShapeOp(e);
        });
        return captured[0];
    }

    /**
     * The data-dependent shapes seen captured under fullgraph=True (torch 2.15, the Dynamo oracle and
     * the sweep): boolean-mask indexing, {@code nonzero}/{@code argwhere}, one-argument
     * {@code where}, {@code masked_select}, {@code repeat_interleave}. Not {@code bincount} (its
     * result's size, sliced with {@code [:-1]}, failed a guard in torch_geometric's quantile
     * aggregation), {@code one_hot} (fails), nor the others, unseen.
     */
    private static boolean isCapturedShapeOp(Expr e) {
        if (e instanceof Expr.Subscript) return true;
        if (!(e instanceof Expr.Call c)) return false;
        String name = c.func() instanceof Expr.Attribute a ? a.attr() : c.func() instanceof Expr.Name n ? n.id() : "";
        return switch (name) {
            case "nonzero", "argwhere", "masked_select", "repeat_interleave" -> true;
            case "where" -> c.args().size() == 1 && c.keywords().isEmpty();
            default -> false;
        };
    }

    /** {@code t.item()}, {@code int(t)}, {@code float(t)}. */
    private static boolean isExplicitRead(Expr.Call c) {
        if (c.func() instanceof Expr.Attribute a) return a.attr().equals("item") && c.args().isEmpty() && c.keywords().isEmpty();
        return c.func() instanceof Expr.Name n && (n.id().equals("int") || n.id().equals("float"))
                && c.args().size() == 1 && c.keywords().isEmpty();
    }

    /**
     * {@code t.tolist()} of a tensor known to hold integers: fullgraph=True captures it as a list of
     * unbacked sizes (JetMoe's expert sizes, {@code gates.long().sum(0).tolist()}, then split by),
     * where a float tensor's fails ("Tensor.tolist() with non-integer tensor", torch 2.15).
     */
    private static boolean isIntegerTolist(List<Stmt> statements, Expr.Call c) {
        return c.func() instanceof Expr.Attribute a && a.attr().equals("tolist") && c.args().isEmpty() && c.keywords().isEmpty()
                && DType.of(statements, a.value(), c.span(), 0) == DType.INTEGER;
    }

    /**
     * What a function's own code shows of a tensor's element type: integer (an integer cast, an
     * index-returning op, a sum of booleans or integers, and views or reductions of these), boolean
     * (a comparison, {@code .bool()}), else unknown. A name read at {@code use} counts when every
     * binding of it that may reach there (in a statement before the use's, or in a loop around both)
     * is one plain assignment of such a value: {@code s = g.long().sum(0)} then
     * {@code s = s.tolist()} reads the first.
     */
    private enum DType {
        INTEGER, BOOLEAN, UNKNOWN;

        private static final Set<String> INTEGER_CASTS = Set.of("long", "int", "short", "byte");
        private static final Set<String> INTEGER_DTYPES = Set.of("long", "int64", "int32", "int", "int16", "int8", "uint8", "short");
        private static final Set<String> INDEX_OPS = Set.of("nonzero", "argmax", "argmin", "argsort", "count_nonzero");
        private static final Set<String> SAME_TYPE = Set.of("flatten", "view", "reshape", "squeeze", "unsqueeze", "t",
                "contiguous", "clone", "abs", "cpu", "detach", "diff", "amax", "amin", "flip");

        static DType of(List<Stmt> statements, Expr e, Span use, int depth) {
            if (depth > 8 || e == null) return UNKNOWN;
            if (e instanceof Expr.Compare) return BOOLEAN;
            if (e instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Invert) return of(statements, u.operand(), use, depth + 1) == BOOLEAN ? BOOLEAN : UNKNOWN;
            if (e instanceof Expr.Subscript sub) return of(statements, sub.value(), use, depth + 1);
            if (e instanceof Expr.Name n) return ofName(statements, n.id(), use, depth);
            if (!(e instanceof Expr.Call c) || !(c.func() instanceof Expr.Attribute a)) return UNKNOWN;
            String op = a.attr();
            boolean bare = c.args().isEmpty() && c.keywords().isEmpty();
            if (INTEGER_CASTS.contains(op) && bare) return INTEGER;
            if (op.equals("bool") && bare) return BOOLEAN;
            if (INDEX_OPS.contains(op)) return INTEGER;
            if (op.equals("to") || op.equals("type")) {
                List<Expr> given = new ArrayList<>(c.args());
                for (dev.graphmend.ir.ast.Keyword k : c.keywords()) if ("dtype".equals(k.arg())) given.add(k.value());
                for (Expr g : given) {
                    if (g instanceof Expr.Attribute t && t.value() instanceof Expr.Name tn && tn.id().equals("torch")
                            && INTEGER_DTYPES.contains(t.attr())) return INTEGER;
                }
                return UNKNOWN;
            }
            if (c.keywords().stream().anyMatch(k -> "dtype".equals(k.arg()))) return UNKNOWN;
            DType receiver = of(statements, a.value(), use, depth + 1);
            if (op.equals("sum") || op.equals("cumsum")) return receiver == UNKNOWN ? UNKNOWN : INTEGER;
            if (SAME_TYPE.contains(op) || (op.equals("max") || op.equals("min")) && bare) return receiver;
            return UNKNOWN;
        }

        private static DType ofName(List<Stmt> statements, String name, Span use, int depth) {
            DType out = null;
            for (Stmt s : statements) {
                List<Expr> stored = new ArrayList<>();
                Statements.expressions(s, e -> {
                    if (e instanceof Expr.Name n && n.ctx() == ExprContext.Store && n.id().equals(name)) stored.add(e);
                });
                if (stored.isEmpty() || !mayReach(statements, s, use)) continue;
                if (!(s instanceof Stmt.Assign as && as.targets().size() == 1 && as.targets().get(0) instanceof Expr.Name)) return UNKNOWN;
                DType t = of(statements, as.value(), s.span(), depth + 1);
                if (t == UNKNOWN || out != null && out != t) return UNKNOWN;
                out = t;
            }
            return out == null ? UNKNOWN : out;
        }

        /** Whether a binding in {@code s} may be what a read at {@code use} sees: before it, or in a loop around both. */
        private static boolean mayReach(List<Stmt> statements, Stmt s, Span use) {
            Span at = s.span();
            if (at == null || use == null) return true;
            boolean before = at.line() < use.line() || at.line() == use.line() && at.col() < use.col();
            if (before && !Statements.contains(at, use)) return true;
            // a loop around both (a `for` binding its own target included) carries a later binding back
            for (Stmt loop : statements) {
                if ((loop instanceof Stmt.For || loop instanceof Stmt.While) && loop.span() != null
                        && Statements.contains(loop.span(), at) && Statements.contains(loop.span(), use)) return true;
            }
            return false;
        }
    }

    /** A root GM301 reports: its {@code torch.compile} call or decorator, and what the diagnostic says. */
    public record Finding(Expr compile, String message) {}

    /**
     * What GM301 reports of a root, or null: the root's {@code torch.compile} call or decorator in
     * {@code module} at the root's line, every diagnostic reaching it captured, none of the captured
     * values deciding a branch, and a call that does not already choose {@code fullgraph}
     * ({@code fullgraphFree}: the fix's test of the call).
     */
    public static Finding check(SourceModule module, Diagnostic.Root root, List<Reaching> reaching, AnalysisConfig config,
                                java.util.function.Predicate<Expr> fullgraphFree) {
        if (reaching.isEmpty() || config.torchBefore(CAPTURES_SINCE)) return null;
        int scalars = 0, shapes = 0;
        for (Reaching r : reaching) {
            Diagnostic d = r.diagnostic();
            if (!capturedUnderFullgraph(r.module(), d)) return null;
            if (d.code().equals("GM201")) {
                scalars++;
                if (decidesABranch(r.module(), d.span())) return null;
            } else {
                shapes++;
            }
        }
        Expr compile = compileAt(module, root.line());
        if (compile == null || !fullgraphFree.test(compile)) return null;
        String what = (scalars > 0 ? scalars + " scalar read" + (scalars == 1 ? "" : "s") : "")
                + (scalars > 0 && shapes > 0 ? " and " : "")
                + (shapes > 0 ? shapes + " data-dependent shape" + (shapes == 1 ? "" : "s") : "");
        return new Finding(compile, "Every graph break of this compile root (" + what + ") is captured under fullgraph=True on torch "
                + config.torchVersion() + ": compile with fullgraph=True for one graph");
    }

    /**
     * The compile expression of a root at {@code line}: a {@code torch.compile(target, ...)} or
     * {@code target.compile(...)} call there, else the {@code @torch.compile} decorator of the
     * function defined there; null when there is none (a module's forward under module-forward).
     */
    public static Expr compileAt(SourceModule m, int line) {
        return m.derived(COMPILE_EXPRESSIONS).get(line);
    }

    /** By line, each compile call's and compiled definition's compile expression (the first on a line). */
    private static final SourceModule.Derived<java.util.Map<Integer, Expr>> COMPILE_EXPRESSIONS = new SourceModule.Derived<>(
            "torch.compile calls and decorators by line", m -> {
                java.util.Map<Integer, Expr> out = new java.util.HashMap<>();
                if (!m.ir().document().text().contains("compile")) return out; // far cheaper than the tree
                List<Node> todo = new ArrayList<>();
                todo.add(m.ir().module());
                while (!todo.isEmpty()) {
                    Node n = todo.remove(todo.size() - 1);
                    if (n instanceof Expr.Call c && c.span() != null && isCompileCall(m, c)) {
                        out.putIfAbsent(c.span().line(), c);
                    } else if (n instanceof Stmt.FunctionDef f && f.span() != null) {
                        for (Expr d : f.decoratorList()) {
                            Expr callee = d instanceof Expr.Call c ? c.func() : d;
                            if (TorchApi.isCompile(m.names().qualifiedName(callee))) out.put(f.span().line(), d);
                        }
                    }
                    n.forEachChild(todo::add);
                }
                return out;
            });

    /** Whether a root's compile call or decorator says {@code fullgraph=True}. */
    public static boolean compiledWithFullgraph(Expr compile) {
        if (!(compile instanceof Expr.Call c)) return false;
        for (dev.graphmend.ir.ast.Keyword k : c.keywords()) {
            if ("fullgraph".equals(k.arg())) return k.value() instanceof Expr.Constant v && Boolean.TRUE.equals(v.value());
        }
        return false;
    }

    private static boolean isCompileCall(SourceModule m, Expr.Call c) {
        String qn = m.names().qualifiedName(c.func());
        if (TorchApi.isCompile(qn)) return !c.args().isEmpty();
        return qn == null && c.func() instanceof Expr.Attribute a && a.attr().equals("compile") && c.args().isEmpty();
    }

    /**
     * Whether the value read at {@code site} decides a Python branch in its function: the read is
     * in a decision (a test, a boolean operand, {@code bool()}), or a name assigned from it (or
     * from a name assigned from it, …) is, or bounds a {@code for} loop.
     */
    static boolean decidesABranch(SourceModule m, Span site) {
        List<Stmt> body = enclosingBody(m.ir().module().body(), site);
        List<Stmt> statements = Statements.of(body);
        List<Span> decisions = new ArrayList<>();
        for (Stmt s : statements) decisions(s, decisions);
        for (Span d : decisions) if (contains(d, site)) return true;
        Set<String> tainted = new HashSet<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Stmt s : statements) {
                Expr value = s instanceof Stmt.Assign a ? a.value() : s instanceof Stmt.AnnAssign a ? a.value()
                        : s instanceof Stmt.AugAssign a ? a.value() : s instanceof Stmt.For f ? f.iter() : null;
                if (value == null || !(contains(value.span(), site) || readsAny(value, tainted))) continue;
                if (s instanceof Stmt.For f && readsAny(f.iter(), tainted)) return true; // a loop bound by the value
                List<Expr> targets = s instanceof Stmt.Assign a ? a.targets() : s instanceof Stmt.AnnAssign a ? List.of(a.target())
                        : s instanceof Stmt.AugAssign a ? List.of(a.target()) : List.of(((Stmt.For) s).target());
                for (Expr t : targets) grew |= storedNames(t, tainted);
            }
        }
        for (Span d : decisions) if (readsAny(m, d, statements, tainted)) return true;
        return false;
    }

    /** The body of the innermost function (or class) around {@code site}, else the module's. */
    private static List<Stmt> enclosingBody(List<Stmt> moduleBody, Span site) {
        List<Stmt> body = moduleBody;
        boolean deeper = true;
        while (deeper) {
            deeper = false;
            for (Stmt s : Statements.of(body)) {
                List<Stmt> inner = s instanceof Stmt.FunctionDef f ? f.body() : s instanceof Stmt.AsyncFunctionDef f ? f.body()
                        : s instanceof Stmt.ClassDef c ? c.body() : null;
                if (inner != null && s.span() != null && contains(s.span(), site) && inner != body) {
                    body = inner;
                    deeper = true;
                    break;
                }
            }
        }
        return body;
    }

    /**
     * The spans of the expressions of {@code s} whose truth Python takes. Not an {@code assert}'s
     * test: Dynamo turns it into an in-graph assertion (observed on torch 2.15).
     */
    private static void decisions(Stmt s, List<Span> out) {
        if (s instanceof Stmt.If i) out.add(i.test().span());
        if (s instanceof Stmt.While w) out.add(w.test().span());
        Statements.expressions(s, e -> {
            if (e instanceof Expr.IfExp x) out.add(x.test().span());
            if (e instanceof Expr.BoolOp b && (b.op() == BoolOperator.And || b.op() == BoolOperator.Or)) {
                for (Expr v : b.values()) out.add(v.span());
            }
            if (e instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not) out.add(u.operand().span());
            if (e instanceof Expr.Call c && c.func() instanceof Expr.Name n && n.id().equals("bool")) {
                for (Expr a : c.args()) out.add(a.span());
            }
        });
    }

    private static boolean storedNames(Expr target, Set<String> into) {
        boolean[] added = {false};
        List<Node> todo = new ArrayList<>(List.of(target));
        while (!todo.isEmpty()) {
            Node n = todo.remove(todo.size() - 1);
            if (n instanceof Expr.Name name && name.ctx() == ExprContext.Store) added[0] |= into.add(name.id());
            else if (n instanceof Expr.Tuple || n instanceof Expr.List || n instanceof Expr.Starred) n.forEachChild(todo::add);
        }
        return added[0];
    }

    private static boolean readsAny(Expr e, Set<String> names) {
        if (names.isEmpty() || e == null) return false;
        boolean[] reads = {false};
        List<Node> todo = new ArrayList<>(List.of(e));
        while (!todo.isEmpty() && !reads[0]) {
            Node n = todo.remove(todo.size() - 1);
            if (n instanceof Expr.Name name && name.ctx() == ExprContext.Load && names.contains(name.id())) reads[0] = true;
            n.forEachChild(todo::add);
        }
        return reads[0];
    }

    /**
     * Whether a name of {@code names} is read inside the span {@code decision} of one of
     * {@code statements}. An operand of {@code is}/{@code is not}, or the object of {@code isinstance},
     * is not read: an identity or type test ({@code if size is None:}, {@code isinstance(size, tuple)})
     * does not look at the captured number, so Dynamo needs no guard on it.
     */
    private static boolean readsAny(SourceModule m, Span decision, List<Stmt> statements, Set<String> names) {
        if (names.isEmpty()) return false;
        boolean[] reads = {false};
        for (Stmt s : statements) {
            Set<Span> identityOperands = new HashSet<>();
            Statements.expressions(s, e -> {
                if (e instanceof Expr.Compare c && c.ops().stream().allMatch(o -> o == CmpOperator.Is || o == CmpOperator.IsNot)) {
                    identityOperands.add(c.left().span());
                    for (Expr x : c.comparators()) identityOperands.add(x.span());
                }
                if (e instanceof Expr.Call c && !c.args().isEmpty() && "builtins.isinstance".equals(m.names().qualifiedName(c.func()))) {
                    identityOperands.add(c.args().get(0).span());
                }
            });
            Statements.expressions(s, e -> {
                if (e instanceof Expr.Name n && n.ctx() == ExprContext.Load && names.contains(n.id()) && n.span() != null
                        && contains(decision, n.span()) && !identityOperands.contains(n.span())) {
                    reads[0] = true;
                }
            });
            if (reads[0]) return true;
        }
        return false;
    }

    private static boolean contains(Span outer, Span inner) {
        return outer != null && inner != null && Statements.contains(outer, inner);
    }
}
