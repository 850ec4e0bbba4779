package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.symbols.Binding;
import dev.graphmend.ir.symbols.Symbol;
import dev.graphmend.ir.symbols.Target;
import dev.graphmend.passes.model.Diagnostic;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The code Dynamo traces (docs/compile-regions.md): the compile roots of the project, and every function
 * reachable from them through calls the analysis resolves, each with the abstract values of its
 * parameters joined over the call sites that reach it.
 */
public final class CompileRegions {
    private static final int MAX_VISITS = 6;

    /** A function in a compile region, the root that reaches it first, and its parameters' values. */
    public static final class Reached {
        private final FunctionRef function;
        private final Diagnostic.Root root;
        private Map<String, Val> params;
        private int visits;
        private boolean isRoot;
        private FunctionContext context; // of the last visit, with its values already inferred

        Reached(FunctionRef function, Diagnostic.Root root, Map<String, Val> params) {
            this.function = function;
            this.root = root;
            this.params = params;
        }

        public FunctionRef function() { return function; }
        public Diagnostic.Root root() { return root; }
        public Map<String, Val> params() { return params; }
        /** Whether the function is a root itself. */
        public boolean isRoot() { return isRoot; }

        /**
         * The function's context with its final parameters, as the discovery left it (values it
         * inferred to follow calls are kept, so the rules do not infer them again). Not thread-safe:
         * one caller at a time.
         */
        public FunctionContext context(Project project) {
            FunctionContext c = context;
            if (c == null || c.params() != params || c.project() != project) {
                c = context = new FunctionContext(project, function, params);
            }
            c.markRoot(isRoot);
            return c;
        }
    }

    /**
     * A call followed from a function: the function it runs, the parameter values it binds there,
     * and the modes the call runs in ({@link Modes}: under {@code if self.training:}, train only).
     */
    public record Followed(FunctionRef callee, Map<String, Val> params, int modes) {}

    /**
     * A compile root as Dynamo starts it: where it is, the function traced first, the modes it is
     * compiled in ({@link Modes#BOTH} when the analysis cannot tell), and the parameters every call
     * of the compiled object in its module leaves None ({@link RootCalls}; null when the module
     * does not show every call).
     */
    public record CompileRoot(Diagnostic.Root root, FunctionRef function, int modes, Map<String, Val> noneAtItsCalls) {
        public CompileRoot(Diagnostic.Root root, FunctionRef function, int modes) {
            this(root, function, modes, null);
        }
    }

    /**
     * What an earlier discovery followed from a function, for a caller that analyses version after
     * version of a document (the language server's memo, {@code AnalysisMemo}): the calls followed
     * from a function with the same parameters, replayed in the same order instead of valuing its
     * body again, while nothing it consulted changed. Not thread-safe: discovery runs on one thread.
     */
    public interface FollowMemo {
        /** The calls an earlier version followed from {@code f} with these parameters, still valid; else null. */
        List<Followed> lookup(FunctionRef f, Map<String, Val> params);

        /** Records the calls followed from {@code f} with these parameters, and what deciding them consulted and looked up. */
        void store(FunctionRef f, Map<String, Val> params, java.util.Set<Node> consulted,
                   Map<Node, java.util.Set<String>> methodLookups, List<Followed> followed);

        /** The previous version's discovery and how its nodes stand in this version; null when there is none to replay. */
        default Replay replay() { return null; }

        /** This version's discovery, for the next version's {@link #replay}. */
        default void keep(CompileRegions regions) {}
    }

    /**
     * The previous version of the document's discovery, with what the memo knows of the edit
     * since: the previous focus module's definitions moved to this version's nodes, and the
     * followed-call entries the edit dropped.
     */
    public interface Replay {
        CompileRegions previous();

        /** The focus module of the previous version (its functions are this version's only through {@link #movedFunction}). */
        SourceModule previousFocus();

        /** A function of the previous focus module as this version's node; null when it is gone. */
        Stmt.FunctionDef movedFunction(Stmt.FunctionDef old);

        /** A class of the previous focus module as this version's node; null when it is gone. */
        Stmt.ClassDef movedClass(Stmt.ClassDef old);

        /** Whether the edit added or removed methods of a class that stands (a method found by name may be another). */
        boolean methodsChanged();

        /**
         * Follows again, with {@code follow}, the calls of every entry of the previous version the
         * edit dropped (a changed function's, or one that consulted a changed definition), at its
         * parameters moved to this version; true when each gives the calls it gave. On true the
         * memo holds every entry of the previous version for the next one.
         */
        boolean recheck(java.util.function.BiFunction<FunctionRef, Map<String, Val>, List<Followed>> follow);
    }

    private final Project project;
    private final boolean moduleForward;
    private final FollowMemo memo; // null: everything is followed afresh
    private Map<FunctionRef, Reached> reached = new LinkedHashMap<>(); // replaced whole by a replay
    private final Deque<Reached> work = new ArrayDeque<>();
    private final List<String> internalErrors = new java.util.ArrayList<>();
    private final java.util.Set<FunctionRef> explicitRoots = new java.util.HashSet<>();
    /** Forwards of modules that are also submodules, with the root they get if nothing reaches them. */
    private final Map<FunctionRef, Diagnostic.Root> submoduleForwards = new LinkedHashMap<>();

    /**
     * A root found, or a submodule forward set aside, in the order {@link #findRoots} found them;
     * {@code bound}: the parameters a {@code functools.partial} binds, with their values (else null).
     */
    private record RootFound(FunctionRef function, Diagnostic.Root root, boolean submodule, Map<String, Val> bound, int modes,
                             Map<String, Val> noneAtItsCalls) {
        RootFound(FunctionRef function, Diagnostic.Root root, boolean submodule) {
            this(function, root, submodule, null, Modes.BOTH, null);
        }
    }

    private final List<RootFound> rootsFound = new ArrayList<>();
    /** The roots reached as roots, in the order reached (a submodule forward a parent reaches is none). */
    private List<CompileRoot> compileRoots = new ArrayList<>();
    /** Each followed call, caller to callee, with the modes it runs in (joined over its call sites). */
    private Map<FunctionRef, Map<FunctionRef, Integer>> calls = new HashMap<>();
    /** Per function, the roots that reach it and in which modes; built on first request. */
    private Map<FunctionRef, Map<Diagnostic.Root, Integer>> reaching;
    /** The submodule forwards in the order the last phase of {@link #propagate} takes them. */
    private List<FunctionRef> submoduleOrder = List.of();
    /**
     * Whether a next version may replay this discovery ({@link #replayFrom}): every function's
     * followed calls went through the memo, none raised, and no visited function has a decorator
     * named by an attribute (resolved at each visit, outside the memo) when methods came or went.
     */
    private boolean replayable = true;
    private boolean attributeDecorated;

    private CompileRegions(Project project, boolean moduleForward, FollowMemo memo) {
        this.project = project;
        this.moduleForward = moduleForward;
        this.memo = memo;
    }

    /** Discovers the roots of every module and everything they reach. */
    /** What discovery could not follow (a function whose calls raised inside the analysis), for the caller to report. */
    public List<String> internalErrors() {
        return List.copyOf(internalErrors);
    }

