package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.CmpOperator;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.UnaryOperator;
import dev.graphmend.ir.symbols.Target;
import dev.graphmend.passes.config.AnalysisConfig;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One function as Dynamo would trace it from a compile root: what the rules and fixes ask of it.
 * The abstract values of its parameters (from the root's signature or the call sites that reach
 * it, {@link Parameters}), the value of any expression in it ({@link ValueInterpreter}), the
 * project functions its calls run ({@link CallResolver}), the statements Dynamo traces, and what
 * outside this function the answers were read from (what the analysis memo checks).
 */
public final class FunctionContext {
    private static final int MAX_CALL_DEPTH = 3;

    private final Project project;
    private final FunctionRef fn;
    private final Map<String, Val> params;
    private final int depth;
    private final Map<Stmt, List<Expr>> expressions = new IdentityHashMap<>();
    private final Set<Node> consulted; // shared with the contexts of callees this one asks
    private final Map<Node, Set<String>> methodLookups; // likewise
    private final Map<String, String> moduleReads = new java.util.concurrent.ConcurrentHashMap<>();
    private final ValueInterpreter interpreter;
    private final CallResolver calls;
    private List<Stmt> live;
    private boolean root;

    public FunctionContext(Project project, FunctionRef fn, Map<String, Val> params) {
        this(project, fn, params, 0);
    }

    /** A context for a function that is itself a compile root ({@code root}) or reached from one. */
    public FunctionContext(Project project, FunctionRef fn, Map<String, Val> params, boolean root) {
        this(project, fn, params, 0);
        this.root = root;
    }

    /** Whether this function is a compile root itself (Dynamo starts a frame here), not only reached from one. */
    public boolean isRoot() { return root; }

    /** Sets whether this is a compile root; values do not depend on it, so a context can be reused. */
    void markRoot(boolean root) { this.root = root; }

    private FunctionContext(Project project, FunctionRef fn, Map<String, Val> params, int depth) {
        this(project, fn, params, depth, java.util.Collections.newSetFromMap(new IdentityHashMap<>()), new IdentityHashMap<>());
    }

    private FunctionContext(Project project, FunctionRef fn, Map<String, Val> params, int depth, Set<Node> consulted,
                            Map<Node, Set<String>> methodLookups) {
        this.project = project;
        this.fn = fn;
        this.params = params;
        this.depth = depth;
        this.consulted = consulted;
        this.methodLookups = methodLookups;
        this.interpreter = new ValueInterpreter(this);
        this.calls = new CallResolver(this);
    }

    /**
     * The definitions outside this function whose bodies its values were read from: callees whose
     * return values were inferred, classes (and their bases) whose attributes were looked up, also
     * by the callees' contexts. What this context found can change only if this function, its
     * parameters or one of these changes, or a name's binding does ({@link AnalysisMemo}).
     */
    public Set<Node> consulted() { return consulted; }

    /** Whether a fix proposed here looked at every compiled function of the module (the deferral's registration does). */
    public boolean readWholeModule() { return !moduleReads.isEmpty(); }

    /**
     * The callees whose calls in every compiled function of the module a fix proposed here looked
     * at ({@code print}, {@code logger.info}): the deferral's registration covers all of them;
     * each with a digest of what was read (the calls that cannot be deferred, and why).
     */
    public Map<String, String> moduleReads() { return moduleReads; }

    /** Records that a fix read every compiled function's calls of {@code callee}, and a digest of what it saw. */
    public void markModuleRead(String callee, String digest) { moduleReads.put(callee, digest); }

    /** Records that a callee's body (and its class's attributes) were read to value a call of it. */
    public void consultBody(FunctionRef callee) {
        consulted.add(callee.def());
        if (callee.owner() != null) consult(callee.owner());
    }

    /** Records that a class's attributes (and its bases') decided an answer. */
    void consultClass(ClassInfo c) {
        if (c != null) consult(c);
    }

    /**
     * The methods looked up by name on project classes, by class definition: a call's target
     * changes when a class on the lookup's path gains or loses a method of that name (pasting a
     * method into a class changes nothing else). Shared with the callees' contexts.
     */
    public Map<Node, Set<String>> methodLookups() { return methodLookups; }

