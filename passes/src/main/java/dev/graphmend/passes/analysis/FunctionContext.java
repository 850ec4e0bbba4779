package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.Arg;
import dev.graphmend.ir.ast.Arguments;
import dev.graphmend.ir.ast.CmpOperator;
import dev.graphmend.ir.ast.Comprehension;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Keyword;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Operator;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.UnaryOperator;
import dev.graphmend.ir.cfg.DefUse;
import dev.graphmend.ir.cfg.Definition;
import dev.graphmend.ir.symbols.Target;
import dev.graphmend.passes.config.AnalysisConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One function as Dynamo would trace it from a compile root: the abstract values of its
 * parameters (from the root's rules or the call sites that reach it), and the value of any
 * expression in it, flowing through assignments along the def-use chains of the UniIR and into
 * the project's functions, classes and modules.
 */
public final class FunctionContext {
    private static final int MAX_CALL_DEPTH = 3;
    private static final Set<String> STATIC_BUILTINS = Set.of(
            "len", "isinstance", "issubclass", "hasattr", "callable", "str", "repr", "type", "id", "range",
            "int", "float", "bool", "getattr", "format", "hash", "ord", "chr", "enumerate", "zip");

    private static final Set<String> INT_ARITHMETIC = Set.of("torch.div", "torch.floor_divide", "torch.true_divide",
            "torch.remainder", "torch.fmod");
    private static final Set<String> STATIC_CONTAINERS = Set.of("tuple", "Tuple", "list", "List", "Sequence");

    private final Project project;
    private final FunctionRef fn;
    private final Map<String, Val> params;
    private final int depth;
    private final Map<Expr, Val> memo = new IdentityHashMap<>();
    private final Map<Expr, Boolean> inProgress = new IdentityHashMap<>();
    private final Map<Stmt, List<Expr>> expressions = new IdentityHashMap<>();
    private final Set<Node> consulted; // shared with the contexts of callees this one asks
    private final Set<String> moduleReads = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private int cycleHits; // values computed while a cycle was cut are provisional: not memoised
    private Map<Node, Source> sources; // assignment target Name -> what it is assigned
    private List<Stmt> live;

    /**
     * What a target name is assigned: a value, or an element of a value being unpacked or iterated;
     * {@code counter} for the index {@code enumerate} gives (a Python int, value null).
     */
    private record Source(Expr value, boolean element, Stmt.AugAssign aug, boolean counter, boolean unpacked) {
        Source(Expr value, boolean element, Stmt.AugAssign aug) { this(value, element, aug, false, false); }
    }

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
        this(project, fn, params, depth, java.util.Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private FunctionContext(Project project, FunctionRef fn, Map<String, Val> params, int depth, Set<Node> consulted) {
        this.project = project;
        this.fn = fn;
        this.params = params;
        this.depth = depth;
        this.consulted = consulted;
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
     * at ({@code print}, {@code logger.info}): the deferral's registration covers all of them.
     */
    public Set<String> moduleReads() { return moduleReads; }

    public void markModuleRead(String callee) { moduleReads.add(callee); }

    private void consult(ClassInfo c) {
        java.util.ArrayDeque<ClassInfo> todo = new java.util.ArrayDeque<>();
        todo.add(c);
        while (!todo.isEmpty()) {
            ClassInfo k = todo.poll();
            if (consulted.add(k.def())) todo.addAll(k.bases());
        }
    }

    private Val attributeOf(ClassInfo c, String attr) {
        consult(c);
        return project.attribute(c, attr);
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
        return qn == null && name != null && (name.equals("is_torchdynamo_compiling") || name.equals("is_compiling"));
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

    /** A compile root's parameters: tensors unless annotated or defaulted otherwise (SPEC section 4). */
    public static Map<String, Val> rootParams(FunctionRef f) {
        Map<String, Val> m = new HashMap<>();
        Arguments a = f.def().args();
        List<Arg> positional = new ArrayList<>(a.posonlyargs());
        positional.addAll(a.args());
        int firstDefault = positional.size() - a.defaults().size();
        for (int i = 0; i < positional.size(); i++) {
            Arg p = positional.get(i);
            if (i == 0 && f.owner() != null) {
                m.put(p.arg(), Val.self(f.owner()));
                continue;
            }
            m.put(p.arg(), rootParam(f, p, i >= firstDefault ? a.defaults().get(i - firstDefault) : null));
        }
        for (int i = 0; i < a.kwonlyargs().size(); i++) {
            Expr d = i < a.kwDefaults().size() ? a.kwDefaults().get(i) : null;
            m.put(a.kwonlyargs().get(i).arg(), rootParam(f, a.kwonlyargs().get(i), d));
        }
        if (a.vararg() != null) m.put(a.vararg().arg(), Val.UNKNOWN);
        if (a.kwarg() != null) m.put(a.kwarg().arg(), Val.UNKNOWN);
        return m;
    }

    private static Val rootParam(FunctionRef f, Arg p, Expr dflt) {
        if (p.annotation() != null && !contradictsDefault(f, p, dflt)) return annotationValue(f, p.annotation());
        if (dflt == null) return Val.TENSOR;
        if (Val.isNone(dflt)) return Val.MAYBE_TENSOR; // Optional[Tensor] = None, or a flag: its uses decide
        return dflt instanceof Expr.Constant ? Val.STATIC : Val.UNKNOWN;
    }

    private static Val annotationValue(FunctionRef f, Expr ann) {
        String text = ann instanceof Expr.Constant c && c.value() instanceof String s ? s : null;
        String qn = text != null ? text : f.module().names().qualifiedName(ann);
        if (ann instanceof Expr.BinOp b && b.op() == Operator.BitOr) {
            // PEP 604 `X | None`: what X says
            if (Val.isNone(b.right())) return annotationValue(f, b.left());
            if (Val.isNone(b.left())) return annotationValue(f, b.right());
            return Val.UNKNOWN;
        }
        if (ann instanceof Expr.Subscript sub) {
            String outer = f.module().names().qualifiedName(sub.value());
            if (outer == null && sub.value() instanceof Expr.Name n) outer = n.id();
            if (outer != null && (outer.endsWith("Optional") || outer.endsWith("Union"))) {
                Expr inner = sub.slice();
                if (inner instanceof Expr.Tuple t && !t.elts().isEmpty()) inner = t.elts().get(0);
                return annotationValue(f, inner);
            }
            if (outer != null && STATIC_CONTAINERS.contains(outer.substring(outer.lastIndexOf('.') + 1))) {
                // tuple[int, int], list[int], Sequence[int]: Python numbers, not tensors
                List<Expr> elts = sub.slice() instanceof Expr.Tuple t ? t.elts() : List.of(sub.slice());
                for (Expr e : elts) {
                    if (e instanceof Expr.Constant c && c.value() == dev.graphmend.ir.ast.PyConstant.Singleton.ELLIPSIS) continue;
                    if (annotationValue(f, e).kind() != ValueKind.STATIC) return Val.UNKNOWN;
                }
                return Val.STATIC;
            }
            return Val.UNKNOWN;
        }
        if (qn == null) return Val.UNKNOWN;
        if (qn.equals("torch.BoolTensor") || qn.equals("BoolTensor")) return Val.BOOL_TENSOR;
        if (qn.equals("torch.Tensor") || qn.endsWith(".Tensor") || qn.equals("Tensor") || qn.equals("torch.FloatTensor")
                || qn.equals("torch.LongTensor") || qn.equals("torch.nn.Parameter")) {
            return Val.TENSOR;
        }
        switch (qn) {
            case "builtins.int": case "builtins.float": case "builtins.bool": case "builtins.str":
            case "int": case "float": case "bool": case "str": case "torch.dtype": case "torch.device":
                return Val.STATIC;
            default:
                return Val.UNKNOWN;
        }
    }

    /** The parameter values of a callee given the values of a call's arguments (self already bound when {@code bound}). */
    public Map<String, Val> bindArguments(FunctionRef callee, Expr.Call call, boolean bound) {
        // a staticmethod called through self or an instance gets no implicit first argument
        if (bound && isStaticMethod(callee)) bound = false;
        Map<String, Val> m = new HashMap<>();
        Arguments a = callee.def().args();
        List<Arg> positional = new ArrayList<>(a.posonlyargs());
        positional.addAll(a.args());
        int offset = 0;
        if (bound && !positional.isEmpty()) {
            m.put(positional.get(0).arg(), callee.owner() == null ? Val.UNKNOWN : Val.self(callee.owner()));
            offset = 1;
        }
        int firstDefault = positional.size() - a.defaults().size();
        for (int i = offset; i < positional.size(); i++) {
            int ai = i - offset;
            Val v = null;
            if (ai < call.args().size() && !(call.args().get(ai) instanceof Expr.Starred)) v = value(call.args().get(ai));
            else if (ai < call.args().size()) v = Val.UNKNOWN;
            if (v == null) {
                Expr kw = Project.keyword(call, positional.get(i).arg());
                if (kw != null) v = value(kw);
            }
            if (v == null && i >= firstDefault) v = defaultValue(a.defaults().get(i - firstDefault));
            m.put(positional.get(i).arg(), v == null ? Val.UNKNOWN : v);
        }
        for (int i = 0; i < a.kwonlyargs().size(); i++) {
            String name = a.kwonlyargs().get(i).arg();
            Expr kw = Project.keyword(call, name);
            Expr d = i < a.kwDefaults().size() ? a.kwDefaults().get(i) : null;
            m.put(name, kw != null ? value(kw) : d != null ? defaultValue(d) : Val.UNKNOWN);
        }
        boolean splat = false;
        for (Keyword k : call.keywords()) splat |= k.arg() == null;
        if (splat) {
            // `**kwargs` may fill any parameter the call does not pass itself, never one it passes
            // (that would be a TypeError): the explicit arguments keep their values
            Set<String> explicit = new java.util.HashSet<>();
            for (Keyword k : call.keywords()) if (k.arg() != null) explicit.add(k.arg());
            int given = 0;
            for (Expr x : call.args()) { if (x instanceof Expr.Starred) { given = Integer.MAX_VALUE; break; } given++; }
            for (int i = offset; i < positional.size() && i - offset < given; i++) explicit.add(positional.get(i).arg());
            m.replaceAll((k, v) -> v.kind() == ValueKind.SELF || explicit.contains(k) ? v : Val.UNKNOWN);
        }
        // a caller's value we cannot tell: the parameter's annotation, when it says (`mask: torch.BoolTensor | None`)
        for (Arg p : positional) annotationFallback(callee, m, p);
        for (Arg p : a.kwonlyargs()) annotationFallback(callee, m, p);
        if (a.vararg() != null) m.put(a.vararg().arg(), Val.UNKNOWN);
        if (a.kwarg() != null) m.put(a.kwarg().arg(), Val.UNKNOWN);
        return m;
    }

    /**
     * {@code output_attentions: torch.Tensor | None = False} (FastSpeech2): an annotation that says
     * tensor on a parameter whose default is a Python literal other than None is a slip; the
     * default tells what callers pass.
     */
    private static boolean contradictsDefault(FunctionRef f, Arg p, Expr dflt) {
        return dflt instanceof Expr.Constant && !Val.isNone(dflt) && annotationValue(f, p.annotation()).isTensor();
    }

    private static Expr defaultOf(Arguments a, Arg p) {
        List<Arg> positional = new ArrayList<>(a.posonlyargs());
        positional.addAll(a.args());
        int i = positional.indexOf(p), firstDefault = positional.size() - a.defaults().size();
        if (i >= 0) return i >= firstDefault ? a.defaults().get(i - firstDefault) : null;
        int k = a.kwonlyargs().indexOf(p);
        return k >= 0 && k < a.kwDefaults().size() ? a.kwDefaults().get(k) : null;
    }

    private static void annotationFallback(FunctionRef callee, Map<String, Val> m, Arg p) {
        Val v = m.get(p.arg());
        if (p.annotation() == null || v == null || v.kind() != ValueKind.UNKNOWN && v.kind() != ValueKind.MAYBE_TENSOR) return;
        if (contradictsDefault(callee, p, defaultOf(callee.def().args(), p))) return;
        Val ann = annotationValue(callee, p.annotation());
        if (ann.isTensor()) m.put(p.arg(), ann);
    }

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
     * The definition of {@code n} reaching here that makes it a tensor when the others make it a
     * Python value ({@code skip = False} … {@code if training: skip = torch.rand([]) < p}): the
     * name is a tensor only on the paths through that assignment. Null unless every reaching
     * definition is a tensor or a static/None value and at least one of each.
     */
    public Node tensorDefinitionOnSomePaths(Expr.Name n) {
        var defs = project.defUse(fn.module(), fn.def()).definitionsOf(n);
        Node tensor = null;
        boolean other = false;
        for (Definition d : defs) {
            Val v = definition(d);
            if (v.isTensor()) { if (tensor == null) tensor = d.node(); }
            else if (v.kind() == ValueKind.STATIC || v.kind() == ValueKind.NONE) other = true;
            else return null;
        }
        return other ? tensor : null;
    }

    /** The values a name may hold here, when each reaching definition is a plain assignment (else null). */
    public List<Expr> assignedValues(Expr.Name n) {
        var defs = project.defUse(fn.module(), fn.def()).definitionsOf(n);
        if (defs.isEmpty()) {
            if (fn.module().names().resolve(n) instanceof Target.ModuleMember) {
                List<Expr> vs = moduleAssignments(n.id());
                return vs.isEmpty() || vs.contains(null) ? null : vs;
            }
            return null;
        }
        List<Expr> out = new ArrayList<>();
        for (Definition d : defs) {
            Source src = sources().get(d.node());
            if (src == null || src.element() || src.aug() != null || src.counter()) return null;
            out.add(src.value());
        }
        return out;
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
                Expr v = attributeExprOf(recv.cls(), a.attr());
                if (v != null) return origin(v, recv.cls().module(), depth + 1);
            }
        }
        return where.names().qualifiedName(e);
    }

    private static boolean isStaticMethod(FunctionRef f) {
        for (Expr d : f.def().decoratorList()) {
            if (d instanceof Expr.Name n && n.id().equals("staticmethod")) return true;
        }
        return false;
    }

    private static Val defaultValue(Expr d) {
        if (d instanceof Expr.Constant c) return Val.ofConstant(c);
        return Val.UNKNOWN;
    }

    // ---- values ----

    /** The abstract value of an expression of this function. */
    public Val value(Expr e) {
        Val v = memo.get(e);
        if (v != null) return v;
        if (inProgress.put(e, Boolean.TRUE) != null) {
            cycleHits++; // a loop-carried definition: evaluate the rest of the cycle without it
            return Val.BOTTOM;
        }
        int hitsBefore = cycleHits;
        try {
            v = compute(e);
        } finally {
            inProgress.remove(e);
        }
        if (cycleHits == hitsBefore || inProgress.isEmpty() && definitionsInProgress.isEmpty()) {
            if (v.isBottom()) v = Val.UNKNOWN;
            memo.put(e, v);
        }
        return v;
    }

    public ValueKind kind(Expr e) {
        return value(e).kind();
    }

    private Val compute(Expr e) {
        if (e instanceof Expr.Constant c) return Val.ofConstant(c);
        if (e instanceof Expr.JoinedStr) return Val.STATIC;
        if (e instanceof Expr.Name n) return name(n);
        if (e instanceof Expr.NamedExpr ne) return value(ne.value());
        if (e instanceof Expr.Attribute a) return attribute(a);
        if (e instanceof Expr.Call c) return call(c);
        if (e instanceof Expr.Subscript s) return subscript(s);
        if (e instanceof Expr.BinOp b) return binOp(b);
        if (e instanceof Expr.Compare c) return compare(c);
        if (e instanceof Expr.UnaryOp u) {
            if (u.op() == UnaryOperator.Not) return Val.STATIC; // a Python bool (bool() of a tensor breaks: GM101)
            return value(u.operand());
        }
        if (e instanceof Expr.BoolOp b) {
            for (Expr x : b.values()) if (kind(x) != ValueKind.STATIC) return Val.UNKNOWN;
            return Val.STATIC;
        }
        if (e instanceof Expr.IfExp i) return value(i.body()).join(value(i.orelse()));
        if (e instanceof Expr.ListComp lc) {
            // `[m - v for v in lengths]` with `m` a tensor: a list of tensors (its elements branch as tensors)
            Val el = value(lc.elt());
            return el.isTensor() ? Val.TENSORS : el.isBottom() ? Val.BOTTOM : Val.UNKNOWN;
        }
        if (e instanceof Expr.Tuple t) return sequence(t.elts());
        if (e instanceof Expr.List l) return sequence(l.elts());
        return Val.UNKNOWN;
    }

    private Val sequence(List<Expr> elts) {
        if (elts.isEmpty()) return Val.UNKNOWN;
        boolean tensors = true, statics = true;
        for (Expr x : elts) {
            ValueKind k = kind(x);
            tensors &= k.isTensor() || k == ValueKind.TENSOR_SEQUENCE;
            statics &= k == ValueKind.STATIC;
        }
        return tensors ? Val.TENSORS : statics ? Val.STATIC : Val.UNKNOWN;
    }

    private Val name(Expr.Name n) {
        DefUse du = project.defUse(fn.module(), fn.def());
        var defs = du.definitionsOf(n);
        if (!defs.isEmpty()) {
            Val v = null;
            for (Definition d : defs) {
                Val dv = definition(d);
                v = v == null ? dv : v.join(dv);
                if (v.kind() == ValueKind.UNKNOWN) break;
            }
            // a local we cannot value that the function uses only a tensor's way (`m = mask > 0`
            // then `m.flatten()`, LED's mask after `_pad_to_window_size`) is a tensor there
            if (v.kind() == ValueKind.UNKNOWN && usedAsTensor().contains(n.id())) return Val.TENSOR;
            if ((v.isTensor() || v.kind() == ValueKind.TENSOR_SEQUENCE) && !v.input() && graphInputs().separated(n, defs)) {
                return v.asInput();
            }
            return v;
        }
        Val p = parameter(n.id());
        if (p != null && isParameterUse(n)) return p;
        Target t = fn.module().names().resolve(n);
        Node bound = comprehensionTarget(t, n.id());
        if (bound != null) {
            // a comprehension's own variable: the def-use chains leave it out (it is shadowed there)
            Source src = sources().get(bound);
            if (src != null && src.value() != null) return src.element() ? element(value(src.value())) : value(src.value());
            return src != null && src.counter() ? Val.STATIC : Val.UNKNOWN;
        }
        if (t instanceof Target.Imported imp) return importedValue(imp.qualifiedName());
        if (t instanceof Target.ModuleMember mm && mm.path().indexOf('.') < 0) return moduleConstant(mm.path());
        return Val.UNKNOWN;
    }

    /** The target Name that binds {@code id} in the comprehension a local resolves to, or null. */
    private static Node comprehensionTarget(Target t, String id) {
        if (!(t instanceof Target.Local loc) || loc.symbol() == null || loc.symbol().scope() == null) return null;
        List<Comprehension> gens = generators(loc.symbol().scope().node());
        if (gens == null) return null;
        Node[] found = {null};
        for (Comprehension g : gens) findTarget(g.target(), id, found);
        return found[0];
    }

    /** A comprehension's {@code for} clauses, or null when the node is not a comprehension. */
    private static List<Comprehension> generators(Node n) {
        return n instanceof Expr.ListComp lc ? lc.generators()
                : n instanceof Expr.SetComp sc ? sc.generators()
                : n instanceof Expr.GeneratorExp g ? g.generators()
                : n instanceof Expr.DictComp dc ? dc.generators() : null;
    }

    private static void findTarget(Expr target, String id, Node[] found) {
        if (target instanceof Expr.Name n && n.id().equals(id)) found[0] = n;
        else if (target instanceof Expr.Tuple tu) tu.elts().forEach(e -> findTarget(e, id, found));
        else if (target instanceof Expr.List l) l.elts().forEach(e -> findTarget(e, id, found));
        else if (target instanceof Expr.Starred st) findTarget(st.value(), id, found);
    }

    /**
     * A parameter's value. One that defaults to None, or that a caller passes as something we
     * cannot tell, is a tensor when the body uses it as one.
     */
    private Val parameter(String name) {
        Val p = params.get(name);
        boolean open = p != null && (p.kind() == ValueKind.MAYBE_TENSOR || p.kind() == ValueKind.UNKNOWN);
        return open && usedAsTensor().contains(name) ? Val.TENSOR : p;
    }

    private Set<String> usedAsTensor;

    /**
     * The names this function's body uses the way only a tensor is used: an attribute or method
     * that only tensors have ({@code x.shape}, {@code x.nonzero()}), a multi-dimensional subscript
     * ({@code x[:, 0]}), or the first argument of a torch operation ({@code torch.nonzero(x)}). A
     * parameter that defaults to None and is used so is a tensor whenever that code runs (None
     * would raise there); a flag such as {@code output_attentions=None} is never used so.
     */
    private Set<String> usedAsTensor() {
        Set<String> u = usedAsTensor;
        if (u == null) {
            Set<String> found = new java.util.HashSet<>();
            // this function's own statements and expressions: nested functions and lambda bodies are other scopes
            for (Stmt s : Statements.of(fn.def().body())) Statements.expressions(s, e -> tensorUse(e, found));
            derivedTensorUses(found);
            usedAsTensor = u = found;
        }
        return u;
    }

    private void tensorUse(Expr e, Set<String> out) {
        if (e instanceof Expr.Attribute a && a.value() instanceof Expr.Name name && TorchApi.isTensorOnlyAttribute(a.attr())) {
            out.add(name.id());
        } else if (e instanceof Expr.Subscript s && s.value() instanceof Expr.Name name && isMultiDimensionalIndex(s.slice())) {
            out.add(name.id());
        } else if (e instanceof Expr.Call c && !c.args().isEmpty() && c.args().get(0) instanceof Expr.Name name
                && TorchApi.takesTensorFirst(fn.module().names().qualifiedName(c.func()))) {
            out.add(name.id());
        }
    }

    /**
     * {@code m = mask > 0} then {@code m.flatten()}: when a local used as a tensor is only ever a
     * comparison or arithmetic of one name with constants, that name is a tensor too (with a
     * Python number there, {@code m} would be a bool or an int, and the use would raise).
     */
    private void derivedTensorUses(Set<String> found) {
        Map<String, List<Expr>> assigned = new HashMap<>();
        for (Stmt s : Statements.of(fn.def().body())) {
            if (s instanceof Stmt.Assign a && a.targets().size() == 1 && a.targets().get(0) instanceof Expr.Name n) {
                assigned.computeIfAbsent(n.id(), k -> new ArrayList<>()).add(a.value());
            } else if (s instanceof Stmt.AugAssign a && a.target() instanceof Expr.Name n) {
                assigned.computeIfAbsent(n.id(), k -> new ArrayList<>()).add(null);
            } else if (s instanceof Stmt.For f && f.target() instanceof Expr.Name n) {
                assigned.computeIfAbsent(n.id(), k -> new ArrayList<>()).add(null);
            }
        }
        for (boolean grew = true; grew; ) {
            grew = false;
            for (var e : assigned.entrySet()) {
                if (!found.contains(e.getKey())) continue;
                String source = null;
                for (Expr v : e.getValue()) {
                    String x = v == null ? null : derivedFrom(v);
                    if (x == null || source != null && !source.equals(x)) { source = null; break; }
                    source = x;
                }
                if (source != null && found.add(source)) grew = true;
            }
        }
    }

    /** The one name {@code e} computes from by comparison or arithmetic with constants, or null. */
    private static String derivedFrom(Expr e) {
        List<Expr> operands;
        if (e instanceof Expr.Compare c) {
            if (comparesWithNone(c)) return null;
            for (CmpOperator op : c.ops()) {
                if (op == CmpOperator.Is || op == CmpOperator.IsNot || op == CmpOperator.In || op == CmpOperator.NotIn) return null;
            }
            operands = new ArrayList<>(c.comparators());
            operands.add(c.left());
        } else if (e instanceof Expr.BinOp b) {
            operands = List.of(b.left(), b.right());
        } else if (e instanceof Expr.UnaryOp u && u.op() != UnaryOperator.Not) {
            operands = List.of(u.operand());
        } else {
            return null;
        }
        String name = null;
        for (Expr x : operands) {
            if (x instanceof Expr.Constant k && (k.value() instanceof Number || k.value() instanceof java.math.BigInteger)) continue;
            if (x instanceof Expr.UnaryOp u && u.operand() instanceof Expr.Constant) continue; // -1
            if (!(x instanceof Expr.Name n) || name != null) return null;
            name = n.id();
        }
        return name;
    }

    /** {@code [:, 0]}, {@code [..., None]}: indices only tensors and arrays take (lists and tuples raise). */
    private static boolean isMultiDimensionalIndex(Expr slice) {
        if (!(slice instanceof Expr.Tuple t)) return false;
        for (Expr e : t.elts()) {
            if (e instanceof Expr.Slice || Val.isNone(e)) return true;
            if (e instanceof Expr.Constant c && c.value() == dev.graphmend.ir.ast.PyConstant.Singleton.ELLIPSIS) return true;
        }
        return false;
    }

    /** A use with no reaching definition in the graph that still names a parameter (e.g. inside a lambda). */
    private boolean isParameterUse(Expr.Name n) {
        return fn.module().symbols().scopeOf(n) == fn.module().symbols().scopeOpenedBy(fn.def());
    }

    private Val importedValue(String qn) {
        if (qn == null) return Val.UNKNOWN;
        if (qn.startsWith("torch.") && qn.indexOf('.', 6) < 0) {
            String last = qn.substring(6);
            if (last.matches("(float|int|uint|bfloat|complex|bool|half|double|long|short|cfloat)[0-9]*(_[a-z0-9]+)?")) {
                return Val.STATIC; // a dtype
            }
        }
        return Val.UNKNOWN;
    }

    private Val moduleConstant(String name) {
        Val v = null;
        for (Stmt s : fn.module().ir().module().body()) {
            if (s instanceof Stmt.Assign a) {
                for (Expr t : a.targets()) {
                    if (t instanceof Expr.Name tn && tn.id().equals(name)) {
                        Val dv = a.value() instanceof Expr.Constant c ? Val.ofConstant(c) : Val.UNKNOWN;
                        v = v == null ? dv : v.join(dv);
                    }
                }
            }
        }
        return v == null ? Val.UNKNOWN : v;
    }

    private final java.util.Set<Definition> definitionsInProgress = new java.util.HashSet<>();

    private Val definition(Definition d) {
        if (!definitionsInProgress.add(d)) {
            cycleHits++;
            return Val.BOTTOM; // augmented assignments feeding each other around a loop
        }
        try {
            return definitionValue(d);
        } finally {
            definitionsInProgress.remove(d);
        }
    }

    private Val definitionValue(Definition d) {
        Node node = d.node();
        if (d.kind() == Definition.Kind.PARAMETER) {
            Val p = parameter(d.name());
            return p == null ? Val.UNKNOWN : p;
        }
        Source src = sources().get(node);
        if (src == null) return Val.UNKNOWN;
        if (src.counter()) return Val.STATIC;
        if (src.aug() != null) {
            Val right = value(src.aug().value());
            Val left = before(src.aug());
            if (left.isTensor() || right.isTensor()) return Val.TENSOR;
            return left.kind() == ValueKind.STATIC && right.kind() == ValueKind.STATIC ? Val.STATIC : Val.UNKNOWN;
        }
        Val v = value(src.value());
        // `h, w = layer(x)`: a call taken for a tensor (a module whose class is not known) is more
        // likely a tuple of mixed values than a tensor unpacked along its first dimension
        if (src.unpacked() && v.kind() == ValueKind.TENSOR && src.value() instanceof Expr.Call) return Val.UNKNOWN;
        return src.element() ? element(v) : v;
    }

    /** The value of an augmented assignment's target before it: the definitions reaching it as a use. */
    private Val before(Stmt.AugAssign aug) {
        if (aug.target() instanceof Expr.Name n) {
            Val v = null;
            for (Definition d : project.defUse(fn.module(), fn.def()).definitionsOf(n)) {
                if (sources().get(d.node()) != null && sources().get(d.node()).aug() == aug) continue;
                Val dv = definition(d);
                v = v == null ? dv : v.join(dv);
            }
            if (v == null) {
                Val p = parameter(n.id());
                return p == null ? Val.UNKNOWN : p;
            }
            return v;
        }
        return value(aug.target());
    }

    private static Val element(Val v) {
        switch (v.kind()) {
            case TENSOR_SEQUENCE: return v.input() ? Val.TENSOR.asInput() : Val.TENSOR; // a tuple's own elements
            case TENSOR: case BOOL_TENSOR: return Val.TENSOR; // rows of a tensor: computed in the graph
            case STATIC: return Val.STATIC;
            case MODULE: return v; // iterating an nn.ModuleList / nn.Sequential
            default: return Val.UNKNOWN;
        }
    }

    private Map<Node, Source> sources() {
        if (sources != null) return sources;
        Map<Node, Source> m = new IdentityHashMap<>();
        for (Stmt s : Statements.of(fn.def().body())) {
            if (s instanceof Stmt.Assign a) {
                for (Expr t : a.targets()) bind(m, t, a.value(), false);
            } else if (s instanceof Stmt.AnnAssign a && a.value() != null) {
                bind(m, a.target(), a.value(), false);
            } else if (s instanceof Stmt.AugAssign a) {
                m.put(a.target(), new Source(null, false, a));
            } else if (s instanceof Stmt.For f) {
                bind(m, f.target(), f.iter(), true);
            }
            expressions(s).forEach(e -> {
                if (e instanceof Expr.NamedExpr ne) bind(m, ne.target(), ne.value(), false);
                // `[f(h, w) for h, w in zip(heights, widths)]`: a comprehension's targets like a loop's
                List<Comprehension> gens = generators(e);
                if (gens != null) for (Comprehension g : gens) bind(m, g.target(), g.iter(), true);
            });
        }
        sources = m;
        return m;
    }

    private void bind(Map<Node, Source> m, Expr target, Expr value, boolean element) {
        if (target instanceof Expr.Name) {
            m.put(target, new Source(value, element, null));
        } else if (target instanceof Expr.Tuple || target instanceof Expr.List) {
            List<Expr> ts = target instanceof Expr.Tuple t ? t.elts() : ((Expr.List) target).elts();
            if (element && bindZipped(m, ts, value)) return;
            List<Expr> vs = element ? null
                    : value instanceof Expr.Tuple t ? t.elts() : value instanceof Expr.List l ? l.elts() : null;
            boolean starred = false;
            for (Expr t : ts) starred |= t instanceof Expr.Starred;
            for (int i = 0; i < ts.size(); i++) {
                Expr t = ts.get(i);
                if (t instanceof Expr.Starred) continue;
                if (vs != null && !starred && vs.size() == ts.size()) bind(m, t, vs.get(i), false);
                else if (!element && t instanceof Expr.Name) m.put(t, new Source(value, true, null, false, true));
                // an element of an iterated sequence, unpacked again: unknown
            }
        }
    }

    /**
     * {@code for i, x in enumerate(xs)} and {@code for a, b in zip(as, bs)} (nested as in
     * {@code enumerate(zip(...))}): each target is an element of its own sequence, the index a
     * Python int. False when the iterable is neither.
     */
    private boolean bindZipped(Map<Node, Source> m, List<Expr> targets, Expr iter) {
        if (!(iter instanceof Expr.Call c) || !c.keywords().isEmpty()) return false;
        for (Expr t : targets) if (t instanceof Expr.Starred) return false;
        for (Expr a : c.args()) if (a instanceof Expr.Starred) return false;
        String qn = fn.module().names().qualifiedName(c.func());
        if ("builtins.enumerate".equals(qn) && c.args().size() == 1 && targets.size() == 2) {
            if (targets.get(0) instanceof Expr.Name) m.put(targets.get(0), new Source(null, false, null, true, false));
            bind(m, targets.get(1), c.args().get(0), true);
            return true;
        }
        if ("builtins.zip".equals(qn) && c.args().size() == targets.size()) {
            for (int i = 0; i < targets.size(); i++) bind(m, targets.get(i), c.args().get(i), true);
            return true;
        }
        return false;
    }

    private Val attribute(Expr.Attribute a) {
        Val recv = value(a.value());
        switch (recv.kind()) {
            case BOTTOM:
                return Val.BOTTOM;
            case OBJECT:
                return recv.cls() == null ? Val.UNKNOWN : attributeOf(recv.cls(), a.attr());
            case TENSOR_SEQUENCE:
                return a.attr().equals("values") || a.attr().equals("indices") ? Val.TENSOR : Val.UNKNOWN;
            case SELF:
                if (recv.cls() == null) return a.attr().equals("training") ? Val.STATIC : Val.UNKNOWN;
                return attributeOf(recv.cls(), a.attr());
            case TENSOR: case BOOL_TENSOR:
                return Val.of(TorchApi.tensorAttributeKind(a.attr()));
            case MODULE:
                if (a.attr().equals("weight") || a.attr().equals("bias")) return Val.TENSOR;
                if (a.attr().equals("training")) return Val.STATIC;
                if (recv.cls() != null) return attributeOf(recv.cls(), a.attr());
                return Val.UNKNOWN;
            case STATIC:
                return Val.STATIC; // config.hidden_size, x.shape.numel, …
            default:
                return importedValue(qualifiedName(a));
        }
    }

    private Val subscript(Expr.Subscript s) {
        Val v = value(s.value());
        switch (v.kind()) {
            case BOTTOM: return Val.BOTTOM;
            case TENSOR: case BOOL_TENSOR: return Val.TENSOR;
            case TENSOR_SEQUENCE: return s.slice() instanceof Expr.Slice ? Val.TENSORS : element(v);
            case STATIC: return Val.STATIC;
            case MODULE: return v;
            case NUMPY_ARRAY: return Val.NUMPY_ARRAY;
            default:
                // `f(mask)[:, 0, 0, :]`: only tensors (and arrays) take such an index
                return isMultiDimensionalIndex(s.slice()) ? Val.TENSOR : Val.UNKNOWN;
        }
    }

    private Val binOp(Expr.BinOp b) {
        Val l = value(b.left()), r = value(b.right());
        if (l.isBottom()) return r.isTensor() ? Val.TENSOR : Val.BOTTOM;
        if (r.isBottom()) return l.isTensor() ? Val.TENSOR : Val.BOTTOM;
        if (l.isTensor() || r.isTensor()) {
            boolean logical = b.op() == Operator.BitAnd || b.op() == Operator.BitOr || b.op() == Operator.BitXor;
            if (logical && l.kind() != ValueKind.TENSOR && r.kind() != ValueKind.TENSOR) return Val.BOOL_TENSOR;
            if (l.kind() == ValueKind.TENSOR_SEQUENCE || r.kind() == ValueKind.TENSOR_SEQUENCE) return Val.UNKNOWN;
            return Val.TENSOR;
        }
        if (l.kind() == ValueKind.STATIC && r.kind() == ValueKind.STATIC) return Val.STATIC;
        if (numpyOverStatic(l.kind(), r.kind())) return Val.NUMPY_ARRAY; // `n % np.lcm(a, b)`
        return Val.UNKNOWN;
    }

    private static boolean numpyOverStatic(ValueKind... kinds) {
        boolean numpy = false;
        for (ValueKind k : kinds) {
            if (k == ValueKind.NUMPY_ARRAY) numpy = true;
            else if (k != ValueKind.STATIC) return false;
        }
        return numpy;
    }

    /** {@code a == None} / {@code a != None}, the only operator (a tensor's {@code __eq__} with None is False). */
    private static boolean comparesWithNone(Expr.Compare c) {
        if (c.ops().size() != 1 || !(c.ops().get(0) == CmpOperator.Eq || c.ops().get(0) == CmpOperator.NotEq)) return false;
        return Val.isNone(c.left()) || Val.isNone(c.comparators().get(0));
    }

    private Val compare(Expr.Compare c) {
        boolean identity = true, membership = false;
        for (CmpOperator op : c.ops()) {
            identity &= op == CmpOperator.Is || op == CmpOperator.IsNot;
            membership |= op == CmpOperator.In || op == CmpOperator.NotIn;
        }
        if (identity) return Val.STATIC;
        if (membership) return Val.UNKNOWN;
        if (comparesWithNone(c)) return Val.STATIC; // `x != None`: Dynamo decides it while tracing
        boolean anyTensor = value(c.left()).isTensor(), allStatic = kind(c.left()) == ValueKind.STATIC;
        boolean bottom = value(c.left()).isBottom();
        List<ValueKind> kinds = new ArrayList<>(List.of(kind(c.left())));
        for (Expr x : c.comparators()) {
            anyTensor |= value(x).isTensor();
            allStatic &= kind(x) == ValueKind.STATIC;
            bottom |= value(x).isBottom();
            kinds.add(kind(x));
        }
        if (anyTensor) return Val.BOOL_TENSOR;
        if (bottom) return Val.BOTTOM;
        if (numpyOverStatic(kinds.toArray(ValueKind[]::new))) return Val.NUMPY_ARRAY;
        return allStatic ? Val.STATIC : Val.UNKNOWN;
    }

    private Val call(Expr.Call c) {
        Expr f = c.func();
        Val recv = f instanceof Expr.Attribute a ? value(a.value()) : null;
        if (recv != null && recv.isBottom()) return Val.BOTTOM;
        if (recv != null && recv.isTensor()) {
            String attr = ((Expr.Attribute) f).attr();
            if (attr.equals("max") || attr.equals("min") || attr.equals("median")) {
                // x.max() is a tensor, x.max(dim) a (values, indices) pair, x.max(other) a tensor
                if (c.args().isEmpty() && Project.keyword(c, "dim") == null) return Val.TENSOR;
                if (!c.args().isEmpty() && value(c.args().get(0)).isTensor()) return Val.TENSOR;
                return Val.TENSORS;
            }
            if (recv.kind() == ValueKind.BOOL_TENSOR && keepsDtype(attr, c)) return Val.BOOL_TENSOR;
            return Val.of(TorchApi.tensorMethodKind(attr));
        }
        boolean receiverOfOurs = recv != null && recv.cls() != null && (recv.kind() == ValueKind.SELF
                || recv.kind() == ValueKind.OBJECT || recv.kind() == ValueKind.MODULE);
        if (receiverOfOurs || isSuperCall(f)) {
            Callee target = callee(c);
            if (target != null) return returnValue(target.function(), c, target.bound());
            // a method the class does not define, or a torch module (no class of ours) called through self
            if (recv != null && recv.kind() == ValueKind.SELF) {
                Val attr = attributeOf(recv.cls(), ((Expr.Attribute) f).attr());
                return attr.kind() == ValueKind.MODULE && attr.cls() == null ? Val.TENSOR : Val.UNKNOWN;
            }
            return Val.UNKNOWN;
        }
        if (recv != null && recv.kind() == ValueKind.MODULE && ((Expr.Attribute) f).attr().equals("forward")) return Val.TENSOR;
        String qn = qualifiedName(f);
        ValueKind torch = TorchApi.torchCallKind(qn);
        if (torch != null) {
            if (torch == ValueKind.MODULE) return Val.MODULE;
            if ("torch.where".equals(qn) && c.args().size() == 1) return Val.TENSORS;
            if (INT_ARITHMETIC.contains(qn) && !c.args().isEmpty() && noTensor(c.args())) {
                // torch.div(seq_len, w, rounding_mode="trunc") on sizes: Dynamo computes it while
                // tracing (Longformer's chunk counts; no break, observed in fixtures/GM201.py)
                return allStatic(c.args()) ? Val.STATIC : Val.UNKNOWN;
            }
            return Val.of(torch);
        }
        if (qn != null && qn.startsWith("builtins.")) return builtinCall(qn.substring(9), c);
        if (TorchApi.isNumpyArrayFunction(qn)) return Val.NUMPY_ARRAY;
        Callee target = callee(c);
        if (target != null) return returnValue(target.function(), c, target.bound());
        Val callee = f instanceof Expr.Name || f instanceof Expr.Attribute || f instanceof Expr.Subscript ? calleeValue(f) : Val.UNKNOWN;
        if (callee.kind() == ValueKind.MODULE) return callee.cls() == null ? Val.TENSOR : Val.UNKNOWN; // a torch module
        ClassInfo cls = project.resolveClass(fn.module(), f);
        if (cls != null) return cls.isModule() ? Val.module(cls) : Val.UNKNOWN;
        return Val.UNKNOWN;
    }

    /** {@code mask.to(x.device)}, {@code mask.clone()}: a copy or a move that keeps the element type. */
    private boolean keepsDtype(String method, Expr.Call c) {
        switch (method) {
            case "clone": case "detach": case "contiguous": case "cpu": case "cuda":
                return true;
            case "to":
                for (Expr x : c.args()) if (!isDevice(x)) return false;
                for (Keyword k : c.keywords()) {
                    if (k.arg() == null || !(k.arg().equals("device") || k.arg().equals("non_blocking") || k.arg().equals("copy"))) return false;
                }
                return true;
            default:
                return false;
        }
    }

    private boolean isDevice(Expr e) {
        if (e instanceof Expr.Attribute a) return a.attr().equals("device");
        if (e instanceof Expr.Constant k) return k.value() instanceof String;
        return e instanceof Expr.Call call && "torch.device".equals(qualifiedName(call.func()));
    }

    private boolean noTensor(List<Expr> args) {
        for (Expr a : args) if (value(a).isTensor() || value(a).kind() == ValueKind.MAYBE_TENSOR) return false;
        return true;
    }

    private boolean allStatic(List<Expr> args) {
        for (Expr a : args) if (kind(a) != ValueKind.STATIC) return false;
        return true;
    }

    private boolean isSuperCall(Expr f) {
        return f instanceof Expr.Attribute a && a.value() instanceof Expr.Call sc && sc.func() instanceof Expr.Name sn
                && sn.id().equals("super") && fn.owner() != null;
    }

    /**
     * The project function a call runs, when the analysis can tell: the one place calls are
     * resolved, for region discovery ({@link CompileRegions}), the rules and the values of calls.
     * Methods of {@code self}, of submodules and of objects whose class is known; calling a module
     * (its {@code forward}); {@code super().m()}; a def nested in this function or in one
     * enclosing it (a closure calling a sibling helper); project functions by name or import.
     */
    public Callee callee(Expr.Call c) {
        Expr f = c.func();
        if (f instanceof Expr.Attribute a) {
            if (isSuperCall(f)) {
                FunctionRef m = fn.owner().superMethod(a.attr());
                return m == null ? null : new Callee(m, true);
            }
            Val recv = value(a.value());
            if ((recv.kind() == ValueKind.SELF || recv.kind() == ValueKind.MODULE || recv.kind() == ValueKind.OBJECT)
                    && recv.cls() != null) {
                FunctionRef m = recv.cls().method(a.attr());
                if (m != null) return new Callee(m, true);
                if (recv.kind() == ValueKind.SELF) {
                    Val attr = attributeOf(recv.cls(), a.attr());
                    if (attr.kind() == ValueKind.MODULE && attr.cls() != null) return forwardOf(attr.cls());
                }
                return null;
            }
        }
        boolean local = f instanceof Expr.Name && fn.module().names().resolve(f) instanceof Target.Local;
        if (!(f instanceof Expr.Name) || local) {
            Val v = f instanceof Expr.Name || f instanceof Expr.Subscript || f instanceof Expr.Attribute ? value(f) : Val.UNKNOWN;
            if (v.kind() == ValueKind.MODULE && v.cls() != null) return forwardOf(v.cls());
        }
        if (local) {
            String name = ((Expr.Name) f).id();
            Stmt.FunctionDef nested = nestedDef(fn.def(), name);
            Target.Local target = (Target.Local) fn.module().names().resolve(f);
            // a closure's call of a sibling def of its enclosing function (a decorator's wrapper calling a helper)
            for (var s = target.symbol() == null ? null : target.symbol().scope(); nested == null && s != null; s = s.parent()) {
                if (s.node() instanceof Stmt.FunctionDef outer && outer != fn.def()) nested = nestedDef(outer, name);
            }
            if (nested != null) return new Callee(new FunctionRef(fn.module(), nested, null), false);
        }
        FunctionRef target = project.resolveFunction(fn.module(), f);
        return target == null ? null : new Callee(target, false);
    }

    /**
     * Every project function a call may run: {@link #callee}'s one target, or, for a submodule
     * the class assigns from several classes ({@code self.encoder = A(config) if … else B(config)}),
     * the forward of each. For the call graph; a call's value needs the single target.
     */
    public List<Callee> callees(Expr.Call c) {
        Callee one = callee(c);
        if (one != null) return List.of(one);
        if (c.func() instanceof Expr.Attribute a) {
            Val recv = value(a.value());
            if (recv.kind() == ValueKind.SELF && recv.cls() != null && recv.cls().method(a.attr()) == null) {
                List<Callee> out = new ArrayList<>();
                for (ClassInfo k : project.attributeModuleClasses(recv.cls(), a.attr())) {
                    Callee fwd = forwardOf(k);
                    if (fwd != null) out.add(fwd);
                }
                return out;
            }
        }
        if (fn.owner() == null) return List.of();
        if (c.func() instanceof Expr.Name n && isLoopVariable(n)) return containerForwards(null);
        // `self.layer[-1](x)` on a container filled from several classes (Switch Transformers' blocks)
        if (c.func() instanceof Expr.Subscript sub && sub.value() instanceof Expr.Attribute a
                && value(a.value()).kind() == ValueKind.SELF) {
            return containerForwards(a.attr());
        }
        return List.of();
    }

    private boolean isLoopVariable(Expr.Name n) {
        var defs = project.defUse(fn.module(), fn.def()).definitionsOf(n);
        if (defs.isEmpty()) return false;
        for (Definition d : defs) if (d.kind() != Definition.Kind.FOR_TARGET) return false;
        return true;
    }

    /**
     * A module taken from a loop ({@code for flow in flows: flow(x)}) whose class is not one: the
     * forwards of every class the containers this method reads hold ({@code self.flows}, built from
     * several classes or reordered first, VITS' {@code list(reversed(self.flows))}); with
     * {@code only}, the classes of that one container.
     */
    private List<Callee> containerForwards(String only) {
        List<Callee> out = new ArrayList<>();
        Set<String> read = new java.util.LinkedHashSet<>();
        if (only != null) read.add(only);
        String self = fn.def().args().args().isEmpty() ? null : fn.def().args().args().get(0).arg();
        for (Stmt s : only != null ? List.<Stmt>of() : Statements.of(fn.def().body())) {
            Statements.expressions(s, e -> {
                if (e instanceof Expr.Attribute a && a.value() instanceof Expr.Name r && r.id().equals(self)) read.add(a.attr());
            });
        }
        for (String attr : read) {
            for (ClassInfo k : project.containerElementClasses(fn.owner(), attr)) {
                Callee fwd = forwardOf(k);
                if (fwd != null && !out.contains(fwd)) out.add(fwd);
            }
        }
        return out;
    }

    private static Callee forwardOf(ClassInfo c) {
        FunctionRef fwd = c.method("forward");
        return fwd == null ? null : new Callee(fwd, true);
    }

    /** The last def of {@code name} directly in a function's body (nested in its blocks too). */
    static Stmt.FunctionDef nestedDef(Stmt.FunctionDef outer, String name) {
        Stmt.FunctionDef found = null;
        for (Stmt s : Statements.of(outer.body())) {
            if (s instanceof Stmt.FunctionDef f && f.name().equals(name)) found = f;
        }
        return found;
    }

    /** The value of the callee expression itself, when it is a local (a module from a loop, say). */
    private Val calleeValue(Expr f) {
        if (f instanceof Expr.Name n && fn.module().names().resolve(n) instanceof Target.Local) return value(f);
        if (f instanceof Expr.Attribute || f instanceof Expr.Subscript) return value(f);
        return Val.UNKNOWN;
    }

    private Val builtinCall(String name, Expr.Call c) {
        if (STATIC_BUILTINS.contains(name)) return Val.STATIC;
        switch (name) {
            case "abs":
                return c.args().size() == 1 ? value(c.args().get(0)) : Val.UNKNOWN;
            case "tuple": case "list":
                if (c.args().size() == 1) {
                    Val v = value(c.args().get(0));
                    return v.kind() == ValueKind.STATIC ? Val.STATIC : v.kind() == ValueKind.TENSOR_SEQUENCE ? v : Val.UNKNOWN;
                }
                return Val.UNKNOWN;
            case "min": case "max":
                // over a tensor, or between tensors: Dynamo iterates and compares, giving a tensor
                for (Expr a : c.args()) if (value(a).isTensor()) return Val.TENSOR;
                for (Expr a : c.args()) if (kind(a) != ValueKind.STATIC) return Val.UNKNOWN;
                return c.args().isEmpty() ? Val.UNKNOWN : Val.STATIC;
            case "sum": case "round": case "pow": case "divmod":
                for (Expr a : c.args()) if (kind(a) != ValueKind.STATIC) return Val.UNKNOWN;
                return c.args().isEmpty() ? Val.UNKNOWN : Val.STATIC;
            default:
                return Val.UNKNOWN;
        }
    }

    /**
     * For {@code n = helper(...)} with one reaching definition, where the helper (in this module)
     * returns a tensor on some paths and something else on the others (Reformer's chunk length:
     * a config int, or {@code np.lcm(...)}): the return statement that gives the tensor, else null.
     */
    public Stmt.Return tensorReturnOnSomePaths(Expr.Name n) {
        var defs = project.defUse(fn.module(), fn.def()).definitionsOf(n);
        if (defs.size() != 1) return null;
        Source src = sources().get(defs.iterator().next().node());
        if (src == null || src.element() || src.aug() != null || src.counter() || !(src.value() instanceof Expr.Call c)) return null;
        Callee target = callee(c);
        if (target == null || target.function().module() != fn.module() || depth >= MAX_CALL_DEPTH
                || target.function().def() == fn.def()) {
            return null;
        }
        FunctionContext inner = new FunctionContext(project, target.function(),
                bindArguments(target.function(), c, target.bound()), depth + 1, consulted);
        // The other paths may give unknown values (config reads): the break is reported as one that
        // happens when the tensor path ran, and the sweep judges it only where that line ran.
        Stmt.Return tensor = null;
        boolean other = false;
        for (Stmt s : inner.liveStatements()) {
            if (!(s instanceof Stmt.Return r) || r.value() == null) continue;
            if (inner.value(r.value()).hasDataTruth()) {
                if (tensor == null) tensor = r;
            } else {
                other = true;
            }
        }
        return other ? tensor : null;
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
                depth + 1, consulted);
    }

    /** What a call of a project function returns, judged from its return statements (a few calls deep). */
    private Val returnValue(FunctionRef callee, Expr.Call c, boolean bound) {
        if (depth >= MAX_CALL_DEPTH || callee.def() == fn.def()) return Val.UNKNOWN;
        consulted.add(callee.def());
        if (callee.owner() != null) consult(callee.owner());
        FunctionContext inner = new FunctionContext(project, callee, bindArguments(callee, c, bound), depth + 1, consulted);
        Val v = null;
        for (Stmt s : inner.liveStatements()) {
            if (s instanceof Stmt.Return r) {
                Val rv = r.value() == null ? Val.NONE : inner.value(r.value());
                v = v == null ? rv : v.join(rv);
            }
        }
        return v == null ? Val.NONE : v;
    }
}