    public static CompileRegions discover(Project project, boolean moduleForward) {
        return discover(project, moduleForward, null);
    }

    /**
     * Like {@link #discover(Project, boolean)}, but only from the roots of modules that can reach
     * {@code focus} ({@link Project#modulesReaching}): every function of {@code focus} is reached
     * exactly as in the whole project's discovery, at a fraction of its cost. Null: every module.
     */
    public static CompileRegions discover(Project project, boolean moduleForward, SourceModule focus) {
        return discover(project, moduleForward, focus, null);
    }

    /**
     * Like {@link #discover(Project, boolean, SourceModule)}, taking from {@code memo} the calls an
     * earlier version followed from functions nothing changed for (null: none), and recording this
     * version's. The regions are the same as without it: the calls are replayed in their order.
     */
    public static CompileRegions discover(Project project, boolean moduleForward, SourceModule focus, FollowMemo memo) {
        CompileRegions r = new CompileRegions(project, moduleForward, memo);
        r.findRoots(focus == null ? null : project.modulesReaching(focus));
        Replay replay = memo == null ? null : memo.replay();
        if (replay == null || !r.replayFrom(replay)) {
            r.reachRoots();
            r.propagate();
        }
        if (memo != null) memo.keep(r);
        return r;
    }

    /**
     * Takes the previous version's regions, moved to this version, when this discovery would
     * repeat it step for step: the same roots and submodule forwards in the same order, and every
     * function the previous one visited following the same calls with the same values (the memo's
     * entries that stand, and the dropped ones followed again). Discovery is deterministic, so
     * the same steps reach the same functions with the same values and roots. Editing a module
     * that 400 others import, the previous version's 11,000 visits are not replayed one by one.
     * False, with nothing taken, when any of it differs: then discovery runs from the roots found.
     */
    private boolean replayFrom(Replay replay) {
        CompileRegions prev = replay.previous();
        if (prev == null || !prev.replayable || prev.moduleForward != moduleForward || prev.rootsFound.size() != rootsFound.size()
                || prev.attributeDecorated && replay.methodsChanged()) {
            return false;
        }
        Map<Diagnostic.Root, Diagnostic.Root> roots = new java.util.IdentityHashMap<>();
        for (int i = 0; i < rootsFound.size(); i++) {
            RootFound was = prev.rootsFound.get(i), now = rootsFound.get(i);
            if (was.submodule() != now.submodule() || !now.function().equals(movedRef(was.function(), replay))
                    || !java.util.Objects.equals(was.bound(), now.bound())
                    || !was.root().path().equals(now.root().path()) || !was.root().description().equals(now.root().description())
                    || was.root().line() != now.root().line() && was.function().module() != replay.previousFocus()) {
                return false;
            }
            roots.put(was.root(), now.root());
        }
        List<FunctionRef> order = new ArrayList<>(outermostFirst(submoduleForwards).keySet());
        if (order.size() != prev.submoduleOrder.size()) return false;
        for (int i = 0; i < order.size(); i++) if (!order.get(i).equals(movedRef(prev.submoduleOrder.get(i), replay))) return false;
        if (!replay.recheck(this::followedFrom)) return false;
        Map<FunctionRef, Reached> moved = new LinkedHashMap<>();
        for (Reached was : prev.reached.values()) {
            FunctionRef f = movedRef(was.function, replay);
            Map<String, Val> params = movedValues(was.params, replay);
            Diagnostic.Root root = roots.get(was.root);
            if (f == null || params == null || root == null) return false;
            // a new object even when nothing moved: the old one's context holds the project it was
            // made with, which a Reached kept from version to version would keep alive
            Reached now = new Reached(f, root, params);
            now.visits = was.visits;
            now.isRoot = was.isRoot;
            moved.put(f, now);
        }
        List<CompileRoot> movedRoots = new ArrayList<>();
        Map<Diagnostic.Root, RootFound> foundNow = new java.util.IdentityHashMap<>();
        for (RootFound now : rootsFound) foundNow.put(now.root(), now);
        for (CompileRoot r : prev.compileRoots) {
            FunctionRef f = movedRef(r.function(), replay);
            Diagnostic.Root root = roots.get(r.root());
            if (f == null || root == null) return false;
            // the mode and the calls are read from this version's text, not carried over
            RootFound now = foundNow.get(root);
            movedRoots.add(now == null || now.submodule() ? new CompileRoot(root, f, r.modes())
                    : new CompileRoot(root, f, now.modes(), now.noneAtItsCalls()));
        }
        Map<FunctionRef, Map<FunctionRef, Integer>> movedCalls = new HashMap<>();
        for (var e : prev.calls.entrySet()) {
            FunctionRef from = movedRef(e.getKey(), replay);
            if (from == null) return false;
            Map<FunctionRef, Integer> to = movedCalls.computeIfAbsent(from, k -> new LinkedHashMap<>());
            for (var c : e.getValue().entrySet()) {
                FunctionRef callee = movedRef(c.getKey(), replay);
                if (callee == null) return false;
                to.merge(callee, c.getValue(), (a, b) -> a | b);
            }
        }
        reached = moved;
        compileRoots = movedRoots;
        calls = movedCalls;
        work.clear();
        submoduleOrder = order;
        attributeDecorated = prev.attributeDecorated;
        return true;
    }

    /** A function of the previous version as this project's; null when it is gone. */
    private FunctionRef movedRef(FunctionRef f, Replay replay) {
        if (f.module() == replay.previousFocus()) {
            Stmt.FunctionDef now = replay.movedFunction(f.def());
            return now == null ? null : project.functionOf(now);
        }
        if (f.owner() != null && !project.keeps(f.owner(), replay.previous().project)) return project.functionOf(f.def()); // its class was built again
        return f;
    }

    /** Values of the previous version with this project's classes; the same map when none was built again; null when one is gone. */
    private Map<String, Val> movedValues(Map<String, Val> params, Replay replay) {
        Map<String, Val> out = null;
        for (Map.Entry<String, Val> e : params.entrySet()) {
            ClassInfo c = e.getValue().cls();
            if (c == null || project.keeps(c, replay.previous().project)) continue;
            Stmt.ClassDef def = c.module() == replay.previousFocus() ? replay.movedClass(c.def()) : c.def();
            ClassInfo now = def == null ? null : project.classInfo(def);
            if (now == null) return null;
            if (now == c) continue;
            if (out == null) out = new HashMap<>(params);
            out.put(e.getKey(), new Val(e.getValue().kind(), now, e.getValue().input(), e.getValue().truth()));
        }
        return out == null ? params : out;
    }

    public List<Reached> reached() {
        return new ArrayList<>(reached.values());
    }

    public Reached get(FunctionRef f) {
        return reached.get(f);
    }

    /** The roots, in the order reached, each with the modes it is compiled in. */
    public List<CompileRoot> compileRoots() {
        return List.copyOf(compileRoots);
    }

    /**
     * The roots whose traced code includes {@code f}, each with the modes in which it does (a
     * call under {@code if self.training:} reaches its callee in train mode only); empty when
     * none does. Every root counts, not only the first that reached {@code f}.
     */
    public synchronized Map<Diagnostic.Root, Integer> rootsReaching(FunctionRef f) {
        if (reaching == null) reaching = reachingByFunction();
        Map<Diagnostic.Root, Integer> r = reaching.get(f);
        return r == null ? Map.of() : java.util.Collections.unmodifiableMap(r);
    }