    /** Records that {@code name} was looked up on {@code c}: on it and every base the lookup may walk. */
    void lookedUp(ClassInfo c, String name) {
        java.util.ArrayDeque<ClassInfo> todo = new java.util.ArrayDeque<>();
        java.util.Set<ClassInfo> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        if (c != null) todo.add(c);
        while (!todo.isEmpty()) {
            ClassInfo k = todo.poll();
            if (!seen.add(k)) continue;
            methodLookups.computeIfAbsent(k.def(), x -> new java.util.HashSet<>()).add(name);
            todo.addAll(k.bases());
        }
    }

    private void consult(ClassInfo c) {
        java.util.ArrayDeque<ClassInfo> todo = new java.util.ArrayDeque<>();
        todo.add(c);
        while (!todo.isEmpty()) {
            ClassInfo k = todo.poll();
            if (consulted.add(k.def())) todo.addAll(k.bases());
        }
    }

    /** An attribute of a project class, recorded as consulted. */
    Val attributeOf(ClassInfo c, String attr) {
        consult(c);
        // an attribute's assignments are read from `self.x = v` statements, not every way it is set
        // (`self.a, self.b = f()` in forward): its value's kind, never a literal's truth
        return project.attribute(c, attr).withoutTruth();
    }

    private Expr attributeExprOf(ClassInfo c, String attr) {
        consult(c);
        return project.attributeExpr(c, attr);
    }

    public Project project() { return project; }

    public AnalysisConfig config() { return project.config(); }

    public FunctionRef function() { return fn; }

    public SourceModule module() { return fn.module(); }

    public Map<String, Val> params() { return params; }

    /** The qualified name an expression names ({@code torch.where}), or null. */
    public String qualifiedName(Expr e) {
        return fn.module().names().qualifiedName(e);
    }

    public boolean isCompilingCall(Expr e) {
        if (!(e instanceof Expr.Call c)) return false;
        String qn = qualifiedName(c.func());
        if (TorchApi.isTracingCheck(qn)) return c.args().size() <= 1 && c.keywords().size() <= 1;
        if (!c.args().isEmpty()) return false;
        if (TorchApi.isCompilingCheck(qn)) return true;
        // a name bound by a guarded import (`try: from transformers.utils import is_torchdynamo_compiling`
        // / `except ImportError: def is_torchdynamo_compiling(): ...`) resolves to nothing single
        String name = c.func() instanceof Expr.Name n ? n.id() : c.func() instanceof Expr.Attribute a ? a.attr() : null;
        if (qn == null) return name != null && (name.equals("is_torchdynamo_compiling") || name.equals("is_compiling"));
        if (!c.keywords().isEmpty()) return false;
        Callee wrapper = c.func() instanceof Expr.Name ? callee(c) : null;
        if (wrapper == null || wrapper.function().owner() != null || !returnsCompilingCheck(wrapper.function())) return false;
        consultBody(wrapper.function());
        return true;
    }

    /**
     * A project function that answers "is Dynamo compiling?": each of its returns is an
     * is-compiling check or the literal False, and one at least is a check.
     * torch_geometric's {@code is_compiling()} returns {@code torch.compiler.is_compiling()}
     * behind torch-version gates and False on older torch, so it is True under compile.
     */
    private static boolean returnsCompilingCheck(FunctionRef f) {
        if (!f.def().args().args().isEmpty() || !f.def().args().posonlyargs().isEmpty()) return false;
        boolean check = false;
        for (Stmt s : Statements.of(f.def().body())) {
            if (!(s instanceof Stmt.Return r)) continue;
            if (r.value() instanceof Expr.Constant k && Boolean.FALSE.equals(k.value())) continue;
            if (!(r.value() instanceof Expr.Call call) || !call.args().isEmpty() || !call.keywords().isEmpty()
                    || !TorchApi.isCompilingCheck(f.module().names().qualifiedName(call.func()))) {
                return false;
            }
            check = true;
        }
        return check;
    }

    /**
     * The expressions a statement evaluates itself, as {@link Statements#expressions} visits them;
     * listed once per context, since discovery and every rule walk the same statements.
     */
    public List<Expr> expressions(Stmt s) {
        List<Expr> l = expressions.get(s);
        if (l == null) {
            List<Expr> out = new java.util.ArrayList<>();
            Statements.expressions(s, out::add);
            expressions.put(s, l = out);
        }
        return l;
    }

    /** The statements Dynamo traces in this function (see {@link Statements#live}). */
    public List<Stmt> liveStatements() {
        if (live == null) live = Statements.live(fn.def().body(), this::isCompilingCall, this::staticTruth);
        return live;
    }

