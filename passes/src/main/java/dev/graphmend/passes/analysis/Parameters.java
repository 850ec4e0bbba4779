package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.Arg;
import dev.graphmend.ir.ast.Arguments;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Keyword;
import dev.graphmend.ir.ast.Operator;
import dev.graphmend.ir.ast.Stmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The abstract values of a function's parameters: a compile root's from its signature (annotations
 * and defaults, see docs/rules/README.md), a callee's from the values of a call's arguments.
 */
final class Parameters {
    private Parameters() {}

    private static final Set<String> STATIC_CONTAINERS = Set.of("tuple", "Tuple", "list", "List", "Sequence");

    /** A compile root's parameters: tensors unless annotated or defaulted otherwise (docs/rules/README.md). */
    static Map<String, Val> rootParams(FunctionRef f, TypeAliases aliases) {
        boolean method = f.owner() != null;
        Map<Stmt.FunctionDef, RootParams> known = f.module().derived(ROOT_PARAMS);
        RootParams t;
        synchronized (known) {
            t = known.get(f.def());
        }
        if (t == null || t.method() != method) {
            boolean[] crossModule = {false};
            TypeAliases noted = aliases == null ? null : (from, ann) -> {
                Project.TypeAlias found = aliases.find(from, ann);
                if (found != null && found.module() != f.module()) crossModule[0] = true;
                return found;
            };
            t = new RootParams(method, Map.copyOf(signatureParams(f, method, noted)));
            // kept with the module only when its own names decide: an alias from another module may change
            if (!crossModule[0]) {
                synchronized (known) {
                    known.put(f.def(), t);
                }
            }
        }
        Map<String, Val> m = new HashMap<>();
        if (method) {
            Arguments a = f.def().args();
            Arg self = a.posonlyargs().isEmpty() ? (a.args().isEmpty() ? null : a.args().get(0)) : a.posonlyargs().get(0);
            if (self != null) m.put(self.arg(), Val.self(f.owner()));
        }
        m.putAll(t.params()); // after self: a later parameter of the same name wins, as it did when put in order
        return m;
    }

    /** A root's parameters but a method's first: they depend only on the signature and its module's names. */
    private record RootParams(boolean method, Map<String, Val> params) {}

    /**
     * Each definition's root parameters, kept with its module (a module no edit touched keeps them
     * from one keystroke to the next: the forwards of 400 modules are roots at each one).
     */
    private static final SourceModule.Derived<Map<Stmt.FunctionDef, RootParams>> ROOT_PARAMS = new SourceModule.Derived<>(
            "root parameters by definition", m -> new java.util.IdentityHashMap<>());

    private static Map<String, Val> signatureParams(FunctionRef f, boolean method, TypeAliases aliases) {
        Map<String, Val> m = new HashMap<>();
        Arguments a = f.def().args();
        List<Arg> positional = new ArrayList<>(a.posonlyargs());
        positional.addAll(a.args());
        int firstDefault = positional.size() - a.defaults().size();
        for (int i = 0; i < positional.size(); i++) {
            Arg p = positional.get(i);
            if (i == 0 && method) continue; // self: the caller's
            m.put(p.arg(), rootParam(f, p, i >= firstDefault ? a.defaults().get(i - firstDefault) : null, aliases));
        }
        for (int i = 0; i < a.kwonlyargs().size(); i++) {
            Expr d = i < a.kwDefaults().size() ? a.kwDefaults().get(i) : null;
            m.put(a.kwonlyargs().get(i).arg(), rootParam(f, a.kwonlyargs().get(i), d, aliases));
        }
        if (a.vararg() != null) m.put(a.vararg().arg(), Val.UNKNOWN);
        if (a.kwarg() != null) m.put(a.kwarg().arg(), Val.UNKNOWN);
        return m;
    }

    private static Val rootParam(FunctionRef f, Arg p, Expr dflt, TypeAliases aliases) {
        if (p.annotation() != null && !contradictsDefault(f, p, dflt, aliases)) return annotationValue(f, p.annotation(), aliases);
        if (dflt == null) return Val.TENSOR;
        if (Val.isNone(dflt)) return Val.MAYBE_TENSOR; // Optional[Tensor] = None, or a flag: its uses decide
        return dflt instanceof Expr.Constant ? Val.STATIC : Val.UNKNOWN;
    }

    /**
     * A type alias an annotation names ({@code OptTensor = Optional[Tensor]} in another project
     * module, torch_geometric's typing): its module and value, or null when the name is no alias.
     */
    interface TypeAliases {
        Project.TypeAlias find(SourceModule from, Expr annotation);
    }

    /** What a function's return annotation says of its value ({@code -> Tensor}); UNKNOWN when none. */
    static Val returnAnnotation(FunctionRef f, TypeAliases aliases) {
        Expr r = f.def().returns();
        return r == null ? Val.UNKNOWN : annotationValue(f, r, aliases);
    }

    private static Val annotationValue(FunctionRef f, Expr ann, TypeAliases aliases) {
        return annotationValue(f.module(), ann, aliases, 0);
    }