    /** From each root, the functions its calls reach in each mode it is compiled in. */
    private Map<FunctionRef, Map<Diagnostic.Root, Integer>> reachingByFunction() {
        Map<FunctionRef, Map<Diagnostic.Root, Integer>> out = new HashMap<>();
        for (CompileRoot root : compileRoots) {
            Map<FunctionRef, Integer> seen = new HashMap<>();
            Deque<FunctionRef> todo = new ArrayDeque<>();
            seen.put(root.function(), root.modes());
            todo.add(root.function());
            while (!todo.isEmpty()) {
                FunctionRef f = todo.poll();
                int modes = seen.get(f);
                for (var c : calls.getOrDefault(f, Map.of()).entrySet()) {
                    int now = modes & c.getValue();
                    int old = seen.getOrDefault(c.getKey(), 0);
                    if ((old | now) != old) {
                        seen.put(c.getKey(), old | now);
                        todo.add(c.getKey());
                    }
                }
            }
            for (var e : seen.entrySet()) {
                if (e.getValue() == 0) continue;
                out.computeIfAbsent(e.getKey(), k -> new LinkedHashMap<>()).merge(root.root(), e.getValue(), (a, b) -> a | b);
            }
        }
        return out;
    }

    // ---- roots ----

    private void findRoots(java.util.Set<SourceModule> only) {
        List<SourceModule> modules = new ArrayList<>();
        for (SourceModule m : project.modules()) if (only == null || only.contains(m)) modules.add(m);
        for (SourceModule m : modules) callSiteRoots(m); // explicit roots first: they are frames of their own
        for (SourceModule m : modules) {
            for (RootCandidate k : rootCandidates(m)) {
                if (k.decorated()) {
                    addRoot(k.ref(), k.root());
                    explicitRoots.add(k.ref());
                } else if (project.isSubmodule(k.ref().owner()) && !explicitRoots.contains(k.ref())) {
                    // a module used as a submodule of another runs inlined in its parent's frame,
                    // with the arguments its parent passes: it is a root of its own only if no
                    // parent's call reaches it (see propagate)
                    submoduleForwards.put(k.ref(), k.root());
                    rootsFound.add(new RootFound(k.ref(), k.root(), true));
                } else {
                    addRoot(k.ref(), k.root());
                }
            }
        }
    }

    /**
     * A function of a module that is a root whatever the rest of the project: decorated with
     * {@code @torch.compile} (an explicit root); or a module class's forward under
     * "module-forward", a root unless the project makes its class a submodule.
     */
    private record RootCandidate(FunctionRef ref, Diagnostic.Root root, boolean decorated) {}

    /** A module's root candidates, in the order {@link #findRoots} takes them, for the classes the project had for it. */
    private record ModuleRoots(List<ClassInfo> classes, boolean moduleForward, List<RootCandidate> candidates) {}

    /**
     * The root candidates of a module: its decorated top-level functions, then class by class its
     * decorated methods and its forward. Kept with the module version for the classes the project
     * has for it (the same objects: a class rebuilt because a class it depends on changed is
     * another), so editing a module that 400 others import does not walk their 8,000 classes and
     * their methods again at each keystroke.
     */
    private List<RootCandidate> rootCandidates(SourceModule m) {
        List<ClassInfo> classes = project.classesOf(m);
        java.util.concurrent.atomic.AtomicReference<ModuleRoots> kept = m.derived(MODULE_ROOTS);
        ModuleRoots known = kept.get();
        if (known != null && known.moduleForward() == moduleForward && sameObjects(known.classes(), classes)) {
            return known.candidates();
        }
        List<RootCandidate> out = new ArrayList<>();
        for (Stmt s : m.ir().module().body()) decoratedCandidate(m, s, null, out);
        for (ClassInfo c : classes) {
            for (Stmt.FunctionDef f : c.ownMethods().values()) decoratedCandidate(m, f, c, out);
            if (moduleForward && c.isModule() && c.ownMethods().containsKey("forward")) {
                Stmt.FunctionDef f = c.ownMethods().get("forward");
                out.add(new RootCandidate(new FunctionRef(m, f, c), forwardRoot(m, f, c), false));
            }
            // a module class overriding __call__ (PyG's Aggregation): calling the module runs it
            if (moduleForward && c.isModule() && c.ownMethods().containsKey("__call__")) {
                Stmt.FunctionDef f = c.ownMethods().get("__call__");
                out.add(new RootCandidate(new FunctionRef(m, f, c), forwardRoot(m, f, c), false));
            }
        }
        List<RootCandidate> candidates = List.copyOf(out);
        kept.set(new ModuleRoots(List.copyOf(classes), moduleForward, candidates));
        return candidates;
    }

    private static final SourceModule.Derived<java.util.concurrent.atomic.AtomicReference<ModuleRoots>> MODULE_ROOTS =
            new SourceModule.Derived<>("root candidates", m -> new java.util.concurrent.atomic.AtomicReference<>());

    /** Whether two lists hold the same objects, in order. */
    private static <T> boolean sameObjects(List<T> a, List<T> b) {
        if (a.size() != b.size()) return false;
        for (int i = 0; i < a.size(); i++) if (a.get(i) != b.get(i)) return false;
        return true;
    }

    /**
     * The root of a module class's forward under assume-compiled = "module-forward": its file, line
     * and class name, all of its module version's own, so kept with the module (the 8,000 forwards of the
     * modules that import a shared one are roots at each of its keystrokes).
     */
    private static Diagnostic.Root forwardRoot(SourceModule m, Stmt.FunctionDef f, ClassInfo c) {
        Map<Stmt.FunctionDef, Diagnostic.Root> known = m.derived(FORWARD_ROOTS);
        Diagnostic.Root root;
        synchronized (known) {
            root = known.get(f);
        }
        if (root != null) return root; // f is a method of c alone: its class name is the module's
        root = new Diagnostic.Root(m.path(), f.span().line(), forwardRootDescription(f.name(), c.name()));
        synchronized (known) {
            known.put(f, root);
        }
        return root;
    }

    /** What a module forward's root says (concatenated: {@code String.format} parsed its pattern for each of a file's forwards at every keystroke). */
    private static String forwardRootDescription(String method, String className) {
        return method + " of nn.Module subclass " + className + " (assume-compiled = \"module-forward\")";
    }

    private static final SourceModule.Derived<Map<Stmt.FunctionDef, Diagnostic.Root>> FORWARD_ROOTS = new SourceModule.Derived<>(
            "roots of module forwards", m -> new java.util.IdentityHashMap<>());

    private static void decoratedCandidate(SourceModule m, Stmt s, ClassInfo owner, List<RootCandidate> out) {
        if (!(s instanceof Stmt.FunctionDef f) || !compileDecorated(m, f)) return;
        for (Expr d : f.decoratorList()) {
            Expr callee = d instanceof Expr.Call c ? c.func() : d;
            if (TorchApi.isCompile(m.names().qualifiedName(callee))) {
                out.add(new RootCandidate(new FunctionRef(m, f, owner), new Diagnostic.Root(m.path(), f.span().line(),
                        "function " + f.name() + " decorated with @torch.compile"), true));
            }
        }
    }