    // ---- parameters ----

    /** A compile root's parameters: tensors unless annotated or defaulted otherwise (docs/rules/README.md). */
    public static Map<String, Val> rootParams(Project project, FunctionRef f) {
        return Parameters.rootParams(f, project::typeAlias);
    }

    /** The parameter values of a callee given the values of a call's arguments (self already bound when {@code bound}). */
    public Map<String, Val> bindArguments(FunctionRef callee, Expr.Call call, boolean bound) {
        return Parameters.bind(callee, call, bound, this::value, project::typeAlias);
    }

    // ---- values (the interpreter) ----

    /** The abstract value of an expression of this function. */
    public Val value(Expr e) {
        return interpreter.value(e);
    }

    public ValueKind kind(Expr e) {
        return interpreter.kind(e);
    }

    /**
     * The definition of {@code n} reaching here that makes it a tensor when the others make it a
     * Python value ({@code skip = False} … {@code if training: skip = torch.rand([]) < p}): the
     * name is a tensor only on the paths through that assignment. Null unless every reaching
     * definition is a tensor or a static/None value and at least one of each.
     */
    public Node tensorDefinitionOnSomePaths(Expr.Name n) {
        return interpreter.tensorDefinitionOnSomePaths(n);
    }

    /** The values a name may hold here, when each reaching definition is a plain assignment (else null). */
    public List<Expr> assignedValues(Expr.Name n) {
        return interpreter.assignedValues(n);
    }

    /**
     * For {@code n = helper(...)} with one reaching definition, where the helper (in this module)
     * returns a tensor on some paths and something else on the others (Reformer's chunk length:
     * a config int, or {@code np.lcm(...)}): the return statement that gives the tensor, else null.
     */
    public Stmt.Return tensorReturnOnSomePaths(Expr.Name n) {
        return interpreter.tensorReturnOnSomePaths(n);
    }

    // ---- calls ----

    /**
     * The project function a call runs, when the analysis can tell: methods of {@code self}, of
     * submodules and of objects whose class is known; calling a module (its {@code forward});
     * {@code super().m()}; a def nested in this function or in one enclosing it; project
     * functions by name or import.
     */
    public Callee callee(Expr.Call c) {
        return calls.callee(c);
    }

    /**
     * Every project function a call may run: {@link #callee}'s one target, or, for a submodule
     * the class assigns from several classes, the forward of each. For the call graph; a call's
     * value needs the single target.
     */
    public List<Callee> callees(Expr.Call c) {
        return calls.callees(c);
    }

    CallResolver calls() { return calls; }

    /**
     * The truth value of a test Dynamo evaluates while tracing, when it is a constant we can see:
     * a literal, a module-level name assigned one literal, or an attribute of a module-level
     * instance of a project class whose class body assigns a literal (and no method reassigns it).
     * Null when not known.
     */
    public Boolean staticTruth(Expr test) {
        if (test instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not) {
            Boolean t = staticTruth(u.operand());
            return t == null ? null : !t;
        }
        if (test instanceof Expr.BoolOp b) {
            // Python's short circuit: `is_scripting() and X` is false while compiling, whatever X
            boolean and = b.op() == dev.graphmend.ir.ast.BoolOperator.And;
            boolean allKnown = true;
            for (Expr operand : b.values()) {
                Boolean t = staticTruth(operand);
                if (t == null) allKnown = false;
                else if (t != and) return t;
            }
            return allKnown ? and : null;
        }
        if (test instanceof Expr.Call c && c.args().isEmpty() && c.keywords().isEmpty()
                && TorchApi.isFalseWhileCompiling(qualifiedName(c.func()))) {
            return false;
        }
        if (test instanceof Expr.Call c) {
            Boolean known = isinstanceOfTensorParam(c);
            if (known != null) return known;
        }
        if (test instanceof Expr.Compare cmp) {
            Boolean known = noneTestOfNoneParam(cmp);
            if (known != null) return known;
        }
        if (test instanceof Expr.Name n && params.get(n.id()) != null && params.get(n.id()).truth() != null
                && holdsParameterAt(n.id(), n.span().line())) {
            // a flag every caller of this context leaves at one literal (`verbose=False` by default)
            return params.get(n.id()).truth();
        }
        Expr v = constantSource(test, 0);
        if (v instanceof Expr.Constant c) {
            Object o = c.value();
            if (o == null || o == dev.graphmend.ir.ast.PyConstant.Singleton.NONE) return false;
            if (o == dev.graphmend.ir.ast.PyConstant.Singleton.ELLIPSIS) return true;
            if (o instanceof Boolean b) return b;
            if (o instanceof String str) return !str.isEmpty();
            if (o instanceof java.math.BigInteger bi) return bi.signum() != 0;
            if (o instanceof Number n) return n.doubleValue() != 0;
        }
        return null;
    }