    private static Val annotationValue(SourceModule module, Expr ann, TypeAliases aliases, int depth) {
        String text = ann instanceof Expr.Constant c && c.value() instanceof String s ? s : null;
        String qn = text != null ? text : module.names().qualifiedName(ann);
        if (ann instanceof Expr.BinOp b && b.op() == Operator.BitOr) {
            // PEP 604 `X | None`: what X says
            if (Val.isNone(b.right())) return annotationValue(module, b.left(), aliases, depth);
            if (Val.isNone(b.left())) return annotationValue(module, b.right(), aliases, depth);
            return Val.UNKNOWN;
        }
        if (ann instanceof Expr.Subscript sub) {
            String outer = module.names().qualifiedName(sub.value());
            if (outer == null && sub.value() instanceof Expr.Name n) outer = n.id();
            if (outer != null && (outer.endsWith("Optional") || outer.endsWith("Union"))) {
                Expr inner = sub.slice();
                if (inner instanceof Expr.Tuple t && !t.elts().isEmpty()) inner = t.elts().get(0);
                return annotationValue(module, inner, aliases, depth);
            }
            if (outer != null && STATIC_CONTAINERS.contains(outer.substring(outer.lastIndexOf('.') + 1))) {
                // tuple[int, int], list[int], Sequence[int]: Python numbers, not tensors
                List<Expr> elts = sub.slice() instanceof Expr.Tuple t ? t.elts() : List.of(sub.slice());
                for (Expr e : elts) {
                    if (e instanceof Expr.Constant c && c.value() == dev.graphmend.ir.ast.PyConstant.Singleton.ELLIPSIS) continue;
                    if (annotationValue(module, e, aliases, depth).kind() != ValueKind.STATIC) return Val.UNKNOWN;
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
                Project.TypeAlias alias = aliases == null || depth > 3 ? null : aliases.find(module, ann);
                return alias == null ? Val.UNKNOWN : annotationValue(alias.module(), alias.value(), aliases, depth + 1);
        }
    }

    /** The parameter values of a callee given the values of a call's arguments (self already bound when {@code bound}). */
    static Map<String, Val> bind(FunctionRef callee, Expr.Call call, boolean bound, java.util.function.Function<Expr, Val> value,
            TypeAliases aliases) {
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
            if (ai < call.args().size() && !(call.args().get(ai) instanceof Expr.Starred)) v = value.apply(call.args().get(ai));
            else if (ai < call.args().size()) v = Val.UNKNOWN;
            if (v == null) {
                Expr kw = Project.keyword(call, positional.get(i).arg());
                if (kw != null) v = value.apply(kw);
            }
            if (v == null && i >= firstDefault) v = defaultValue(a.defaults().get(i - firstDefault));
            m.put(positional.get(i).arg(), v == null ? Val.UNKNOWN : v);
        }
        for (int i = 0; i < a.kwonlyargs().size(); i++) {
            String name = a.kwonlyargs().get(i).arg();
            Expr kw = Project.keyword(call, name);
            Expr d = i < a.kwDefaults().size() ? a.kwDefaults().get(i) : null;
            m.put(name, kw != null ? value.apply(kw) : d != null ? defaultValue(d) : Val.UNKNOWN);
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
        for (Arg p : positional) annotationFallback(callee, m, p, aliases);
        for (Arg p : a.kwonlyargs()) annotationFallback(callee, m, p, aliases);
        if (a.vararg() != null) m.put(a.vararg().arg(), Val.UNKNOWN);
        if (a.kwarg() != null) m.put(a.kwarg().arg(), Val.UNKNOWN);
        return m;
    }

    /**
     * {@code output_attentions: torch.Tensor | None = False} (FastSpeech2): an annotation that says
     * tensor on a parameter whose default is a Python literal other than None is a slip; the
     * default tells what callers pass.
     */
    private static boolean contradictsDefault(FunctionRef f, Arg p, Expr dflt, TypeAliases aliases) {
        return dflt instanceof Expr.Constant && !Val.isNone(dflt) && annotationValue(f, p.annotation(), aliases).isTensor();
    }

    private static Expr defaultOf(Arguments a, Arg p) {
        List<Arg> positional = new ArrayList<>(a.posonlyargs());
        positional.addAll(a.args());
        int i = positional.indexOf(p), firstDefault = positional.size() - a.defaults().size();
        if (i >= 0) return i >= firstDefault ? a.defaults().get(i - firstDefault) : null;
        int k = a.kwonlyargs().indexOf(p);
        return k >= 0 && k < a.kwDefaults().size() ? a.kwDefaults().get(k) : null;
    }

    private static void annotationFallback(FunctionRef callee, Map<String, Val> m, Arg p, TypeAliases aliases) {
        Val v = m.get(p.arg());
        if (p.annotation() == null || v == null || v.kind() != ValueKind.UNKNOWN && v.kind() != ValueKind.MAYBE_TENSOR) return;
        if (contradictsDefault(callee, p, defaultOf(callee.def().args(), p), aliases)) return;
        Val ann = annotationValue(callee, p.annotation(), aliases);
        if (ann.isTensor()) m.put(p.arg(), ann);
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
}