    /**
     * Whether a definition has a {@code @torch.compile} decorator: a qualified name is the module's
     * own, so the answer is kept with the module (a module no edit touched keeps it from one
     * keystroke to the next, for each method of the 400 modules that import the one being edited).
     * Only an attribute {@code compile} or a name imported as torch.compile can name it (the
     * filter {@link #COMPILE_CALLS} uses).
     */
    private static boolean compileDecorated(SourceModule m, Stmt.FunctionDef f) {
        if (f.decoratorList().isEmpty()) return false;
        Map<Stmt.FunctionDef, Boolean> known = m.derived(COMPILE_DECORATED);
        synchronized (known) {
            Boolean k = known.get(f);
            if (k != null) return k;
        }
        boolean found = false;
        for (Expr d : f.decoratorList()) {
            Expr callee = d instanceof Expr.Call c ? c.func() : d;
            if (callee instanceof Expr.Name n ? !m.derived(COMPILE_ALIASES).contains(n.id())
                    : !(callee instanceof Expr.Attribute a && a.attr().equals("compile"))) {
                continue;
            }
            found |= TorchApi.isCompile(m.names().qualifiedName(callee));
        }
        synchronized (known) {
            known.put(f, found);
        }
        return found;
    }

    private static final SourceModule.Derived<Map<Stmt.FunctionDef, Boolean>> COMPILE_DECORATED = new SourceModule.Derived<>(
            "definitions decorated with torch.compile", m -> new java.util.IdentityHashMap<>());

    private static final SourceModule.Derived<java.util.Set<String>> COMPILE_ALIASES = new SourceModule.Derived<>(
            "names imported as torch.compile", CompileRegions::compileAliases);

    /** {@code torch.compile(fn)}, {@code torch.compile(model)}, {@code torch.compile(model.forward)}, {@code model.compile()}. */
    private void callSiteRoots(SourceModule m) {
        for (Expr.Call c : m.derived(COMPILE_CALLS)) {
            String qn = m.names().qualifiedName(c.func());
            Expr target = null;
            if (TorchApi.isCompile(qn) && !c.args().isEmpty()) target = c.args().get(0);
            else if (c.func() instanceof Expr.Attribute a && a.attr().equals("compile") && c.args().isEmpty()
                    && qn == null) {
                target = a.value(); // nn.Module.compile()
            }
            if (target == null) continue;
            Diagnostic.Root root = new Diagnostic.Root(m.path(), c.span().line(), "torch.compile(" + describe(target) + ")");
            Map<String, Val> bound = null;
            if (target instanceof Expr.Call p && isPartial(m, p)) {
                // torch.compile(functools.partial(f, ...)): Dynamo traces f with the bound arguments
                if (p.args().isEmpty()) continue;
                target = p.args().get(0);
                FunctionRef f = compiledFunction(m, target);
                if (f == null) continue;
                bound = partialBound(f, p);
                rootsFound.add(new RootFound(f, root, false, bound, Modes.BOTH, null));
                explicitRoots.add(f);
                continue;
            }
            FunctionRef f = compiledFunction(m, target);
            if (f != null) {
                rootsFound.add(new RootFound(f, root, false, null, RootModes.of(project, m, target, c),
                        RootCalls.noneAtEveryCall(project, m, c, f)));
                explicitRoots.add(f);
            }
        }
    }

    /** {@code functools.partial(...)}, under any name it was imported as. */
    private static boolean isPartial(SourceModule m, Expr.Call c) {
        return "functools.partial".equals(m.names().qualifiedName(c.func()));
    }

    /**
     * The parameters of {@code f} that {@code functools.partial(f, ...)} binds, each with the
     * value bound: a literal's, else unknown (no more a tensor input than any bound value is
     * known to be one). A starred argument may bind any of them: then all are unknown.
     */
    private static Map<String, Val> partialBound(FunctionRef f, Expr.Call p) {
        var a = f.def().args();
        List<dev.graphmend.ir.ast.Arg> positional = new ArrayList<>(a.posonlyargs());
        positional.addAll(a.args());
        int first = f.owner() != null && !positional.isEmpty() ? 1 : 0; // a method is compiled bound: self is taken
        Map<String, Val> out = new HashMap<>();
        boolean starred = false;
        for (int i = 1; i < p.args().size(); i++) {
            Expr v = p.args().get(i);
            if (v instanceof Expr.Starred) starred = true;
            else if (first + i - 1 < positional.size()) out.put(positional.get(first + i - 1).arg(), boundValue(v));
        }
        for (dev.graphmend.ir.ast.Keyword k : p.keywords()) {
            if (k.arg() == null) starred = true;
            else out.put(k.arg(), boundValue(k.value()));
        }
        if (starred) {
            for (int i = first; i < positional.size(); i++) out.put(positional.get(i).arg(), Val.UNKNOWN);
            for (dev.graphmend.ir.ast.Arg k : a.kwonlyargs()) out.put(k.arg(), Val.UNKNOWN);
        }
        return Map.copyOf(out);
    }

    private static Val boundValue(Expr e) {
        return e instanceof Expr.Constant c ? Val.ofConstant(c) : Val.UNKNOWN;
    }

    /**
     * The calls of a module that can be {@code torch.compile(...)} or {@code model.compile()}: of an
     * attribute {@code compile}, or of a name imported as torch.compile. Found once per version of
     * the module (a workspace's unchanged files keep theirs from one keystroke to the next);
     * resolving every call of a file costs more than the rest of discovery.
     */
    private static final SourceModule.Derived<List<Expr.Call>> COMPILE_CALLS = new SourceModule.Derived<>(
            "calls that may be torch.compile", m -> {
                if (!mayCallCompile(m.ir().document().text())) return List.of(); // scanning text is far cheaper than the tree
                List<Expr.Call> calls = new ArrayList<>();
                collectCalls(m.ir().module(), calls);
                java.util.Set<String> aliases = m.derived(COMPILE_ALIASES);
                List<Expr.Call> out = new ArrayList<>();
                for (Expr.Call c : calls) {
                    if (c.func() instanceof Expr.Name n ? aliases.contains(n.id())
                            : c.func() instanceof Expr.Attribute a && a.attr().equals("compile")) {
                        out.add(c);
                    }
                }
                return List.copyOf(out);
            });

    /**
     * Whether the text may hold a call-site root: a {@code compile} followed by {@code (} (spaces
     * and line continuations between), or imported under another name ({@code compile as}).
     */
    static boolean mayCallCompile(String text) {
        for (int i = text.indexOf("compile"); i >= 0; i = text.indexOf("compile", i + 7)) {
            int j = i + 7;
            while (j < text.length() && (text.charAt(j) == ' ' || text.charAt(j) == '\t' || text.charAt(j) == '\\'
                    || text.charAt(j) == '\r' || text.charAt(j) == '\n')) {
                j++;
            }
            if (j < text.length() && text.charAt(j) == '(') return true;
            if (j > i + 7 && text.startsWith("as", j)) return true;
        }
        return false;
    }