    /**
     * {@code p is None} (true) and {@code p is not None} (false) for a parameter every caller of
     * this context leaves None: passed the literal (or a name or parameter only ever bound to it),
     * or not passed where the default is None ({@code self.attn(x)} for
     * {@code def forward(self, x, mask=None)}); never a value read from an attribute.
     * Dynamo specializes on None, so the other branch is not traced for this call. A value that
     * is None on some paths only joins to its other kind, so it never counts here. Read from the
     * parameters alone, like {@link #isinstanceOfTensorParam}.
     */
    private Boolean noneTestOfNoneParam(Expr.Compare c) {
        if (c.ops().size() != 1) return null;
        CmpOperator op = c.ops().get(0);
        if (op != CmpOperator.Is && op != CmpOperator.IsNot) return null;
        Expr other = c.comparators().get(0);
        Expr name = Val.isNone(other) ? c.left() : Val.isNone(c.left()) ? other : null;
        if (!(name instanceof Expr.Name n)) return null;
        Val p = params.get(n.id());
        if (p == null || p.kind() != ValueKind.NONE || !Boolean.FALSE.equals(p.truth()) || !holdsParameterAt(n.id(), c.span().line())) {
            return null;
        }
        return op == CmpOperator.Is;
    }

    /**
     * {@code isinstance(p, SparseTensor)} for a tensor parameter {@code p} the function has not
     * rebound yet, and classes that cannot be a tensor's (project classes that do not subclass
     * torch.Tensor, other libraries' classes, Python builtins): false; {@code isinstance(p, Tensor)}:
     * true. Dynamo decides it while tracing, so a branch it rules out is not traced
     * (torch_geometric's {@code if isinstance(edge_index, SparseTensor)}).
     * Read from the parameters alone: the live statements depend on this answer.
     */
    private Boolean isinstanceOfTensorParam(Expr.Call c) {
        if (c.args().size() != 2 || !c.keywords().isEmpty() || !(c.args().get(0) instanceof Expr.Name n)
                || !"builtins.isinstance".equals(qualifiedName(c.func()))) {
            return null;
        }
        Val p = params.get(n.id());
        if (p == null || !p.isTensor() || !holdsParameterAt(n.id(), c.span().line())) return null;
        List<Expr> classes = c.args().get(1) instanceof Expr.Tuple t ? t.elts() : List.of(c.args().get(1));
        if (classes.size() == 1 && "torch.Tensor".equals(qualifiedName(classes.get(0)))) return Boolean.TRUE;
        for (Expr k : classes) if (!isNonTensorClass(k)) return null;
        return Boolean.FALSE;
    }

    /**
     * Whether no tensor is an instance of the class an expression names: a project class that does
     * not subclass a torch class, a Python builtin but {@code object}, another library's class
     * (torch_sparse's SparseTensor); not torch's own classes, and not the structural ABCs a tensor
     * satisfies ({@code collections.abc.Iterable}).
     */
    public boolean isNonTensorClass(Expr k) {
        String qn = qualifiedName(k);
        ClassInfo cls = project.resolveClass(fn.module(), k);
        if (cls == null) {
            return qn != null && !qn.startsWith("torch.") && !qn.equals("builtins.object") && !qn.startsWith("collections.")
                    && !qn.startsWith("typing.") && !qn.startsWith("abc.") && !qn.startsWith("numbers.");
        }
        for (ClassInfo b = cls; b != null; b = b.bases().isEmpty() ? null : b.bases().get(0)) {
            for (String ext : b.externalBases) if (ext.startsWith("torch.")) return false; // a Tensor subclass, maybe
        }
        return true;
    }

    private Map<String, Integer> firstStoreLine;
    private List<dev.graphmend.ir.ast.Span> loopSpans;

