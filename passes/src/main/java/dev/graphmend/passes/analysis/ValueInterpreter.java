package dev.graphmend.passes.analysis;

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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The abstract interpreter behind a {@link FunctionContext}: the value of any expression of one
 * function, flowing through assignments along the def-use chains of the UniIR and, through the
 * calls {@link CallResolver} resolves, into the project's functions, classes and modules. Values
 * are memoised per expression; a cycle of loop-carried definitions is cut with bottom, and what
 * was computed while one was cut is not memoised.
 */
final class ValueInterpreter {
    private final FunctionContext ctx;
    private final Project project;
    private final FunctionRef fn;
    private final Map<String, Val> params;

    ValueInterpreter(FunctionContext ctx) {
        this.ctx = ctx;
        this.project = ctx.project();
        this.fn = ctx.function();
        this.params = ctx.params();
    }

    private static final Set<String> STATIC_BUILTINS = Set.of(
            "len", "isinstance", "issubclass", "hasattr", "callable", "str", "repr", "type", "id", "range",
            "int", "float", "bool", "getattr", "format", "hash", "ord", "chr", "enumerate", "zip");

    private static final Set<String> INT_ARITHMETIC = Set.of("torch.div", "torch.floor_divide", "torch.true_divide",
            "torch.remainder", "torch.fmod");

    private final Map<Expr, Val> memo = new IdentityHashMap<>();

    private final Map<Expr, Boolean> inProgress = new IdentityHashMap<>();

    private int cycleHits; // values computed while a cycle was cut are provisional: not memoised

    private Map<Node, Source> sources; // assignment target Name -> what it is assigned

    /**
     * What a target name is assigned: a value, or an element of a value being unpacked or iterated;
     * {@code counter} for the index {@code enumerate} gives (a Python int, value null).
     */
    private record Source(Expr value, boolean element, Stmt.AugAssign aug, boolean counter, boolean unpacked, int index, int arity) {
        Source(Expr value, boolean element, Stmt.AugAssign aug) { this(value, element, aug, false, false, -1, 0); }
        Source(Expr value, boolean element, Stmt.AugAssign aug, boolean counter, boolean unpacked) {
            this(value, element, aug, counter, unpacked, -1, 0);
        }
    }