    /** The names this module binds by importing torch.compile (`from torch import compile as tc`). */
    private static java.util.Set<String> compileAliases(SourceModule m) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (dev.graphmend.ir.symbols.Imports.Import i : m.names().imports().all()) {
            if (TorchApi.isCompile(i.qualifiedName())) out.add(i.localName());
        }
        return out;
    }

    private static String describe(Expr e) {
        if (e instanceof Expr.Name n) return n.id();
        if (e instanceof Expr.Attribute a) return describe(a.value()) + "." + a.attr();
        if (e instanceof Expr.Call c) return describe(c.func()) + "(...)";
        return "...";
    }

    /**
     * The function {@code torch.compile(target)} traces: a method of an instance
     * ({@code model.forward}, {@code self._step}, {@code obj.method}), a function, or the
     * {@code forward} of a module instance.
     */
    private FunctionRef compiledFunction(SourceModule m, Expr target) {
        if (target instanceof Expr.Attribute a) {
            ClassInfo c = instanceClass(m, a.value(), new java.util.HashSet<>());
            FunctionRef method = c == null ? null : c.method(a.attr());
            if (method != null) return method;
        }
        FunctionRef f = project.resolveFunction(m, target);
        if (f != null) return f;
        ClassInfo c = instanceClass(m, target, new java.util.HashSet<>());
        return c == null ? null : c.method("forward");
    }

    /**
     * nn.Module's methods that return the module itself: {@code Net(cfg).to(device).eval()} is
     * still a {@code Net}.
     */
    static final java.util.Set<String> SELF_RETURNING = java.util.Set.of("to", "eval", "train", "cuda", "cpu", "half",
            "float", "double", "bfloat16", "requires_grad_", "type", "share_memory", "apply", "to_empty");

    /**
     * The project class an expression is an instance of, or null when unsure: {@code Model(...)};
     * a chain of nn.Module's self-returning methods on one ({@code Model(cfg).to(device).eval()},
     * unless the class defines the method itself); a name whose assignments in its scope (the
     * function's for a local, the module's and {@code global} ones for a module name) give
     * instances of one class; a method's {@code self}; an attribute of such an instance that
     * its class assigns instances of one module class ({@code self.model}). Names are followed through their bindings
     * (the symbol table), never by walking the module; {@code seen} cuts
     * {@code model = model.to(device)}.
     */
    private ClassInfo instanceClass(SourceModule m, Expr e, java.util.Set<Symbol> seen) {
        if (e instanceof Expr.Call c) {
            if (c.func() instanceof Expr.Attribute a && SELF_RETURNING.contains(a.attr())) {
                ClassInfo k = instanceClass(m, a.value(), seen);
                if (k != null) return k.isModule() && (k.method(a.attr()) == null || returnsSelf(k.method(a.attr()))) ? k : null;
            }
            return project.resolveClass(m, c.func());
        }
        if (e instanceof Expr.Attribute a) {
            // self.model, trainer.model: the one module class the instance's attribute is assigned
            ClassInfo owner = instanceClass(m, a.value(), seen);
            List<ClassInfo> held = owner == null ? List.of() : project.attributeModuleClasses(owner, a.attr());
            return held.size() == 1 ? held.get(0) : null;
        }
        if (!(e instanceof Expr.Name n)) return null;
        Target t = m.names().resolve(n);
        Symbol s = t instanceof Target.Local l ? l.symbol()
                : t instanceof Target.ModuleMember mm && mm.path().indexOf('.') < 0 ? mm.symbol() : null;
        if (s == null || !seen.add(s)) return null;
        ClassInfo found = null;
        for (Binding b : m.symbols().bindingsOf(s)) {
            ClassInfo k = null;
            if (b.kind() == Binding.Kind.PARAMETER) k = selfClass(b);
            else if (b.kind() == Binding.Kind.ASSIGNMENT && b.construct() instanceof Stmt.Assign a
                    && a.targets().stream().anyMatch(x -> x == b.node())) {
                k = instanceClass(m, a.value(), seen);
            }
            if (k == null) continue;
            if (found != null && found != k) return null; // instances of two classes: no root
            found = k;
        }
        return found;
    }

    /**
     * Whether a module's own override of a self-returning method still returns the module
     * (transformers' {@code train}: {@code out = super().train(mode); ...; return out}, and
     * {@code eval}: {@code return self.train(False)}): every return gives {@code self}, a
     * self-returning call on {@code self} or {@code super()}, or a local assigned one.
     */
    private static boolean returnsSelf(FunctionRef method) {
        Map<String, Expr> assigned = new HashMap<>();
        boolean[] returns = {false, true};
        for (Stmt s : Statements.of(method.def().body())) {
            if (s instanceof Stmt.Assign as && as.targets().size() == 1 && as.targets().get(0) instanceof Expr.Name n) {
                assigned.put(n.id(), as.value());
            } else if (s instanceof Stmt.Return r) {
                returns[0] = true;
                Expr v = r.value() instanceof Expr.Name n && assigned.containsKey(n.id()) ? assigned.get(n.id()) : r.value();
                returns[1] &= isSelfValue(v);
            }
        }
        return returns[0] && returns[1];
    }

    private static boolean isSelfValue(Expr v) {
        if (v instanceof Expr.Name n) return n.id().equals("self");
        if (!(v instanceof Expr.Call c) || !(c.func() instanceof Expr.Attribute a) || !SELF_RETURNING.contains(a.attr())) return false;
        return a.value() instanceof Expr.Name n ? n.id().equals("self")
                : a.value() instanceof Expr.Call sup && sup.func() instanceof Expr.Name sn && sn.id().equals("super");
    }

    /** The class of a method's first parameter ({@code self}); null for any other parameter, or a static or class method. */
    private ClassInfo selfClass(Binding parameter) {
        if (!(parameter.construct() instanceof Stmt.FunctionDef f)) return null;
        var a = f.args();
        dev.graphmend.ir.ast.Arg first = !a.posonlyargs().isEmpty() ? a.posonlyargs().get(0) : a.args().isEmpty() ? null : a.args().get(0);
        if (first != parameter.node()) return null;
        for (Expr d : f.decoratorList()) {
            if (d instanceof Expr.Name dn && (dn.id().equals("staticmethod") || dn.id().equals("classmethod"))) return null;
        }
        FunctionRef r = project.functionOf(f);
        return r == null ? null : r.owner();
    }

    private static void collectCalls(Node n, List<Expr.Call> out) {
        if (n instanceof Expr.Call c) out.add(c);
        n.forEachChild(ch -> collectCalls(ch, out));
    }

    /** Records a root; {@link #reachRoots} reaches it (nothing {@link #findRoots} reads depends on what is reached). */
    private void addRoot(FunctionRef f, Diagnostic.Root root) {
        rootsFound.add(new RootFound(f, root, false));
    }

    /**
     * Reaches the roots found, in the order found, with their signatures' values: after the
     * roots are known, so a replay that takes the previous regions does not build 8,000 of them
     * only to drop them.
     */
    private void reachRoots() {
        for (RootFound r : rootsFound) {
            if (r.submodule()) continue;
            Map<String, Val> params = FunctionContext.rootParams(project, r.function());
            if (r.bound() != null) params.putAll(r.bound());
            reach(r.function(), r.root(), params);
            reached.get(r.function()).isRoot = true;
            compileRoots.add(new CompileRoot(r.root(), r.function(), r.modes(), r.noneAtItsCalls()));
        }
    }

    private void reach(FunctionRef f, Diagnostic.Root root, Map<String, Val> params) {
        Reached r = reached.get(f);
        if (r == null) {
            r = new Reached(f, root, new HashMap<>(params));
            reached.put(f, r);
            work.add(r);
            return;
        }
        boolean changed = false;
        Map<String, Val> joined = new HashMap<>(r.params);
        for (var e : params.entrySet()) {
            Val old = joined.get(e.getKey());
            Val nv = old == null ? e.getValue() : old.join(e.getValue());
            if (!nv.equals(old)) {
                joined.put(e.getKey(), nv);
                changed = true;
            }
        }
        if (changed && r.visits < MAX_VISITS) {
            r.params = joined;
            work.add(r);
        }
    }

    // ---- reachability ----

    /**
     * Follows calls from the roots; then every submodule forward that no parent's call reached
     * becomes a root with the module-forward parameters (tensors), one at a time, so that what
     * it reaches in turn is reached with the values it passes, not with assumed ones.
     */
    private void propagate() {
        drain();
        Map<FunctionRef, Diagnostic.Root> forwards = outermostFirst(submoduleForwards);
        submoduleOrder = new ArrayList<>(forwards.keySet());
        for (var e : forwards.entrySet()) {
            if (reached.containsKey(e.getKey())) {
                // a submodule a parent calls is compiled on its own too under module-forward (users
                // compile PyG's LabelPropagation alone): its annotated tensor parameters join in,
                // and the literals its parents pass decide no branch (`output_attentions=True` by the
                // user's own call)
                Map<String, Val> annotated = annotatedTensorParams(project, e.getKey());
                if (!annotated.isEmpty()) {
                    reach(e.getKey(), e.getValue(), annotated);
                    compileRoots.add(new CompileRoot(e.getValue(), e.getKey(), Modes.BOTH));
                }
                if (forgetLiterals(reached.get(e.getKey())) || !annotated.isEmpty()) drain();
                continue;
            }
            reach(e.getKey(), e.getValue(), unreachedSubmoduleParams(project, e.getKey()));
            compileRoots.add(new CompileRoot(e.getValue(), e.getKey(), Modes.BOTH));
            drain();
        }
    }

    /** The parameters of a forward whose annotations say tensor ({@code mask: Optional[Tensor]}). */
    private static Map<String, Val> annotatedTensorParams(Project project, FunctionRef f) {
        Map<String, Val> params = FunctionContext.rootParams(project, f);
        var a = f.def().args();
        List<dev.graphmend.ir.ast.Arg> all = new ArrayList<>(a.posonlyargs());
        all.addAll(a.args());
        all.addAll(a.kwonlyargs());
        Map<String, Val> out = new HashMap<>();
        for (var p : all) {
            Val v = params.get(p.arg());
            if (p.annotation() != null && v != null && v.isTensor()) out.put(p.arg(), v);
        }
        return out;
    }

    /**
     * The parameters of a submodule forward that no resolved call reaches: its first input is
     * the tensor flowing through the model; the others (sizes such as height and width, masks,
     * flags) are left unknown, and become tensors where the body uses them as only tensors are
     * used ({@link FunctionContext}'s tensor evidence), instead of all being assumed tensors.
     */
    private static Map<String, Val> unreachedSubmoduleParams(Project project, FunctionRef f) {
        Map<String, Val> params = FunctionContext.rootParams(project, f);
        var a = f.def().args();
        List<dev.graphmend.ir.ast.Arg> positional = new ArrayList<>(a.posonlyargs());
        positional.addAll(a.args());
        for (int i = 2; i < positional.size(); i++) {
            String name = positional.get(i).arg();
            if (params.get(name) != null && params.get(name).kind() == ValueKind.TENSOR && positional.get(i).annotation() == null) {
                params.put(name, Val.UNKNOWN);
            }
        }
        return params;
    }

    /** Drops the literal truths of a reached function's parameters (kinds kept) and visits it again; false when it had none. */
    private boolean forgetLiterals(Reached r) {
        Map<String, Val> without = new HashMap<>(r.params);
        without.replaceAll((k, v) -> v.withoutTruth());
        if (without.equals(r.params)) return false;
        r.params = without;
        work.add(r);
        return true;
    }

    /**
     * The submodule forwards ordered so that a module comes after the modules that hold it (by
     * the length of its longest chain of containers), so a parent made a root passes its values
     * down before its children would be made roots with assumed ones.
     */
    private Map<FunctionRef, Diagnostic.Root> outermostFirst(Map<FunctionRef, Diagnostic.Root> forwards) {
        Map<ClassInfo, Integer> depth = new java.util.IdentityHashMap<>();
        // each forward's depth once (a comparator computing it made two calls per comparison:
        // 200,000 for the 8,000 forwards of the models importing activations.py), then a stable sort
        List<Map.Entry<FunctionRef, Diagnostic.Root>> entries = new ArrayList<>(forwards.entrySet());
        int[] depths = new int[entries.size()];
        Integer[] order = new Integer[entries.size()];
        for (int i = 0; i < depths.length; i++) {
            depths[i] = containerDepth(entries.get(i).getKey().owner(), depth, new java.util.HashSet<>());
            order[i] = i;
        }
        java.util.Arrays.sort(order, java.util.Comparator.comparingInt(i -> depths[i]));
        Map<FunctionRef, Diagnostic.Root> out = new LinkedHashMap<>();
        for (Integer i : order) out.put(entries.get(i).getKey(), entries.get(i).getValue());
        return out;
    }

    private int containerDepth(ClassInfo c, Map<ClassInfo, Integer> memo, java.util.Set<ClassInfo> onPath) {
        if (c == null) return 0;
        Integer known = memo.get(c);
        if (known != null) return known;
        if (!onPath.add(c)) return 0; // a cycle of containment: cut it
        int best = 0;
        for (ClassInfo k : project.containers(c)) best = Math.max(best, 1 + containerDepth(k, memo, onPath));
        onPath.remove(c);
        memo.put(c, best);
        return best;
    }

    private void drain() {
        while (!work.isEmpty()) {
            Reached r = work.poll();
            r.visits++;
            try {
                propagateFrom(r);
            } catch (RuntimeException | StackOverflowError e) {
                // a function the analysis cannot follow: its callees stay out of the region, the rest goes on
                internalErrors.add(r.function + ": internal error while following calls: " + e);
                replayable = false;
            }
        }
    }

    private void propagateFrom(Reached r) {
        // wrappers of decorators named by an attribute are found at each visit (the name may lead
        // through a class whose methods an edit adds or removes); those of plain names are calls
        // followed like the others, kept by the memo with the decorator's body as consulted
        java.util.function.Consumer<Followed> reachIt = f -> {
            calls.computeIfAbsent(r.function, k -> new LinkedHashMap<>()).merge(f.callee(), f.modes(), (a, b) -> a | b);
            reach(f.callee(), r.root, f.params());
        };
        boolean everyVisit = hasAttributeDecorator(r.function.def());
        if (everyVisit) {
            attributeDecorated = true;
            decoratorWrappers(r.function, r.params, null, reachIt);
        }
        List<Followed> known = memo == null ? null : memo.lookup(r.function, r.params);
        if (known != null) {
            for (Followed f : known) reachIt.accept(f);
            return;
        }
        if (follow(r.function, r.params, r.context(project), everyVisit, reachIt) == null) replayable = false;
    }

    /**
     * The calls followed from {@code fn} with these parameters (a name decorator's wrapper first,
     * unless {@code everyVisit}: the caller finds those), each handed to {@code onFollow} as found,
     * and recorded in the memo; null when they cannot be recorded (a decorator name that resolves
     * to a method).
     */
    private List<Followed> follow(FunctionRef fn, Map<String, Val> params, FunctionContext ctx, boolean everyVisit,
                                  java.util.function.Consumer<Followed> onFollow) {
        return follow(fn, params, ctx, everyVisit, onFollow, memo);
    }

    private List<Followed> follow(FunctionRef fn, Map<String, Val> params, FunctionContext ctx, boolean everyVisit,
                                  java.util.function.Consumer<Followed> onFollow, FollowMemo memo) {
        List<Followed> followed = new ArrayList<>();
        java.util.function.Consumer<Followed> add = f -> {
            followed.add(f);
            onFollow.accept(f);
        };
        java.util.Set<Node> decorators = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        boolean storable = everyVisit || decoratorWrappers(fn, params, decorators, add);
        Map<Stmt, Integer> modes = Modes.of(fn.def());
        for (Stmt s : ctx.liveStatements()) {
            int runs = Modes.at(modes, s);
            ctx.expressions(s).forEach(e -> {
                if (e instanceof Expr.Call c) {
                    for (Callee callee : ctx.callees(c)) {
                        if (!isDisabled(callee.function()) && !runsAsConstant(callee.function(), ctx)) {
                            add.accept(new Followed(callee.function(), ctx.bindArguments(callee.function(), c, callee.bound()), runs));
                        } else if (skipsOnlyItsFrame(callee.function())) {
                            throughSkippedFrame(ctx, callee, c, runs, add);
                        }
                    }
                }
            });
        }
        if (memo == null) return followed;
        if (!storable) return null;
        java.util.Set<Node> consulted = ctx.consulted();
        if (!decorators.isEmpty()) {
            consulted = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            consulted.addAll(ctx.consulted());
            consulted.addAll(decorators);
        }
        memo.store(fn, params, consulted, ctx.methodLookups(), followed);
        return followed;
    }

    /**
     * Whether a root, called as its module calls it ({@link CompileRoot#noneAtItsCalls}), runs the
     * statement of {@code f} around {@code span}; null when its calls narrow nothing or the walk
     * could not follow them (then the functions the root reaches decide). The walk follows the
     * calls as discovery does, from the root with the parameters its calls leave None, each
     * function valued with the values joined over the calls that reach it; a branch on a None
     * parameter is then taken one way ({@code FunctionContext#staticTruth}).
     */
    public synchronized Boolean runsUnderItsCalls(Diagnostic.Root root, FunctionRef f, dev.graphmend.ir.ast.Span span) {
        CompileRoot r = narrowedRoot(root);
        if (r == null) return null;
        if (!liveUnderCalls.containsKey(r.root())) liveUnderCalls.put(r.root(), walkUnderCalls(r)); // null kept too
        Map<FunctionRef, java.util.Set<Stmt>> live = liveUnderCalls.get(r.root());
        if (live == null) return null;
        java.util.Set<Stmt> here = live.get(f);
        if (here == null) return false;
        Stmt inner = Statements.innermostAround(f.def().body(), span);
        return inner == null || here.contains(inner);
    }

    /** The statements each function runs when the root is called as its module calls it; null when a call could not be followed. */
    private Map<FunctionRef, java.util.Set<Stmt>> walkUnderCalls(CompileRoot r) {
        Map<String, Val> start = FunctionContext.rootParams(project, r.function());
        start.putAll(r.noneAtItsCalls());
        Map<FunctionRef, Map<String, Val>> params = new HashMap<>();
        Map<FunctionRef, Integer> visits = new HashMap<>();
        Map<FunctionRef, java.util.Set<Stmt>> live = new HashMap<>();
        Deque<FunctionRef> todo = new ArrayDeque<>();
        params.put(r.function(), start);
        todo.add(r.function());
        try {
            while (!todo.isEmpty()) {
                FunctionRef fn = todo.poll();
                if (visits.merge(fn, 1, Integer::sum) > MAX_VISITS) continue;
                Visit v = visitUnderCalls(fn, params.get(fn));
                live.computeIfAbsent(fn, k -> java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>())).addAll(v.live());
                for (Followed f : v.followed()) {
                    Map<String, Val> old = params.get(f.callee());
                    Map<String, Val> joined = old == null ? new HashMap<>(f.params()) : new HashMap<>(old);
                    if (old != null) f.params().forEach((k, val) -> joined.merge(k, val, Val::join));
                    if (!joined.equals(old)) {
                        params.put(f.callee(), joined);
                        todo.add(f.callee());
                    }
                }
            }
        } catch (RuntimeException | StackOverflowError e) {
            return null;
        }
        return live;
    }

    /** Whether the calls of a root's compiled object leave some parameter None ({@link #runsUnderItsCalls} may say false). */
    public boolean narrowedByCalls(Diagnostic.Root root) {
        return narrowedRoot(root) != null;
    }

    private CompileRoot narrowedRoot(Diagnostic.Root root) {
        for (CompileRoot c : compileRoots) if (c.root().equals(root) && c.noneAtItsCalls() != null) return c;
        return null;
    }

    /** What one function runs and calls with these parameters: shared by the walks of every root. */
    private record Visit(List<Stmt> live, List<Followed> followed) {}

    private final Map<Diagnostic.Root, Map<FunctionRef, java.util.Set<Stmt>>> liveUnderCalls = new HashMap<>();
    private final Map<FunctionRef, Map<Map<String, Val>, Visit>> visitsUnderCalls = new HashMap<>();

    private Visit visitUnderCalls(FunctionRef fn, Map<String, Val> params) {
        Map<Map<String, Val>, Visit> byParams = visitsUnderCalls.computeIfAbsent(fn, k -> new HashMap<>());
        Visit v = byParams.get(params);
        if (v != null) return v;
        FunctionContext ctx = new FunctionContext(project, fn, params);
        List<Followed> out = new ArrayList<>();
        boolean everyVisit = hasAttributeDecorator(fn.def());
        if (everyVisit) decoratorWrappers(fn, params, null, out::add);
        follow(fn, params, ctx, everyVisit, out::add, null); // not recorded: the memo holds discovery's visits
        v = new Visit(ctx.liveStatements(), out);
        byParams.put(new HashMap<>(params), v);
        return v;
    }

    /** The calls followed from {@code fn} with these parameters, for a replay's check; null when not recorded or raising. */
    private List<Followed> followedFrom(FunctionRef fn, Map<String, Val> params) {
        try {
            return follow(fn, params, new FunctionContext(project, fn, params), hasAttributeDecorator(fn.def()), f -> {});
        } catch (RuntimeException | StackOverflowError e) {
            return null;
        }
    }

    private static boolean hasAttributeDecorator(Stmt.FunctionDef f) {
        for (Expr d : f.decoratorList()) if (d instanceof Expr.Attribute) return true;
        return false;
    }

    /**
     * A function decorated by a project decorator that returns a nested wrapper runs as that
     * wrapper ({@code @dynamic_rope_update} in transformers runs a frequency update before the
     * forward): the wrapper is reached too, its positional parameters taking the decorated
     * function's. Decorator factories ({@code @deco(args)}) are not followed. Each wrapper goes to
     * {@code onFollow}; with {@code decorators} (not null), each decorator that resolved to a
     * function is added to it (its body decides the wrapper); false when one resolved to a method
     * (a class's methods are not recorded: what it reached must be found again next time).
     */
    private boolean decoratorWrappers(FunctionRef fn, Map<String, Val> params, java.util.Set<Node> decorators,
                                      java.util.function.Consumer<Followed> onFollow) {
        Stmt.FunctionDef f = fn.def();
        boolean storable = true;
        for (Expr d : f.decoratorList()) {
            if (!(d instanceof Expr.Name || d instanceof Expr.Attribute)) continue;
            FunctionRef deco = project.resolveFunction(fn.module(), d);
            if (deco == null) continue;
            if (decorators != null) {
                decorators.add(deco.def());
                storable &= deco.owner() == null;
            }
            Stmt.FunctionDef wrapper = returnedNestedFunction(deco.def());
            FunctionRef w = wrapper == null ? null : project.refOf(wrapper);
            if (w == null || w.equals(fn)) continue;
            List<dev.graphmend.ir.ast.Arg> from = new ArrayList<>(f.args().posonlyargs());
            from.addAll(f.args().args());
            List<dev.graphmend.ir.ast.Arg> to = new ArrayList<>(wrapper.args().posonlyargs());
            to.addAll(wrapper.args().args());
            Map<String, Val> wrapperParams = new HashMap<>();
            for (int i = 0; i < to.size(); i++) {
                Val v = i < from.size() ? params.get(from.get(i).arg()) : null;
                wrapperParams.put(to.get(i).arg(), v == null ? Val.UNKNOWN : v);
            }
            onFollow.accept(new Followed(w, wrapperParams, Modes.BOTH));
        }
        return storable;
    }

    /** The function a decorator returns: {@code def deco(fn): def wrapper(...): ...; return wrapper}. */
    private static Stmt.FunctionDef returnedNestedFunction(Stmt.FunctionDef deco) {
        Stmt.FunctionDef found = null;
        for (Stmt s : deco.body()) {
            if (s instanceof Stmt.Return ret && ret.value() instanceof Expr.Name n) found = CallResolver.nestedDef(deco, n.id());
        }
        return found;
    }


    /**
     * The calls of a function decorated {@code @torch.compiler.disable(recursive=False)}, called
     * from compiled code: Dynamo runs its own frame eagerly, but compiles the functions it calls
     * as frames of their own, so they are reached (with the values its body passes them). One
     * level: a skipped frame's skipped callees are not followed further.
     */
    private static void throughSkippedFrame(FunctionContext ctx, Callee skipped, Expr.Call c, int modes,
                                            java.util.function.Consumer<Followed> add) {
        FunctionContext inner = ctx.calleeContext(skipped, c);
        if (inner == null) return;
        ctx.consultBody(skipped.function()); // its body decides what is followed
        for (Stmt s : Statements.of(skipped.function().def().body())) { // eager: every branch runs
            for (Expr e : inner.expressions(s)) {
                if (!(e instanceof Expr.Call call)) continue;
                for (Callee k : inner.callees(call)) {
                    if (!isDisabled(k.function())) add.accept(new Followed(k.function(), inner.bindArguments(k.function(), call, k.bound()), modes));
                }
            }
        }
    }

    /**
     * A function Dynamo calls while tracing and takes the result of as a constant, without tracing
     * its body: decorated with {@code torch._dynamo.assume_constant_result}, or with a project
     * decorator that sets the mark that decorator sets ({@code setattr(fn, "_dynamo_marked_constant",
     * True)}: transformers' {@code _make_compile_constant} on its {@code is_*_available} probes).
     */
    private boolean runsAsConstant(FunctionRef f, FunctionContext ctx) {
        for (Expr d : f.def().decoratorList()) {
            if (!(d instanceof Expr.Name || d instanceof Expr.Attribute)) continue;
            if (TorchApi.isConstantResultDecorator(f.module().names().qualifiedName(d))) return true;
            FunctionRef deco = project.resolveFunction(f.module(), d);
            if (deco == null || deco.def().args().args().size() != 1) continue;
            ctx.consultBody(deco); // its body decides whether the function is followed
            if (setsConstantMark(deco.module(), deco.def())) return true;
        }
        return false;
    }

    /** {@code def deco(fn): setattr(fn, "_dynamo_marked_constant", True); return fn} (or {@code fn._dynamo_marked_constant = True}). */
    private static boolean setsConstantMark(SourceModule module, Stmt.FunctionDef deco) {
        String param = deco.args().args().get(0).arg();
        boolean marks = false, returnsIt = false;
        for (Stmt s : deco.body()) {
            if (s instanceof Stmt.Expr x && x.value() instanceof Expr.Call c
                    && "builtins.setattr".equals(module.names().qualifiedName(c.func()))
                    && c.args().size() == 3 && c.args().get(0) instanceof Expr.Name p && p.id().equals(param)
                    && c.args().get(1) instanceof Expr.Constant k && TorchApi.CONSTANT_RESULT_MARK.equals(k.value())
                    && c.args().get(2) instanceof Expr.Constant t && Boolean.TRUE.equals(t.value())) {
                marks = true;
            }
            if (s instanceof Stmt.Assign a && a.targets().size() == 1 && a.targets().get(0) instanceof Expr.Attribute t
                    && t.attr().equals(TorchApi.CONSTANT_RESULT_MARK) && t.value() instanceof Expr.Name p && p.id().equals(param)
                    && a.value() instanceof Expr.Constant v && Boolean.TRUE.equals(v.value())) {
                marks = true;
            }
            if (s instanceof Stmt.Return r && r.value() instanceof Expr.Name p && p.id().equals(param)) returnsIt = true;
        }
        return marks && returnsIt;
    }

    /** {@code @torch.compiler.disable(recursive=False)}: only the function's own frame is skipped. */
    static boolean skipsOnlyItsFrame(FunctionRef f) {
        for (Expr d : f.def().decoratorList()) {
            if (!(d instanceof Expr.Call c) || !TorchApi.isDisableDecorator(f.module().names().qualifiedName(c.func()))) continue;
            for (dev.graphmend.ir.ast.Keyword k : c.keywords()) {
                if ("recursive".equals(k.arg()) && k.value() instanceof Expr.Constant v && Boolean.FALSE.equals(v.value())) return true;
            }
        }
        return false;
    }

    /** Functions decorated with {@code @torch.compiler.disable}: Dynamo does not trace into them. */
    public static boolean isDisabled(FunctionRef f) {
        for (Expr d : f.def().decoratorList()) {
            Expr callee = d instanceof Expr.Call c ? c.func() : d;
            if (TorchApi.isDisableDecorator(f.module().names().qualifiedName(callee))) return true;
        }
        return false;
    }
}