    /**
     * Whether a parameter still holds what the caller passed at a line: the function assigns it
     * only after that line, and the line is in no loop (a later assignment could come round).
     */
    private boolean holdsParameterAt(String name, int line) {
        if (firstStoreLine == null) {
            Map<String, Integer> first = new java.util.HashMap<>();
            List<dev.graphmend.ir.ast.Span> loops = new java.util.ArrayList<>();
            for (Stmt st : Statements.of(fn.def().body())) {
                if (st instanceof Stmt.For || st instanceof Stmt.While || st instanceof Stmt.AsyncFor) loops.add(st.span());
                Statements.expressions(st, e -> {
                    if (e instanceof Expr.Name n && n.ctx() == dev.graphmend.ir.ast.ExprContext.Store) {
                        first.merge(n.id(), n.span().line(), Math::min);
                    }
                });
            }
            firstStoreLine = first;
            loopSpans = loops;
        }
        for (dev.graphmend.ir.ast.Span l : loopSpans) if (l.line() <= line && line <= l.endLine()) return false;
        Integer stored = firstStoreLine.get(name);
        return stored == null || stored > line;
    }

    private Expr constantSource(Expr e, int depth) {
        if (depth > 4) return null;
        if (e instanceof Expr.Constant) return e;
        if (e instanceof Expr.Name n && fn.module().names().resolve(n) instanceof Target.ModuleMember) {
            List<Expr> vs = moduleAssignments(n.id());
            return vs.size() == 1 && vs.get(0) != null ? constantSource(vs.get(0), depth + 1) : null;
        }
        if (e instanceof Expr.Attribute a && a.value() instanceof Expr.Name n
                && fn.module().names().resolve(n) instanceof Target.ModuleMember) {
            List<Expr> vs = moduleAssignments(n.id());
            if (vs.size() == 1 && vs.get(0) instanceof Expr.Call c && c.args().isEmpty() && c.keywords().isEmpty()) {
                ClassInfo k = project.resolveClass(fn.module(), c.func());
                if (k != null && !k.ownMethods().containsKey("__init__")) {
                    Expr v = attributeExprOf(k, a.attr());
                    return v instanceof Expr.Constant ? v : null;
                }
            }
        }
        return null;
    }

    private List<Expr> moduleAssignments(String name) {
        return fn.module().moduleAssignments(name);
    }

    /**
     * Where an object comes from: the qualified name of the callable that made it
     * ({@code threading.Lock}, {@code torch.device}), followed through names and attributes of
     * project classes; or the qualified name the expression itself has. Null when not known.
     */
    public String origin(Expr e) {
        return origin(e, fn.module(), 0);
    }

    private String origin(Expr e, SourceModule where, int depth) {
        if (depth > 4 || e == null) return null;
        if (e instanceof Expr.Call c) return where.names().qualifiedName(c.func());
        if (where == fn.module() && e instanceof Expr.Name n) {
            List<Expr> vs = assignedValues(n);
            if (vs != null && !vs.isEmpty()) {
                String o = origin(vs.get(0), where, depth + 1);
                for (Expr v : vs) if (o == null || !o.equals(origin(v, where, depth + 1))) return null;
                return o;
            }
        }
        if (where == fn.module() && e instanceof Expr.Attribute a) {
            Val recv = value(a.value());
            if (recv.cls() != null) {
                consult(recv.cls());
                // every value but None, when they agree: `self.lstm = LSTM(...)` or None by mode (PyG's JumpingKnowledge)
                String o = null;
                for (Expr v : project.attributeValuesButNone(recv.cls(), a.attr())) {
                    String ov = origin(v, recv.cls().module(), depth + 1);
                    if (ov == null || o != null && !o.equals(ov)) return null;
                    o = ov;
                }
                if (o != null) return o;
            }
        }
        return where.names().qualifiedName(e);
    }

    private GraphInputs graphInputs;

    /** Which of this function's tensors Dynamo holds as graph inputs (built on first use). */
    GraphInputs graphInputs() {
        if (graphInputs == null) graphInputs = new GraphInputs(this);
        return graphInputs;
    }

    /** A context for the callee of {@code c} with the call's arguments bound, or null past the call depth limit. */
    FunctionContext calleeContext(Callee target, Expr.Call c) {
        if (depth >= MAX_CALL_DEPTH || target.function().def() == fn.def()) return null;
        return new FunctionContext(project, target.function(), bindArguments(target.function(), c, target.bound()),
                depth + 1, consulted, methodLookups);
    }
}