    /** See {@link FunctionContext#tensorDefinitionOnSomePaths}. */
    Node tensorDefinitionOnSomePaths(Expr.Name n) {
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

    /** See {@link FunctionContext#assignedValues}. */
    List<Expr> assignedValues(Expr.Name n) {
        var defs = liveOnly(project.defUse(fn.module(), fn.def()).definitionsOf(n));
        if (defs.isEmpty()) {
            if (fn.module().names().resolve(n) instanceof Target.ModuleMember) {
                List<Expr> vs = fn.module().moduleAssignments(n.id());
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

    /** The function's top-level ifs Dynamo decides while tracing whose taken branch rebinds names: {span, names}. */
    private List<DecidedIf> decidedIfs;

    private record DecidedIf(dev.graphmend.ir.ast.Span span, java.util.Set<String> rebound) {}

    /** The nodes of the statements Dynamo never traces (a branch decided while tracing), and their targets. */
    private java.util.Set<Node> deadNodes;

    /**
     * The definitions but those in a branch Dynamo decides not to take while tracing
     * ({@code if isinstance(edge_index, SparseTensor): deg = edge_index.storage.rowcount()} for a
     * tensor {@code edge_index}); all of them when every one is in such a branch.
     */
    private java.util.Collection<Definition> liveOnly(java.util.Collection<Definition> defs) {
        if (defs.isEmpty()) return defs;
        if (deadNodes == null) {
            java.util.Set<Node> live = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            live.addAll(ctx.liveStatements());
            java.util.Set<Node> dead = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (Stmt st : Statements.of(fn.def().body())) {
                if (live.contains(st)) continue;
                dead.add(st);
                Statements.expressions(st, x -> {
                    if (x instanceof Expr.Name nm && nm.ctx() == dev.graphmend.ir.ast.ExprContext.Store) dead.add(nm);
                });
            }
            deadNodes = dead;
        }
        if (deadNodes.isEmpty()) return defs;
        List<Definition> out = new ArrayList<>();
        for (Definition d : defs) if (!deadNodes.contains(d.node())) out.add(d);
        return out.isEmpty() ? defs : out;
    }

    /**
     * The definitions that still reach a use after a top-level {@code if} whose taken branch
     * (Dynamo decides it while tracing) rebinds the name at its own top level:
     * {@code if isinstance(x, Tensor): x = (x, x)} for a tensor {@code x} (PyG's MFConv) leaves
     * only the tuple. All of them when none is so overwritten.
     */
    private java.util.Collection<Definition> notOverwritten(Expr.Name use, java.util.Collection<Definition> defs) {
        if (defs.size() < 2 || use.span() == null) return defs;
        if (decidedIfs == null) {
            List<DecidedIf> found = new ArrayList<>();
            for (Stmt st : fn.def().body()) {
                if (!(st instanceof Stmt.If i)) continue;
                Boolean t = ctx.staticTruth(i.test());
                if (t == null) continue;
                java.util.Set<String> rebound = new java.util.HashSet<>();
                for (Stmt b : t ? i.body() : i.orelse()) {
                    if (b instanceof Stmt.Assign a) for (Expr x : a.targets()) if (x instanceof Expr.Name m) rebound.add(m.id());
                }
                if (!rebound.isEmpty()) found.add(new DecidedIf(st.span(), rebound));
            }
            decidedIfs = found;
        }
        int killLine = -1;
        for (DecidedIf d : decidedIfs) {
            if (d.span().endLine() < use.span().line() && d.rebound().contains(use.id())) {
                killLine = Math.max(killLine, d.span().line());
            }
        }
        if (killLine < 0) return defs;
        List<Definition> out = new ArrayList<>();
        for (Definition d : defs) {
            var sp = d.node().span();
            if (sp == null || sp.line() >= killLine) out.add(d);
        }
        return out.isEmpty() ? defs : out;
    }

    /** The abstract value of an expression of this function. */
    Val value(Expr e) {
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

    ValueKind kind(Expr e) {
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
            // `self.training and torch.rand([]) < p`: Dynamo decides the static operands while tracing,
            // and the value is the last operand whenever they let it through (stored, then tested later)
            for (int k = 0; k < b.values().size() - 1; k++) if (kind(b.values().get(k)) != ValueKind.STATIC) return Val.UNKNOWN;
            Val last = value(b.values().get(b.values().size() - 1));
            return last.isTensor() ? last : last.kind() == ValueKind.STATIC ? Val.STATIC : Val.UNKNOWN;
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
        var defs = notOverwritten(n, liveOnly(du.definitionsOf(n)));
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
            if ((v.isTensor() || v.kind() == ValueKind.TENSOR_SEQUENCE) && !v.input() && ctx.graphInputs().separated(n, defs)) {
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
        if (src.unpacked() && src.index() >= 0 && src.value() instanceof Expr.Call c) {
            Val el = unpackedReturn(c, src.index(), src.arity());
            if (el != null) return el;
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
            ctx.expressions(s).forEach(e -> {
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
                else if (!element && t instanceof Expr.Name) {
                    m.put(t, new Source(value, true, null, false, true, starred ? -1 : i, ts.size()));
                }
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
                return recv.cls() == null ? Val.UNKNOWN : ctx.attributeOf(recv.cls(), a.attr());
            case TENSOR_SEQUENCE:
                return a.attr().equals("values") || a.attr().equals("indices") ? Val.TENSOR : Val.UNKNOWN;
            case SELF:
                if (recv.cls() == null) return a.attr().equals("training") ? Val.STATIC : Val.UNKNOWN;
                return ctx.attributeOf(recv.cls(), a.attr());
            case TENSOR: case BOOL_TENSOR:
                return Val.of(TorchApi.tensorAttributeKind(a.attr()));
            case MODULE:
                if (a.attr().equals("weight") || a.attr().equals("bias")) return Val.TENSOR;
                if (a.attr().equals("training")) return Val.STATIC;
                if (recv.cls() != null) return ctx.attributeOf(recv.cls(), a.attr());
                return Val.UNKNOWN;
            case STATIC:
                return Val.STATIC; // config.hidden_size, x.shape.numel, …
            default:
                return importedValue(ctx.qualifiedName(a));
        }
    }

    private Val subscript(Expr.Subscript s) {
        Val v = value(s.value());
        switch (v.kind()) {
            case BOTTOM: return Val.BOTTOM;
            case TENSOR: return Val.TENSOR;
            case BOOL_TENSOR: return Val.BOOL_TENSOR; // indexing keeps the element type: `mask[:n]` is a mask
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
        if (receiverOfOurs || ctx.calls().isSuperCall(f)) {
            Callee target = ctx.callee(c);
            if (target != null) return returnValue(target, c);
            // a method the class does not define, or a torch module (no class of ours) called through self
            if (recv != null && recv.kind() == ValueKind.SELF) {
                Val attr = ctx.attributeOf(recv.cls(), ((Expr.Attribute) f).attr());
                return attr.kind() == ValueKind.MODULE && attr.cls() == null ? Val.TENSOR : Val.UNKNOWN;
            }
            return Val.UNKNOWN;
        }
        if (recv != null && recv.kind() == ValueKind.MODULE && ((Expr.Attribute) f).attr().equals("forward")) return Val.TENSOR;
        String qn = ctx.qualifiedName(f);
        ValueKind torch = TorchApi.torchCallKind(qn);
        if (torch != null) {
            if (torch == ValueKind.MODULE) return Val.MODULE;
            if ("torch.where".equals(qn) && c.args().size() == 1) return Val.TENSORS;
            if (INT_ARITHMETIC.contains(qn) && !c.args().isEmpty() && noTensor(c.args())) {
                // torch.div(seq_len, w, rounding_mode="trunc") on sizes: Dynamo computes it while
                // tracing (Longformer's chunk counts; no break, observed in fixtures/GM201.py)
                return allStatic(c.args()) ? Val.STATIC : Val.UNKNOWN;
            }
            // `torch.zeros(n, dtype=torch.bool)`: a mask from the start (PyG's to_dense_batch)
            Expr dtype = Project.keyword(c, "dtype");
            if (torch == ValueKind.TENSOR && dtype != null && "torch.bool".equals(ctx.qualifiedName(dtype))) return Val.BOOL_TENSOR;
            return Val.of(torch);
        }
        if (qn != null && qn.startsWith("builtins.")) return builtinCall(qn.substring(9), c);
        if (TorchApi.isNumpyArrayFunction(qn)) return Val.NUMPY_ARRAY;
        Callee target = ctx.callee(c);
        if (target != null) return returnValue(target, c);
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
            case "view": case "reshape": case "flatten": case "squeeze": case "unsqueeze": case "t": case "transpose":
            case "permute": case "expand": case "expand_as":
                return true; // the same elements, another shape
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
        return e instanceof Expr.Call call && "torch.device".equals(ctx.qualifiedName(call.func()));
    }

    private boolean noTensor(List<Expr> args) {
        for (Expr a : args) if (value(a).isTensor() || value(a).kind() == ValueKind.MAYBE_TENSOR) return false;
        return true;
    }

    private boolean allStatic(List<Expr> args) {
        for (Expr a : args) if (kind(a) != ValueKind.STATIC) return false;
        return true;
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

    /** See {@link FunctionContext#tensorReturnOnSomePaths}. */
    Stmt.Return tensorReturnOnSomePaths(Expr.Name n) {
        var defs = project.defUse(fn.module(), fn.def()).definitionsOf(n);
        if (defs.size() != 1) return null;
        Source src = sources().get(defs.iterator().next().node());
        if (src == null || src.element() || src.aug() != null || src.counter() || !(src.value() instanceof Expr.Call c)) return null;
        Callee target = ctx.callee(c);
        if (target == null || target.function().module() != fn.module()) return null;
        FunctionContext inner = ctx.calleeContext(target, c);
        if (inner == null) return null;
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

    /** What a call of a project function returns, judged from its return statements (a few calls deep). */
    /**
     * {@code inputs, idx, mask = self.scatter(x)} where every return of the project function called
     * is a tuple of that many values: the element's own value, joined over the returns (a bool mask
     * stays one, a Python int stays one); null when the callee is not known or returns otherwise.
     */
    private Val unpackedReturn(Expr.Call c, int index, int arity) {
        Callee target = ctx.callee(c);
        if (target == null) return null;
        FunctionContext inner = ctx.calleeContext(target, c);
        if (inner == null) return null;
        ctx.consultBody(target.function());
        Val v = null;
        for (Stmt s : inner.liveStatements()) {
            if (!(s instanceof Stmt.Return r)) continue;
            if (!(r.value() instanceof Expr.Tuple t) || t.elts().size() != arity) return null;
            for (Expr e : t.elts()) if (e instanceof Expr.Starred) return null;
            Val rv = inner.value(t.elts().get(index));
            v = v == null ? rv : v.join(rv);
        }
        return v;
    }

    private Val returnValue(Callee target, Expr.Call c) {
        FunctionContext inner = ctx.calleeContext(target, c);
        if (inner == null) return Val.UNKNOWN;
        ctx.consultBody(target.function());
        Val v = null;
        for (Stmt s : inner.liveStatements()) {
            if (s instanceof Stmt.Return r) {
                Val rv = r.value() == null ? Val.NONE : inner.value(r.value());
                v = v == null ? rv : v.join(rv);
            }
        }
        if (v != null && v.kind() == ValueKind.UNKNOWN) {
            // a body that may return what another library's call gives (`torch_scatter.scatter(...)`
            // when installed, PyG's scatter): its `-> Tensor` annotation says what callers get
            Val declared = Parameters.returnAnnotation(target.function(), ctx.project()::typeAlias);
            if (declared.isTensor()) return declared;
        }
        return v == null ? Val.NONE : v;
    }
}
