package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Keyword;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.cfg.DefUse;
import dev.graphmend.ir.symbols.Binding;
import dev.graphmend.ir.symbols.Symbol;
import dev.graphmend.ir.symbols.Target;
import dev.graphmend.ir.symbols.Workspace;
import dev.graphmend.passes.config.AnalysisConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The files analysed together: their modules, the workspace index that resolves imports
 * between them, and the classes they define. Resolution of names to the project's functions and
 * classes lives here; what a function computes lives in {@link FunctionContext}.
 */
public final class Project {
    private final List<SourceModule> modules;
    /** Layered: the next project shares the entries of the modules it keeps ({@link #next}). */
    private final dev.graphmend.ir.symbols.LayeredMap<String, SourceModule> byName;
    private final Workspace workspace;
    private final IdentityHashMap<Stmt.ClassDef, ClassInfo> classes;
    /**
     * The classes in source order (modules in project order): what iterates them must not depend on
     * identity hashes. Built when first asked for: a project built from another ({@link #next})
     * answers from the indexes it carries, and concatenating 2,913 modules' lists read every module
     * object at every keystroke.
     */
    private volatile List<ClassInfo> classList;
    /** The project {@link #next} built this one from (weakly: a chain of versions is not kept alive), and the classes of it built again. */
    private final java.lang.ref.WeakReference<Project> builtFrom;
    private final java.util.Set<ClassInfo> rebuilt;

    /**
     * Whether a class of project {@code from} is this project's too (not built again since): for
     * the project this one was built from, asked of the few it rebuilt rather than looked up among
     * 15,000 classes.
     */
    public boolean keeps(ClassInfo c, Project from) {
        if (from == this) return true;
        if (builtFrom != null && builtFrom.get() == from) return !rebuilt.contains(c);
        return classes.get(c.def()) == c;
    }

    /** How many classes the project holds (the length of {@link #classList}). */
    private final int classCount;
    /** Each module's classes, in source order (a next project shares the lists of modules it keeps whole). */
    private final IdentityHashMap<SourceModule, List<ClassInfo>> classesByModule;

    private final AnalysisConfig config;

    public Project(List<SourceModule> modules, AnalysisConfig config) {
        this(modules, config, null);
    }

    /**
     * The project after an edit, built from the one before: when the modules that changed kept their
     * top-level bindings and imports ({@link SourceModule#interfaceKey}), the classes of the other
     * modules are kept with what was inferred of them (attributes, submodule evidence) unless that
     * leads to a changed module's class, and the workspace keeps its resolved names; anything else
     * (a file added or removed, an import or a top-level name changed) builds it anew. The language
     * server edits one file of a whole package at a time: rebuilding every class of transformers at
     * each keystroke was most of the latency.
     */
    public static Project next(Project previous, List<SourceModule> modules, AnalysisConfig config) {
        return new Project(modules, config, previous);
    }

    private Project(List<SourceModule> modules, AnalysisConfig config, Project previous) {
        this.modules = List.copyOf(modules);
        this.config = config;
        Reuse reuse = previous == null ? null : Reuse.of(previous, this.modules);
        if (reuse != null) {
            // the same names (Reuse checks): only the changed modules' entries are new
            this.byName = previous.byName.with(reuse.changedByName);
        } else {
            // sized once: a workspace of 2,913 modules and 15,850 classes grew these tables at every keystroke
            Map<String, SourceModule> names = new HashMap<>(Math.max(16, this.modules.size() * 4 / 3 + 1));
            for (SourceModule m : modules) names.put(m.moduleName(), m);
            this.byName = dev.graphmend.ir.symbols.LayeredMap.of(names);
        }
        this.dependents = reuse == null ? new ConcurrentHashMap<>() : previous.dependents;
        java.util.Set<ClassInfo> replacedClasses = java.util.Set.of(); // the stale classes and those carried
        if (reuse != null) {
            replacedClasses = reuse.stale;
            if (!reuse.carried.isEmpty()) {
                replacedClasses = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
                replacedClasses.addAll(reuse.stale);
                replacedClasses.addAll(reuse.carried.values());
            }
            forgetStale(replacedClasses);
        }
        this.builtFrom = reuse == null ? null : new java.lang.ref.WeakReference<>(previous);
        this.rebuilt = replacedClasses;
        if (reuse == null) {
            Workspace.Builder wb = Workspace.builder();
            // the module's own resolver: its imports are read once
            for (SourceModule m : modules) wb.add(m.moduleName(), m.isPackage(), m.names());
            this.workspace = wb.build();
        } else {
            // the same module names (Reuse checks): only the changed modules' entries are new
            Map<String, dev.graphmend.ir.symbols.QualifiedNames> replaced = new HashMap<>();
            Map<String, Boolean> packages = new HashMap<>();
            for (String n : reuse.changedNames) {
                SourceModule m = byName.get(n);
                replaced.put(n, m.names());
                packages.put(n, m.isPackage());
            }
            this.workspace = Workspace.next(previous.workspace, replaced, packages);
        }
        List<ClassInfo> fresh = new ArrayList<>();
        List<ClassInfo> carriedNow = new ArrayList<>(); // the new objects of the carried classes, in source order
        int count = 0;
        if (reuse == null) {
            classes = new IdentityHashMap<>();
            classesByModule = new IdentityHashMap<>(this.modules.size());
            for (SourceModule m : modules) {
                List<ClassInfo> own = collectClasses(m, null, fresh, null);
                classesByModule.put(m, own);
                count += own.size();
            }
        } else {
            // the previous index without what is built again: a copy of the table, not 15,000 puts a keystroke
            @SuppressWarnings("unchecked")
            IdentityHashMap<Stmt.ClassDef, ClassInfo> copy = (IdentityHashMap<Stmt.ClassDef, ClassInfo>) previous.classes.clone();
            classes = copy;
            java.util.Set<SourceModule> touched = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
            for (ClassInfo k : replacedClasses) {
                classes.remove(k.def());
                touched.add(k.module());
            }
            // the previous table (a copy of its array, not a put per module) with the changed modules' entries replaced
            @SuppressWarnings("unchecked")
            IdentityHashMap<SourceModule, List<ClassInfo>> byModule =
                    (IdentityHashMap<SourceModule, List<ClassInfo>>) previous.classesByModule.clone();
            classesByModule = byModule;
            count = previous.classCount;
            for (SourceModule old : reuse.replaced) {
                List<ClassInfo> gone = byModule.remove(old);
                if (gone != null) count -= gone.size();
            }
            // the changed modules and the kept ones that lost classes, in the list's order; asking
            // each of 2,913 modules whether it is one read every module object at every keystroke
            boolean keptTouched = false;
            for (SourceModule t : touched) keptTouched |= byName.get(t.moduleName()) == t && reuse.kept(t);
            for (SourceModule m : keptTouched ? modules : reuse.changedInOrder) {
                if (reuse.kept(m) && !touched.contains(m)) continue;
                List<ClassInfo> own = collectClasses(m, reuse, fresh, carriedNow);
                List<ClassInfo> before = byModule.put(m, own);
                count += own.size() - (before == null ? 0 : before.size());
            }
        }
        this.classCount = count;
        if (!carriedNow.isEmpty()) carry(reuse, carriedNow); // first: a new class's facts may read a carried one's
        for (ClassInfo c : fresh) {
            for (Expr base : c.def().bases()) {
                ClassInfo b = resolveClass(c.module(), base);
                if (b != null && b != c) {
                    c.bases.add(b);
                    dependsOn(c, b);
                } else {
                    c.externalBases.add(c.module().names().qualifiedName(base));
                }
            }
        }
        for (ClassInfo c : fresh) c.isModule = isModule(c, 0);
        this.keptClasses = classCount - fresh.size() - carriedNow.size();
        this.carriedClasses = carriedNow.size();
        if (reuse != null) {
            previousNamedCalls = previous.namedCalls;
            keepsNamedCalls = true;
            carryClassIndexes(previous, replacedClasses, fresh, carriedNow);
            previousNamedCalls = Map.of(); // this project's own table holds what it used: the previous one can go
        }
        // same module names, same imports: the same importers, and the same modules reach each module
        if (reuse != null && byName.size() == this.modules.size()) {
            this.importersByName = previous.importersByName;
            // an answer that went through a changed module read its text: found again (its own stands:
            // the search from a module reads only its top-level names, which did not change)
            previous.reachingByName.forEach((name, reaching) -> {
                if (reuse.changedNames.contains(name) || java.util.Collections.disjoint(reaching, reuse.changedNames)) {
                    this.reachingByName.put(name, reaching);
                }
            });
        }
        if (reuse != null && byName.size() == this.modules.size()) {
            Map<Stmt.FunctionDef, FunctionRef> base = previous.baseFunctionRefs != null ? previous.baseFunctionRefs
                    : previous.functionRefs;
            if (base != null) {
                this.baseFunctionRefs = base;
                List<ClassInfo> indexed = new ArrayList<>(fresh); // a carried class's methods belong to the new module version
                indexed.addAll(carriedNow);
                this.freshClasses = List.copyOf(indexed);
                java.util.Set<SourceModule> added = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
                added.addAll(reuse.changedInOrder); // this project's modules that are not the previous one's
                // what the base indexed from modules changed since it was built must be indexed again
                for (SourceModule m : previous.newModules) {
                    SourceModule now = byName.get(m.moduleName());
                    if (now != null) added.add(now);
                }
                if (previous.baseFunctionRefs != null) {
                    for (ClassInfo c : previous.freshClasses) if (classes.get(c.def()) == c) this.freshClasses = concat(this.freshClasses, c);
                }
                this.newModules = added;
            }
        }
    }

    private final int keptClasses;
    private final int carriedClasses;

    /**
     * The facts of the carried classes ({@link Reuse#carried}) copied from the previous project's
     * classes, each class they name being this project's version of it (the same object when kept,
     * the copy when carried: none is stale, {@link Reuse#of} saw to it), and their dependencies
     * registered again as inferring them would.
     */
    private void carry(Reuse reuse, List<ClassInfo> carriedNow) {
        IdentityHashMap<ClassInfo, ClassInfo> now = new IdentityHashMap<>(carriedNow.size() * 2);
        for (ClassInfo k : carriedNow) now.put(reuse.carriedFrom(k.def()), k);
        java.util.function.UnaryOperator<ClassInfo> map = c -> c == null ? null : now.getOrDefault(c, c);
        for (ClassInfo k : carriedNow) {
            ClassInfo was = reuse.carriedFrom(k.def());
            for (ClassInfo b : was.bases) {
                ClassInfo nb = map.apply(b);
                k.bases.add(nb);
                dependsOn(k, nb);
            }
            k.externalBases.addAll(was.externalBases);
            k.isModule = was.isModule;
            Map<String, Val> attrs = was.attributes;
            if (attrs != null) {
                Map<String, Val> copy = new LinkedHashMap<>(attrs.size() * 2);
                for (var e : attrs.entrySet()) {
                    Val v = e.getValue();
                    ClassInfo c = map.apply(v.cls());
                    copy.put(e.getKey(), c == v.cls() ? v : new Val(v.kind(), c, v.input(), v.truth()));
                    dependsOn(k, c);
                }
                k.attributes = copy;
            }
            List<ClassInfo> evidence = was.submoduleEvidence;
            if (evidence != null) {
                List<ClassInfo> copy = new ArrayList<>(evidence.size());
                for (ClassInfo t : evidence) copy.add(map.apply(t));
                for (ClassInfo t : copy) dependsOn(k, t);
                k.submoduleEvidence = List.copyOf(copy);
            }
        }
    }

    /**
     * A module's classes, entered in the index: each kept from the previous project when {@code
     * reuse} allows, else new (added to {@code fresh}). A class node already indexed under another
     * module (one tree in two modules) stays with the first.
     */
    private List<ClassInfo> collectClasses(SourceModule m, Reuse reuse, List<ClassInfo> fresh, List<ClassInfo> carriedNow) {
        List<ClassInfo> out = new ArrayList<>();
        for (Stmt.ClassDef c : m.classes()) {
            ClassInfo known = classes.get(c);
            if (known != null) {
                if (known.module() == m && reuse != null && !reuse.stale.contains(known)) out.add(known);
                continue;
            }
            ClassInfo kept = reuse == null ? null : reuse.reusable(c);
            ClassInfo ci = kept != null && kept.module() == m ? kept : new ClassInfo(m, c);
            classes.put(c, ci);
            out.add(ci);
            if (ci == kept) continue;
            if (reuse != null && reuse.carriedFrom(c) != null) carriedNow.add(ci);
            else fresh.add(ci);
        }
        return List.copyOf(out);
    }

    /** The classes of one module of the project, in source order. */
    public List<ClassInfo> classesOf(SourceModule m) {
        return classesByModule.getOrDefault(m, List.of());
    }

    /**
     * For each class, the classes whose inferred facts lead to it (a base, an attribute's class, a
     * class it makes a submodule), registered as the facts are inferred. Shared with the projects
     * built from this one: an edge of a class no longer used only makes a next project build more
     * again, never less.
     */
    private final ConcurrentHashMap<ClassInfo, java.util.Set<ClassInfo>> dependents;

    private void dependsOn(ClassInfo dependent, ClassInfo on) {
        if (on != null && on != dependent) dependents.computeIfAbsent(on, k -> ConcurrentHashMap.newKeySet()).add(dependent);
    }

    /**
     * Takes the classes built again out of the shared dependents relation: their own entries, and
     * their places among the dependents of what they depended on (their bases and the classes
     * their facts name). Kept, they held every earlier version's classes, and through them its
     * trees, for as long as the server ran.
     */
    private void forgetStale(java.util.Set<ClassInfo> stale) {
        for (ClassInfo d : stale) {
            dependents.remove(d);
            List<ClassInfo> on = new ArrayList<>(d.bases);
            Map<String, Val> attrs = d.attributes;
            if (attrs != null) for (Val v : attrs.values()) if (v.cls() != null) on.add(v.cls());
            List<ClassInfo> evidence = d.submoduleEvidence;
            if (evidence != null) on.addAll(evidence);
            for (ClassInfo o : on) {
                java.util.Set<ClassInfo> ds = dependents.get(o);
                if (ds != null) ds.remove(d);
            }
        }
    }

    /** How many classes this project kept from the one it was built from ({@link #next}). */
    public int keptClasses() { return keptClasses; }

    /** How many classes of the changed modules it built anew with the previous project's facts ({@link #carry}). */
    public int carriedClasses() { return carriedClasses; }

    private static List<ClassInfo> concat(List<ClassInfo> a, ClassInfo c) {
        List<ClassInfo> out = new ArrayList<>(a);
        out.add(c);
        return out;
    }

    /** What {@link #next} may keep of the previous project. */
    private static final class Reuse {
        final java.util.Set<String> changedNames = new java.util.HashSet<>();
        /** The changed modules of this project by name. */
        final Map<String, SourceModule> changedByName = new HashMap<>();
        /** The previous project's versions of the changed modules, and the new ones, by identity. */
        final List<SourceModule> replaced = new ArrayList<>();
        private final java.util.Set<SourceModule> changedNow = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        /** The same, in the order of this project's list. */
        final List<SourceModule> changedInOrder = new ArrayList<>();
        final Project previous;
        final java.util.Set<ClassInfo> stale = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        /**
         * Classes of changed modules whose facts stand, by their definition node in the new version
         * (the same node, or the same text moved by lines): built anew for the new module version
         * with those facts copied ({@link #carry}).
         */
        final Map<Stmt.ClassDef, ClassInfo> carried = new IdentityHashMap<>();

        private Reuse(Project previous) {
            this.previous = previous;
        }

        static Reuse of(Project previous, List<SourceModule> modules) {
            // by name: a project whose names are not unique is built anew
            if (previous.byName.size() != previous.modules.size()) return null;
            Reuse r = new Reuse(previous);
            Map<String, SourceModule> gone = new HashMap<>();
            List<SourceModule> before = previous.modules;
            // most modules are where they were in the list (the caller keeps its order): when every
            // other one has the name of the one it replaces, the names are the previous project's,
            // unique, without a set of 2,913 names built at every keystroke
            boolean inPlace = modules.size() == before.size();
            for (int i = 0; inPlace && i < modules.size(); i++) {
                SourceModule m = modules.get(i), was = before.get(i);
                if (m != was && !m.moduleName().equals(was.moduleName())) inPlace = false;
            }
            java.util.Set<String> names = inPlace ? null : new java.util.HashSet<>();
            for (int i = 0; i < modules.size(); i++) {
                SourceModule m = modules.get(i);
                if (names != null && !names.add(m.moduleName())) return null;
                if (i < before.size() && before.get(i) == m) continue;
                SourceModule old = previous.byName.get(m.moduleName());
                if (old == m) continue;
                if (old == null || !old.interfaceKey().equals(m.interfaceKey())) return null;
                gone.put(m.moduleName(), old);
                r.changedNames.add(m.moduleName());
                r.changedByName.put(m.moduleName(), m);
                r.replaced.add(old);
                r.changedNow.add(m);
                r.changedInOrder.add(m);
            }
            if (names != null && names.size() != previous.modules.size()) return null; // a file added or removed
            // the classes of changed modules, and every class whose inferred facts lead to one
            // (registered as they were inferred: dependents); but a class with a counterpart in the
            // new version (see counterparts) has the same facts as long as none of them leads to a
            // class built again
            java.util.ArrayDeque<ClassInfo> todo = new java.util.ArrayDeque<>();
            Map<ClassInfo, Stmt.ClassDef> candidates = new IdentityHashMap<>(); // a previous class → its definition now
            for (var e : gone.entrySet()) {
                SourceModule old = e.getValue();
                Map<Stmt.ClassDef, Stmt.ClassDef> now = counterparts(old, r.changedByName.get(e.getKey()));
                for (Stmt.ClassDef c : old.classes()) {
                    ClassInfo k = previous.classes.get(c);
                    if (k == null || k.module() != old) continue;
                    Stmt.ClassDef def = now.get(c);
                    if (def != null) candidates.put(k, def);
                    else if (r.stale.add(k)) todo.add(k);
                }
            }
            r.closeOver(todo);
            // a carried class is a new object: what holds the previous one and is not carried is built again
            boolean grew = true;
            while (grew) {
                grew = false;
                for (ClassInfo k : candidates.keySet()) {
                    if (r.stale.contains(k)) continue;
                    for (ClassInfo d : previous.dependents.getOrDefault(k, java.util.Set.of())) {
                        if (!candidates.containsKey(d) && r.stale.add(d)) {
                            todo.add(d);
                            grew = true;
                        }
                    }
                }
                r.closeOver(todo);
            }
            candidates.forEach((k, def) -> {
                if (!r.stale.contains(k)) r.carried.put(def, k);
            });
            return r;
        }

        /** Adds to {@link #stale} every class whose facts lead to one in {@code todo}, transitively. */
        private void closeOver(java.util.ArrayDeque<ClassInfo> todo) {
            while (!todo.isEmpty()) {
                for (ClassInfo d : previous.dependents.getOrDefault(todo.poll(), java.util.Set.of())) if (stale.add(d)) todo.add(d);
            }
        }

        /**
         * For each class definition of {@code old}, its counterpart in {@code now}: the same node,
         * or the same node of a statement of the same text moved by lines (parsed alike). Only when
         * every top-level statement outside a class is such a counterpart of the one at its place,
         * or a function of the same name that declares no global, and the classes are where they
         * were with the same names, so that every name resolves to a class as before; else none. A
         * class whose text changed has none; the classes in it that it shares with the previous
         * version are their own.
         */
        private static Map<Stmt.ClassDef, Stmt.ClassDef> counterparts(SourceModule old, SourceModule now) {
            List<Stmt> a = old.ir().module().body(), b = now.ir().module().body();
            if (a.size() != b.size()) return Map.of();
            Map<Stmt.ClassDef, Stmt.ClassDef> out = new IdentityHashMap<>();
            List<Stmt.ClassDef> before = new ArrayList<>(), after = new ArrayList<>();
            for (int i = 0; i < a.size(); i++) {
                Stmt x = a.get(i), y = b.get(i);
                before.clear();
                after.clear();
                SourceModule.collectClasses(List.of(x), before);
                if (x == y) {
                    for (Stmt.ClassDef c : before) out.put(c, c);
                    continue;
                }
                SourceModule.collectClasses(List.of(y), after);
                if (Statements.sameText(old.ir(), now.ir(), x, y)) {
                    if (before.size() != after.size()) return Map.of(); // cannot happen for the same text
                    for (int k = 0; k < before.size(); k++) out.put(before.get(k), after.get(k));
                } else if (x instanceof Stmt.ClassDef cx && y instanceof Stmt.ClassDef cy && cx.name().equals(cy.name())) {
                    java.util.Set<Stmt.ClassDef> shared = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
                    shared.addAll(after);
                    for (Stmt.ClassDef c : before) if (c != cx && shared.contains(c)) out.put(c, c);
                } else if (!sameFunctionName(x, y)) {
                    // a function's body is no fact of a class (names resolve to classes by their
                    // bindings, and a def of the same name binds alike); anything else may rebind
                    return Map.of();
                }
            }
            return out;
        }

        /** Two definitions of a function of the same name, neither of which declares a name global (which would rebind one). */
        private static boolean sameFunctionName(Stmt x, Stmt y) {
            if (x instanceof Stmt.FunctionDef fx && y instanceof Stmt.FunctionDef fy) {
                return fx.name().equals(fy.name()) && !Statements.declaresGlobal(fx.body()) && !Statements.declaresGlobal(fy.body());
            }
            return x instanceof Stmt.AsyncFunctionDef ax && y instanceof Stmt.AsyncFunctionDef ay && ax.name().equals(ay.name())
                    && !Statements.declaresGlobal(ax.body()) && !Statements.declaresGlobal(ay.body());
        }

        /** The previous project's class a class of a changed module is carried from, or null. */
        ClassInfo carriedFrom(Stmt.ClassDef def) {
            return carried.get(def);
        }

        /** Whether the module is one the previous project had (not a changed one); for this project's modules. */
        boolean kept(SourceModule m) {
            return !changedNow.contains(m);
        }

        ClassInfo reusable(Stmt.ClassDef def) {
            ClassInfo k = previous.classes.get(def);
            return k == null || stale.contains(k) ? null : k;
        }
    }

    public static Project of(AnalysisConfig config, SourceModule... modules) {
        return new Project(List.of(modules), config);
    }

    public AnalysisConfig config() { return config; }

    public List<SourceModule> modules() { return modules; }

    /** Whether {@code m} is one of this project's modules (found by its name; by a scan when names repeat). */
    public boolean holds(SourceModule m) {
        return byName.get(m.moduleName()) == m || byName.size() != modules.size() && modules.contains(m);
    }

    public ClassInfo classInfo(Stmt.ClassDef def) { return classes.get(def); }

    public java.util.Collection<ClassInfo> classes() { return classList(); }

    /** How many classes {@link #classes()} holds, without building the list. */
    public int classCount() { return classCount; }

    private List<ClassInfo> classList() {
        List<ClassInfo> l = classList;
        if (l == null) {
            l = new ArrayList<>(classCount);
            for (SourceModule m : modules) l.addAll(classesByModule.get(m));
            classList = l = java.util.Collections.unmodifiableList(l); // a race builds the same list twice: harmless
        }
        return l;
    }

    private boolean isModule(ClassInfo c, int depth) {
        if (depth > 20) return false;
        for (String qn : c.externalBases) {
            if (TorchApi.isModuleBase(qn) || TorchApi.isConventionalModuleBase(qn)) return true;
        }
        for (ClassInfo b : c.bases) if (isModule(b, depth + 1)) return true;
        return false;
    }

    /**
     * The modules whose code can reach {@code focus}'s functions: the module itself and every
     * module that imports one of them and names what it defines. Names resolve across files only
     * through imports, and a call, a class or an attribute that leads into a module is spelled with
     * one of the names it defines at top level (or the module's own name) in the module that uses
     * it: a module that imports the package but never spells one of those names cannot reach it.
     * A star import passes the names on (transformers' {@code models/__init__.py}), as does an
     * import that re-exports one ({@code from ...utils import helper} binds {@code helper}). In a whole package,
     * where every model imports the package's utils and the top-level package re-exports every
     * model, this keeps discovery to the modules that really name the focus.
     */
    public java.util.Set<SourceModule> modulesReaching(SourceModule focus) {
        List<String> known = byName.size() == modules.size() ? reachingByName.get(focus.moduleName()) : null;
        if (known != null) {
            java.util.Set<SourceModule> out = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
            for (String n : known) out.add(byName.get(n));
            return out;
        }
        java.util.Set<SourceModule> out = findModulesReaching(focus);
        if (byName.size() == modules.size()) reachingByName.put(focus.moduleName(), out.stream().map(SourceModule::moduleName).toList());
        return out;
    }

    /** {@link #modulesReaching} by module name, kept by a next project with the same names and interfaces. */
    private final Map<String, List<String>> reachingByName = new ConcurrentHashMap<>();

    private java.util.Set<SourceModule> findModulesReaching(SourceModule focus) {
        Map<SourceModule, List<SourceModule>> importers = importers();
        Map<SourceModule, java.util.Set<String>> names = new IdentityHashMap<>();
        java.util.ArrayDeque<SourceModule> todo = new java.util.ArrayDeque<>();
        // a module waiting in the queue is not queued again when its names grow: it is read with
        // all of them when its turn comes (queued once per growth, the package __init__ that
        // re-exports the module was read again for each of hundreds of importers)
        java.util.Set<SourceModule> queued = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        names.put(focus, new java.util.HashSet<>(focus.namesOthersUse()));
        todo.add(focus);
        queued.add(focus);
        while (!todo.isEmpty()) {
            SourceModule m = todo.poll();
            queued.remove(m);
            java.util.Set<String> through = names.get(m);
            for (SourceModule x : importers.getOrDefault(m, List.of())) {
                java.util.Set<String> bound = x.bindingsReaching(m.moduleName(), through);
                if (bound == null) continue; // x imports m but names nothing that leads to the focus
                java.util.Set<String> known = names.get(x);
                boolean grew = known == null;
                if (known == null) names.put(x, known = new java.util.HashSet<>());
                grew |= known.addAll(bound);
                grew |= known.addAll(x.namesLeadingTo(bound)); // x's definitions that use those names
                if (grew && queued.add(x)) todo.add(x);
            }
        }
        java.util.Set<SourceModule> out = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        out.addAll(names.keySet());
        return out;
    }

    /** Every module that imports {@code focus}, directly or through other modules (the fix neighbourhood's wider set). */
    private java.util.Set<SourceModule> modulesImporting(SourceModule focus) {
        Map<SourceModule, List<SourceModule>> importers = importers();
        java.util.Set<SourceModule> out = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        java.util.ArrayDeque<SourceModule> todo = new java.util.ArrayDeque<>();
        out.add(focus);
        todo.add(focus);
        while (!todo.isEmpty()) {
            for (SourceModule m : importers.getOrDefault(todo.poll(), List.of())) {
                if (out.add(m)) todo.add(m);
            }
        }
        return out;
    }

    /**
     * The modules on an import path from one of {@code from} to {@code focus}, both ends
     * included: what an analysis needs besides {@code focus}'s neighbours to follow calls from
     * compile roots in {@code from} to {@code focus} (through re-exporting packages too). Far
     * smaller than {@link #modulesReaching} in a large package, whose models all import its utils.
     */
    public java.util.Set<SourceModule> modulesBetween(java.util.Collection<SourceModule> from, SourceModule focus) {
        java.util.Set<SourceModule> reaching = modulesImporting(focus);
        java.util.Set<SourceModule> out = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        java.util.ArrayDeque<SourceModule> todo = new java.util.ArrayDeque<>();
        for (SourceModule m : from) if (reaching.contains(m) && out.add(m)) todo.add(m);
        while (!todo.isEmpty()) {
            SourceModule m = todo.poll();
            java.util.Set<SourceModule> imported = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
            importedBy(m, importIndex(), imported);
            for (SourceModule t : imported) if (reaching.contains(t) && out.add(t)) todo.add(t);
        }
        return out;
    }

    private volatile Map<SourceModule, List<SourceModule>> importers;
    private volatile java.util.TreeMap<String, List<SourceModule>> modulesByName;

    private java.util.TreeMap<String, List<SourceModule>> importIndex() {
        java.util.TreeMap<String, List<SourceModule>> out = modulesByName;
        if (out != null) return out;
        out = new java.util.TreeMap<>();
        for (SourceModule m : modules) out.computeIfAbsent(m.moduleName(), k -> new ArrayList<>()).add(m);
        modulesByName = out;
        return out;
    }

    /** The modules {@code m}'s imports may bring in (itself excluded). */
    private static void importedBy(SourceModule m, java.util.TreeMap<String, List<SourceModule>> byName,
                                   java.util.Set<SourceModule> into) {
        for (dev.graphmend.ir.symbols.Imports.Import i : m.names().imports().all()) relatedModules(i.qualifiedName(), byName, into);
        for (dev.graphmend.ir.symbols.Imports.StarImport i : m.names().imports().starImports()) relatedModules(i.module(), byName, into);
        into.remove(m);
    }

    /**
     * For each module, the modules with an import that may bring it in: the import names the
     * module, a package of it, or a name inside it (see {@link #relatedModules}). Indexed by module name
     * once per project: a pairwise scan was quadratic in the files, per call.
     */
    private Map<SourceModule, List<SourceModule>> importers() {
        Map<SourceModule, List<SourceModule>> out = importers;
        if (out != null) return out;
        out = new IdentityHashMap<>();
        if (this.byName.size() != modules.size()) {
            // two files of one module name (two roots): by identity, as names cannot tell them apart
            java.util.TreeMap<String, List<SourceModule>> index = importIndex();
            for (SourceModule m : modules) {
                java.util.Set<SourceModule> targets = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
                importedBy(m, index, targets);
                for (SourceModule t : targets) out.computeIfAbsent(t, k -> new ArrayList<>()).add(m);
            }
            importers = out;
            return out;
        }
        Map<String, List<String>> byName = importersByName();
        for (var e : byName.entrySet()) {
            SourceModule target = this.byName.get(e.getKey());
            if (target == null) continue;
            List<SourceModule> from = new ArrayList<>(e.getValue().size());
            for (String n : e.getValue()) {
                SourceModule m = this.byName.get(n);
                if (m != null) from.add(m);
            }
            out.put(target, from);
        }
        importers = out;
        return out;
    }

    /**
     * The importer relation by module name, which a next project with the same module names and
     * imports keeps ({@link #next}); built from the modules' imports once otherwise.
     */
    private Map<String, List<String>> importersByName() {
        Map<String, List<String>> out = importersByName;
        if (out != null) return out;
        java.util.TreeMap<String, List<SourceModule>> index = importIndex();
        out = new HashMap<>();
        for (SourceModule m : modules) {
            java.util.Set<SourceModule> targets = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
            importedBy(m, index, targets);
            for (SourceModule t : targets) out.computeIfAbsent(t.moduleName(), k -> new ArrayList<>()).add(m.moduleName());
        }
        importersByName = out;
        return out;
    }

    private volatile Map<String, List<String>> importersByName;

    /**
     * The modules an import of {@code qn} may bring in: {@code qn} itself or a package of it
     * (its dotted prefixes), and the modules below it ({@code import pkg} then {@code pkg.sub.f}).
     * A relative import that climbs above the top-level package (null) names no module of the
     * workspace, for Python as for the resolution here.
     */
    private static void relatedModules(String qn, java.util.TreeMap<String, List<SourceModule>> byName,
                                       java.util.Set<SourceModule> into) {
        if (qn == null) return;
        for (String prefix = qn; ; ) {
            List<SourceModule> ms = byName.get(prefix);
            if (ms != null) into.addAll(ms);
            int dot = prefix.lastIndexOf('.');
            if (dot < 0) break;
            prefix = prefix.substring(0, dot);
        }
        for (List<SourceModule> ms : byName.subMap(qn + ".", qn + "/").values()) into.addAll(ms); // '/' follows '.'
    }

    /**
     * Infers now what the first analysis would ask of the whole project: every module class's
     * attributes and submodule evidence, the submodule and container indexes, the importer
     * relation and the index of every function (a long-lived caller does it while indexing;
     * projects built from this one carry them).
     */
    public void inferProjectFacts() {
        if (classCount > 0) {
            isSubmodule(classList().get(0));
            containers(classList().get(0));
        }
        importers();
        if (functionRefs == null) functionRefs = indexFunctions();
    }

    /**
     * For each class some module class makes a submodule, how many do ({@link #submoduleEvidence}).
     * Built once per project from every module class, or, by a next project, from the previous
     * one's counts: the stale classes' evidence taken out, the new classes' put in.
     */
    private volatile IdentityHashMap<ClassInfo, Integer> submoduleCounts;

    /**
     * Whether instances of the class are submodules of another project module (so its forward is
     * inlined): assigned as an attribute of one, or built in one of its methods (layers appended to
     * a list that becomes an {@code nn.ModuleList}, GLPN's encoder blocks).
     */
    public boolean isSubmodule(ClassInfo c) {
        Map<ClassInfo, Integer> s = submoduleCounts;
        if (s == null) {
            IdentityHashMap<ClassInfo, Integer> found = new IdentityHashMap<>();
            for (ClassInfo k : classList()) if (k.isModule) count(found, submoduleEvidence(k), 1);
            submoduleCounts = found;
            s = found;
        }
        return s.containsKey(c);
    }

    private static void count(Map<ClassInfo, Integer> counts, List<ClassInfo> of, int by) {
        for (ClassInfo t : of) counts.merge(t, by, (a, b) -> a + b == 0 ? null : a + b);
    }

    /**
     * The classes a module class makes submodules: those its attributes hold, and those its methods
     * build. Kept on the class, so a next project reuses it.
     */
    private List<ClassInfo> submoduleEvidence(ClassInfo k) {
        List<ClassInfo> e = k.submoduleEvidence;
        if (e != null) return e;
        java.util.Set<ClassInfo> found = new java.util.LinkedHashSet<>(held(k));
        java.util.Set<String> classNames = classNames();
        java.util.Set<String> importedNames = k.module().derived(IMPORTED_NAMES);
        for (Stmt.FunctionDef f : k.ownMethods().values()) {
            for (Expr.Call call : namedCalls(f)) {
                if (mayNameClass(call.func(), classNames, importedNames)) {
                    ClassInfo built = resolveClass(k.module(), call.func());
                    if (built == null || built == k) continue;
                    dependsOn(k, built); // consulted even when not a module: an edit may make it one
                    if (built.isModule) found.add(built);
                }
            }
        }
        e = List.copyOf(found);
        for (ClassInfo t : e) dependsOn(k, t);
        k.submoduleEvidence = e;
        return e;
    }

    /**
     * The calls of a method whose called expression is a name or an attribute (what may name a
     * class), by method node. Kept for the methods of this project's new classes and read by the
     * next project: a class rebuilt because its file changed mostly keeps its method nodes (an
     * edit elsewhere in the file), and walking every method of a 540-class file was most of what
     * rebuilding its classes cost.
     */
    private final Map<Stmt.FunctionDef, List<Expr.Call>> namedCalls = java.util.Collections.synchronizedMap(new IdentityHashMap<>());
    private Map<Stmt.FunctionDef, List<Expr.Call>> previousNamedCalls = Map.of(); // set by the constructor, then read only
    /** Only a project built from another keeps them: the first one would hold every method of the workspace. */
    private boolean keepsNamedCalls;

    private List<Expr.Call> namedCalls(Stmt.FunctionDef f) {
        List<Expr.Call> known = previousNamedCalls.get(f);
        if (known == null) known = namedCalls.get(f);
        if (known == null) {
            List<Expr.Call> out = new ArrayList<>();
            for (Stmt st : Statements.of(f.body())) {
                Statements.expressions(st, ex -> {
                    if (ex instanceof Expr.Call call && (call.func() instanceof Expr.Attribute || call.func() instanceof Expr.Name)) {
                        out.add(call);
                    }
                });
            }
            known = List.copyOf(out);
        }
        if (keepsNamedCalls) namedCalls.put(f, known);
        return known;
    }

    /**
     * The simple names of the project's classes, or more (a next project adds the names of its new
     * classes to the previous set and never removes one): a filter before resolving a call.
     */
    private volatile java.util.Set<String> classNames;

    private java.util.Set<String> classNames() {
        java.util.Set<String> s = classNames;
        if (s == null) {
            java.util.Set<String> out = new java.util.HashSet<>();
            for (ClassInfo k : classList()) out.add(k.name());
            classNames = s = out;
        }
        return s;
    }

    /** The names a module binds by importing (any scope): an import may bind a class under another name. */
    private static final SourceModule.Derived<java.util.Set<String>> IMPORTED_NAMES = new SourceModule.Derived<>(
            "names bound by imports", m -> {
                java.util.Set<String> out = new java.util.HashSet<>();
                for (dev.graphmend.ir.symbols.Imports.Import i : m.names().imports().all()) out.add(i.localName());
                return java.util.Set.copyOf(out);
            });

    /**
     * Whether a called expression can name a project class: a class is reached by its own name
     * ({@code Layer}, {@code mod.Layer}) or by a name an import binds ({@code from .m import Layer as L}).
     * Resolving every call of a class's methods was most of what inferring its submodules cost.
     */
    private static boolean mayNameClass(Expr func, java.util.Set<String> classNames, java.util.Set<String> importedNames) {
        if (func instanceof Expr.Attribute a) return classNames.contains(a.attr());
        if (func instanceof Expr.Name n) return classNames.contains(n.id()) || importedNames.contains(n.id());
        return false;
    }

    /** For each class, the module classes that hold an instance of it as an attribute; built like {@link #submoduleCounts}. */
    private volatile IdentityHashMap<ClassInfo, List<ClassInfo>> containers;

    /** The project modules that hold an instance of {@code c} as an attribute (its parents), in no particular order. */
    public List<ClassInfo> containers(ClassInfo c) {
        Map<ClassInfo, List<ClassInfo>> index = containers;
        if (index == null) {
            IdentityHashMap<ClassInfo, List<ClassInfo>> built = new IdentityHashMap<>();
            for (ClassInfo k : classList()) if (k.isModule) addHeld(built, k);
            containers = built;
            index = built;
        }
        return index.getOrDefault(c, List.of());
    }

    /** The classes a module class holds as attributes (itself excluded). */
    private List<ClassInfo> held(ClassInfo k) {
        List<ClassInfo> out = new ArrayList<>();
        for (Val v : attributes(k).values()) {
            if (v.kind() == ValueKind.MODULE && v.cls() != null && v.cls() != k && !out.contains(v.cls())) out.add(v.cls());
        }
        return out;
    }

    private void addHeld(Map<ClassInfo, List<ClassInfo>> index, ClassInfo k) {
        for (ClassInfo t : held(k)) {
            List<ClassInfo> l = index.get(t);
            List<ClassInfo> grown = new ArrayList<>(l == null ? List.of() : l); // lists are shared with the previous project's index
            grown.add(k);
            index.put(t, grown);
        }
    }

    /**
     * The previous project's submodule counts and container index carried to this one: what the
     * replaced classes (stale or carried) contributed taken out, what the new and carried ones
     * contribute put in (a new class's facts are inferred now, as the first question would have; a
     * carried one's were copied). Only when the previous project had built them.
     */
    private void carryClassIndexes(Project previous, java.util.Set<ClassInfo> replaced, List<ClassInfo> freshOnly,
                                   List<ClassInfo> carriedNow) {
        List<ClassInfo> fresh = freshOnly;
        if (!carriedNow.isEmpty()) {
            fresh = new ArrayList<>(freshOnly);
            fresh.addAll(carriedNow); // facts copied: what they contribute is not inferred again
        }
        java.util.Set<String> names = previous.classNames;
        if (names != null) {
            boolean grew = false;
            for (ClassInfo k : fresh) grew |= !names.contains(k.name());
            if (grew) {
                names = new java.util.HashSet<>(names);
                for (ClassInfo k : fresh) names.add(k.name());
            }
            classNames = names;
        }
        IdentityHashMap<ClassInfo, Integer> counts = previous.submoduleCounts;
        IdentityHashMap<ClassInfo, List<ClassInfo>> index = previous.containers;
        if (counts != null) {
            @SuppressWarnings("unchecked") // a copy of the table, not a put per entry
            IdentityHashMap<ClassInfo, Integer> c = (IdentityHashMap<ClassInfo, Integer>) counts.clone();
            boolean ok = true;
            for (ClassInfo k : replaced) {
                if (!k.isModule) continue;
                List<ClassInfo> e = k.submoduleEvidence;
                if (e == null) {
                    ok = false;
                    break;
                }
                count(c, e, -1);
            }
            for (ClassInfo k : replaced) c.remove(k);
            if (ok) {
                for (ClassInfo k : fresh) if (k.isModule) count(c, submoduleEvidence(k), 1);
                submoduleCounts = c;
            }
        }
        if (index != null) {
            @SuppressWarnings("unchecked")
            IdentityHashMap<ClassInfo, List<ClassInfo>> x = (IdentityHashMap<ClassInfo, List<ClassInfo>>) index.clone();
            for (ClassInfo k : replaced) {
                x.remove(k);
                if (!k.isModule || k.attributes == null) continue;
                for (ClassInfo t : previous.held(k)) {
                    List<ClassInfo> l = x.get(t);
                    if (l == null) continue;
                    List<ClassInfo> shrunk = new ArrayList<>(l);
                    shrunk.remove(k);
                    if (shrunk.isEmpty()) x.remove(t);
                    else x.put(t, shrunk);
                }
            }
            for (ClassInfo k : fresh) if (k.isModule) addHeld(x, k);
            containers = x;
        }
    }

    private final Map<Node, Boolean> bodyBreaks = java.util.Collections.synchronizedMap(new IdentityHashMap<>());
    private final ThreadLocal<java.util.Set<Node>> decidingBreaks =
            ThreadLocal.withInitial(() -> java.util.Collections.newSetFromMap(new IdentityHashMap<>()));

    /** Whether a function's body breaks on every path ({@link GraphInputs}), decided once per function. */
    boolean bodyBreaks(Node function, java.util.function.BooleanSupplier decide) {
        Boolean known = bodyBreaks.get(function);
        if (known != null) return known;
        if (!decidingBreaks.get().add(function)) return false; // a recursive call while deciding: not a break
        try {
            boolean b = decide.getAsBoolean();
            bodyBreaks.putIfAbsent(function, b);
            return bodyBreaks.get(function);
        } finally {
            decidingBreaks.get().remove(function);
        }
    }

    /** Def-use chains of a function, built once per function node. */
    DefUse defUse(SourceModule m, Node function) {
        // the UniIR keeps chains with their graphs across versions: untouched functions keep theirs
        return m.ir().defUse(function);
    }

    // ---- resolution of names to the project's definitions ----

    /**
     * The single def/class statement a symbol binds, or null (several bindings, or not a
     * definition). {@code f = torch.compile(f)} does not count as another binding: the name still
     * runs the def, compiled (docs/compile-regions.md).
     */
    private static Stmt definitionOf(SourceModule m, Symbol s) {
        if (s == null) return null;
        Stmt found = null;
        boolean compiled = false;
        for (Binding b : m.symbols().bindingsOf(s)) {
            if (!b.bindsValue()) continue;
            if (b.kind() == Binding.Kind.FUNCTION_DEFINITION || b.kind() == Binding.Kind.CLASS_DEFINITION) {
                found = (Stmt) b.construct(); // a later definition wins, as at run time
            } else if (compilesItself(m, b)) {
                compiled = true;
            } else if (b.kind() != Binding.Kind.IMPORT) {
                return null;
            }
        }
        return compiled && !(found instanceof Stmt.FunctionDef) ? null : found; // a compiled class is no class
    }

    /** {@code f = torch.compile(f, ...)}: the binding rebinds a name to its own value, compiled. */
    private static boolean compilesItself(SourceModule m, Binding b) {
        return b.kind() == Binding.Kind.ASSIGNMENT && b.construct() instanceof Stmt.Assign a && a.targets().size() == 1
                && a.targets().get(0) == b.node() && b.node() instanceof Expr.Name n
                && a.value() instanceof Expr.Call c && !c.args().isEmpty()
                && c.args().get(0) instanceof Expr.Name arg && arg.id().equals(n.id())
                && TorchApi.isCompile(m.names().qualifiedName(c.func()));
    }

    /** What a (module-level or imported) expression names among the project's definitions. */
    private Stmt resolveDefinition(SourceModule m, Expr e) {
        Target t = m.names().resolve(e);
        Workspace.Definition d = null;
        if (t instanceof Target.ModuleMember mm && mm.symbol() != null) {
            int dot = mm.path().indexOf('.');
            d = new Workspace.Definition(workspace.module(m.moduleName()), mm.symbol(),
                    dot < 0 ? "" : mm.path().substring(dot + 1));
            SourceModule owner = m;
            return follow(owner, d.symbol(), d.rest());
        }
        if (t instanceof Target.Imported) d = workspace.definition(t.qualifiedName());
        if (d == null || d.symbol() == null) return null;
        SourceModule owner = byName.get(d.module().name());
        return owner == null ? null : follow(owner, d.symbol(), d.rest());
    }

    private Stmt follow(SourceModule owner, Symbol s, String rest) {
        Stmt def = definitionOf(owner, s);
        if (def == null || rest.isEmpty()) return def;
        if (def instanceof Stmt.ClassDef c && rest.indexOf('.') < 0) {
            ClassInfo ci = classes.get(c);
            FunctionRef f = ci == null ? null : ci.method(rest);
            return f == null ? null : f.def();
        }
        return null;
    }

    public ClassInfo resolveClass(SourceModule m, Expr e) {
        Stmt def = resolveDefinition(m, e);
        return def instanceof Stmt.ClassDef c ? classes.get(c) : null;
    }

    /** A function the expression names: a module-level function here or in another project file, or {@code Class.method}. */
    public FunctionRef resolveFunction(SourceModule m, Expr e) {
        Stmt def = resolveDefinition(m, e);
        if (!(def instanceof Stmt.FunctionDef f)) return null;
        return refOf(f);
    }

    /** The project function of a definition node (its module and class), or null when the project does not hold it. */
    public FunctionRef functionOf(Stmt.FunctionDef f) {
        return refOf(f);
    }

    /** The FunctionRef of a definition node, finding its module and owning class. */
    FunctionRef refOf(Stmt.FunctionDef f) {
        Map<Stmt.FunctionDef, FunctionRef> own = functionRefs;
        if (own == null) functionRefs = own = indexFunctions(); // a race builds the same index twice: harmless
        FunctionRef r = own.get(f);
        if (r != null || baseFunctionRefs == null) return r;
        // the index of the project this one was built from: valid for a kept module and a kept owner
        r = baseFunctionRefs.get(f);
        if (r == null || byName.get(r.module().moduleName()) != r.module()) return null;
        return r.owner() == null || classes.get(r.owner().def()) == r.owner() ? r : null;
    }

    /**
     * Every function definition of the project, found once: asking each class and then each
     * module at every resolved call made a large project's analysis quadratic. A project built from
     * another ({@link #next}) shares that one's index ({@code baseFunctionRefs}) and indexes only
     * what it does not hold: the changed modules and the classes built again.
     */
    private volatile Map<Stmt.FunctionDef, FunctionRef> functionRefs;
    private Map<Stmt.FunctionDef, FunctionRef> baseFunctionRefs; // set by the constructor, then read only
    private List<ClassInfo> freshClasses = List.of(); // likewise
    private java.util.Set<SourceModule> newModules = java.util.Set.of(); // likewise

    private Map<Stmt.FunctionDef, FunctionRef> indexFunctions() {
        Map<Stmt.FunctionDef, FunctionRef> out = new IdentityHashMap<>();
        if (baseFunctionRefs != null) {
            for (ClassInfo c : freshClasses) {
                for (Stmt.FunctionDef f : c.ownMethods().values()) out.putIfAbsent(f, new FunctionRef(c.module(), f, c));
            }
            for (SourceModule m : newModules) {
                for (Stmt.FunctionDef f : m.functionDefinitions()) out.putIfAbsent(f, new FunctionRef(m, f, null));
            }
            return out;
        }
        for (ClassInfo c : classList()) {
            for (Stmt.FunctionDef f : c.ownMethods().values()) out.putIfAbsent(f, new FunctionRef(c.module(), f, c));
        }
        for (SourceModule m : modules) {
            for (Stmt.FunctionDef f : m.functionDefinitions()) out.putIfAbsent(f, new FunctionRef(m, f, null));
        }
        return out;
    }

    // ---- attributes of classes ----

    /** A type alias's module and assigned value ({@code OptTensor = Optional[Tensor]}). */
    public record TypeAlias(SourceModule module, Expr value) {}

    /**
     * The type alias an annotation names: a module-level name of a project module assigned once, to
     * a subscript ({@code Optional[Tensor]}, {@code Union[Tensor, SparseTensor]}) or a name; null
     * when it names anything else.
     */
    public TypeAlias typeAlias(SourceModule from, Expr annotation) {
        if (!(annotation instanceof Expr.Name) && !(annotation instanceof Expr.Attribute)) return null;
        String qn = from.names().qualifiedName(annotation);
        int dot = qn == null ? -1 : qn.lastIndexOf('.');
        if (dot <= 0) return null;
        SourceModule m = byName.get(qn.substring(0, dot));
        if (m == null) return null;
        List<Expr> values = m.moduleAssignments(qn.substring(dot + 1));
        if (values.size() != 1 || !(values.get(0) instanceof Expr.Subscript || values.get(0) instanceof Expr.Name
                || values.get(0) instanceof Expr.Attribute)) {
            return null;
        }
        return new TypeAlias(m, values.get(0));
    }

    /** The abstract value of {@code self.attr} for an instance of {@code c}; UNKNOWN when not assigned anywhere. */
    public Val attribute(ClassInfo c, String attr) {
        if (attr.equals("training")) return Val.STATIC;
        ClassInfo child = null;
        for (ClassInfo k = c; k != null; ) {
            Val v = attributes(k).get(attr);
            if (v != null) {
                if (v.cls() == null && child != null) {
                    ClassInfo bound = moduleBoundBySubclass(child, k, attr);
                    if (bound != null) return Val.module(bound);
                }
                return v;
            }
            child = k;
            k = k.bases.isEmpty() ? null : k.bases.get(0);
        }
        return Val.UNKNOWN;
    }

    /**
     * {@code self.rpn = rpn} in a base's {@code __init__}, and the subclass passing
     * {@code super().__init__(backbone, rpn, ...)} with {@code rpn = RegionProposalNetwork(...)}
     * (torchvision's detection models): the module class the subclass binds to that parameter, or
     * null when it does not build one.
     */
    private ClassInfo moduleBoundBySubclass(ClassInfo child, ClassInfo base, String attr) {
        Stmt.FunctionDef init = base.ownMethods().get("__init__");
        Stmt.FunctionDef childInit = child.ownMethods().get("__init__");
        List<Expr> assigned = rawSelfAssignedValues(base, attr);
        if (init == null || childInit == null || assigned.isEmpty()
                || !(assigned.get(assigned.size() - 1) instanceof Expr.Name p)) {
            return null;
        }
        List<dev.graphmend.ir.ast.Arg> params = init.args().args();
        int index = -1;
        for (int i = 1; i < params.size(); i++) if (params.get(i).arg().equals(p.id())) index = i - 1;
        boolean keywordOnly = init.args().kwonlyargs().stream().anyMatch(a -> a.arg().equals(p.id()));
        if (index < 0 && !keywordOnly) return null;
        for (Stmt st : Statements.of(childInit.body())) {
            if (!(st instanceof Stmt.Expr ex && ex.value() instanceof Expr.Call call
                    && call.func() instanceof Expr.Attribute f && f.attr().equals("__init__"))) {
                continue;
            }
            List<Expr> args = call.args();
            if (f.value() instanceof Expr.Call sup && sup.func() instanceof Expr.Name sn && sn.id().equals("super")) {
                // super().__init__(...): arguments as written
            } else if (resolveClass(child.module(), f.value()) == base && !args.isEmpty()) {
                args = args.subList(1, args.size()); // Base.__init__(self, ...)
            } else {
                continue;
            }
            Expr arg = keyword(call, p.id());
            if (arg == null && index >= 0 && index < args.size()
                    && args.subList(0, index + 1).stream().noneMatch(a -> a instanceof Expr.Starred)) {
                arg = args.get(index);
            }
            if (arg == null) return null;
            for (Expr v : arg instanceof Expr.Name n ? localModuleDefaults(child, childInit, n.id()) : List.of(arg)) {
                ClassInfo k = v instanceof Expr.Call built ? resolveClass(child.module(), built.func()) : null;
                if (k != null && k.isModule) {
                    dependsOn(child, k);
                    return k;
                }
            }
            return null;
        }
        return null;
    }

    /**
     * What a local of {@code __init__} holds when the method builds a module into it:
     * {@code if head is None: head = Head(...)}, then {@code self.head = head} (a submodule injected
     * through the constructor, or the default the class builds, which is the one the analysis can
     * follow). Empty when no assignment to the name builds a project module.
     */
    private List<Expr> localModuleDefaults(ClassInfo k, Stmt.FunctionDef f, String name) {
        List<Expr> out = new ArrayList<>();
        for (Stmt s : Statements.of(f.body())) {
            if (!(s instanceof Stmt.Assign as) || as.targets().size() != 1
                    || !(as.targets().get(0) instanceof Expr.Name n && n.id().equals(name))) {
                continue;
            }
            Expr v = as.value();
            if (v instanceof Expr.BoolOp b && b.values().size() == 2) v = b.values().get(1); // head = head or Head()
            if (v instanceof Expr.Call call) {
                ClassInfo built = resolveClass(k.module(), call.func());
                if (built != null && built.isModule) out.add(call);
            }
        }
        return out;
    }

    private Map<String, Val> attributes(ClassInfo c) {
        Map<String, Val> a = c.attributes;
        if (a != null) return a;
        Map<String, Val> m = new LinkedHashMap<>();
        for (Stmt s : c.def().body()) {
            if (s instanceof Stmt.Assign as) {
                for (Expr t : as.targets()) if (t instanceof Expr.Name n) merge(m, n.id(), valueOf(c, as.value()));
            } else if (s instanceof Stmt.AnnAssign an && an.target() instanceof Expr.Name n) {
                merge(m, n.id(), an.value() == null ? Val.UNKNOWN : valueOf(c, an.value()));
            }
        }
        for (Stmt.FunctionDef f : c.ownMethods().values()) {
            String self = f.args().args().isEmpty() ? null : f.args().args().get(0).arg();
            if (self == null) continue;
            for (Stmt s : Statements.of(f.body())) scanSelfAssignments(c, f, self, s, m);
        }
        // `self.layers = nn.ModuleList()` filled by `self.layers.append(Layer(...))`: one class, its value
        for (var e : m.entrySet()) {
            if (e.getValue().kind() == ValueKind.MODULE && e.getValue().cls() == null) {
                List<ClassInfo> held = containerElementClasses(c, e.getKey());
                if (held.size() == 1) e.setValue(Val.module(held.get(0)));
            }
        }
        for (Val v : m.values()) dependsOn(c, v.cls());
        c.attributes = m;
        return m;
    }

    /** Methods that return their receiver's kind: {@code self.a = self.a.to(dtype)} keeps what {@code a} is. */
    private static final java.util.Set<String> MOVES = java.util.Set.of("to", "cuda", "cpu", "half", "float", "double",
            "bfloat16", "type", "contiguous");

    private static boolean movesItself(String self, String attr, Expr value) {
        // arithmetic on itself (`self.x_min = self.x_min * m + x_min * (1 - m)`, I-BERT's running
        // statistics): a tensor stays a tensor and a number a number, so it adds nothing
        if (value instanceof Expr.BinOp b) return movesItself(self, attr, b.left()) || movesItself(self, attr, b.right());
        if (value instanceof Expr.Attribute a) return a.attr().equals(attr) && a.value() instanceof Expr.Name n && n.id().equals(self);
        return value instanceof Expr.Call call && call.func() instanceof Expr.Attribute m && MOVES.contains(m.attr())
                && m.value() instanceof Expr.Attribute a && a.attr().equals(attr)
                && a.value() instanceof Expr.Name n && n.id().equals(self);
    }

    private void scanSelfAssignments(ClassInfo c, Stmt.FunctionDef method, String self, Stmt s, Map<String, Val> m) {
        if (s instanceof Stmt.Assign as) {
            for (Expr t : as.targets()) {
                if (t instanceof Expr.Attribute at && at.value() instanceof Expr.Name n && n.id().equals(self)
                        && !movesItself(self, at.attr(), as.value())) {
                    for (Expr v : builtValues(c, method, self, as.value())) merge(m, at.attr(), valueOf(c, v));
                }
            }
        } else if (s instanceof Stmt.AnnAssign an && an.value() != null && an.target() instanceof Expr.Attribute at
                && at.value() instanceof Expr.Name n && n.id().equals(self)) {
            merge(m, at.attr(), valueOf(c, an.value()));
        } else if (s instanceof Stmt.Expr ex && ex.value() instanceof Expr.Call call
                && call.func() instanceof Expr.Attribute f && f.value() instanceof Expr.Name n && n.id().equals(self)
                && (f.attr().equals("register_buffer") || f.attr().equals("register_parameter"))
                && !call.args().isEmpty() && call.args().get(0) instanceof Expr.Constant k && k.value() instanceof String name) {
            merge(m, name, Val.TENSOR.asInput()); // a registered buffer or parameter is an input of every graph
        }
    }

    /**
     * The project module classes {@code self.attr} may hold when the class assigns it more than
     * one ({@code self.encoder = StableEncoder(config) if … else Encoder(config)}, or the same in an
     * if/else): every one of them, so the call graph reaches each forward.
     */
    public List<ClassInfo> attributeModuleClasses(ClassInfo c, String attr) {
        List<ClassInfo> out = new ArrayList<>();
        for (ClassInfo k = c; k != null && out.isEmpty(); k = k.bases.isEmpty() ? null : k.bases.get(0)) {
            for (Expr value : selfAssignedValues(k, attr)) {
                List<Expr> values = value instanceof Expr.IfExp i ? List.of(i.body(), i.orelse()) : List.of(value);
                for (Expr v : values) {
                    ClassInfo built = v instanceof Expr.Call call ? resolveClass(k.module(), call.func()) : null;
                    if (built != null && built.isModule && !out.contains(built)) out.add(built);
                }
            }
        }
        if (out.isEmpty()) {
            ClassInfo bound = attribute(c, attr).cls(); // a base's `self.rpn = rpn` the subclass binds
            if (bound != null && bound.isModule) out.add(bound);
        }
        if (out.isEmpty()) {
            // a method of the base itself (GeneralizedRCNN.forward, compiled for FasterRCNN and
            // MaskRCNN): whatever each project subclass binds
            for (SubclassOf pair : bindingSubclasses(c, attr)) {
                ClassInfo k = moduleBoundBySubclass(pair.child(), pair.base(), attr);
                if (k != null && !out.contains(k)) out.add(k);
            }
        }
        return out;
    }

    /** A project class and the base it names first. */
    public record SubclassOf(ClassInfo child, ClassInfo base) {}

    /**
     * For a class (or base) whose {@code __init__} stores a parameter as {@code self.attr}: each
     * project subclass directly below that base. Empty otherwise.
     */
    public List<SubclassOf> bindingSubclasses(ClassInfo c, String attr) {
        for (ClassInfo k = c; k != null; k = k.bases.isEmpty() ? null : k.bases.get(0)) {
            List<Expr> raw = rawSelfAssignedValues(k, attr);
            if (raw.isEmpty()) continue;
            if (!(raw.get(raw.size() - 1) instanceof Expr.Name)) return List.of();
            List<SubclassOf> out = new ArrayList<>();
            for (ClassInfo child : directSubclasses(k)) out.add(new SubclassOf(child, k));
            return out;
        }
        return List.of();
    }

    /** For each class, the project classes that name it as their first base; built once per project. */
    private volatile IdentityHashMap<ClassInfo, List<ClassInfo>> directSubclasses;

    private List<ClassInfo> directSubclasses(ClassInfo c) {
        IdentityHashMap<ClassInfo, List<ClassInfo>> index = directSubclasses;
        if (index == null) {
            IdentityHashMap<ClassInfo, List<ClassInfo>> built = new IdentityHashMap<>();
            for (ClassInfo k : classList()) {
                if (!k.bases.isEmpty()) built.computeIfAbsent(k.bases.get(0), x -> new ArrayList<>()).add(k);
            }
            directSubclasses = index = built;
        }
        return index.getOrDefault(c, List.of());
    }

    private static final java.util.Set<String> CONTAINERS = java.util.Set.of("torch.nn.ModuleList", "torch.nn.Sequential",
            "torch.nn.ModuleDict");

    /**
     * The project module classes a container attribute ({@code self.layers = nn.ModuleList(...)})
     * holds, from the constructor's arguments and from {@code self.layers.append(Layer(...))},
     * {@code extend([...])} and {@code insert(i, ...)} in the methods of {@code c} or a project base
     * (Switch Transformers' blocks, VITS' flows): every class, in order of appearance. Empty when
     * the attribute is not such a container.
     */
    public List<ClassInfo> containerElementClasses(ClassInfo c, String attr) {
        List<ClassInfo> out = new ArrayList<>();
        boolean container = false;
        for (ClassInfo k = c; k != null; k = k.bases.isEmpty() ? null : k.bases.get(0)) {
            for (Expr value : selfAssignedValues(k, attr)) {
                String qn = value instanceof Expr.Call call ? k.module().names().qualifiedName(call.func()) : null;
                if (qn != null && CONTAINERS.contains(qn)) {
                    Expr.Call call = (Expr.Call) value;
                    container = true;
                    moduleClassesIn(c, k.module(), call.args(), out);
                }
            }
            for (Stmt.FunctionDef f : k.ownMethods().values()) {
                String self = f.args().args().isEmpty() ? null : f.args().args().get(0).arg();
                for (Stmt st : Statements.of(f.body())) {
                    if (st instanceof Stmt.Expr ex && ex.value() instanceof Expr.Call call
                            && call.func() instanceof Expr.Attribute m && m.value() instanceof Expr.Attribute target
                            && target.attr().equals(attr) && target.value() instanceof Expr.Name n && n.id().equals(self)) {
                        switch (m.attr()) {
                            case "append": case "extend": moduleClassesIn(c, k.module(), call.args(), out); break;
                            case "insert": if (call.args().size() == 2) moduleClassesIn(c, k.module(), call.args().subList(1, 2), out); break;
                            default: break;
                        }
                    }
                }
            }
        }
        return container ? out : List.of();
    }

    /** The module classes the arguments build, each class resolved registered as consulted by {@code dependent}. */
    private void moduleClassesIn(ClassInfo dependent, SourceModule m, List<Expr> args, List<ClassInfo> out) {
        List<Expr> todo = new ArrayList<>(args);
        while (!todo.isEmpty()) {
            Expr a = todo.remove(0);
            if (a instanceof Expr.ListComp lc) todo.add(lc.elt());
            else if (a instanceof Expr.GeneratorExp g) todo.add(g.elt());
            else if (a instanceof Expr.List l) todo.addAll(l.elts());
            else if (a instanceof Expr.Tuple t) todo.addAll(t.elts());
            else if (a instanceof Expr.Starred st) todo.add(st.value());
            else if (a instanceof Expr.IfExp i) { todo.add(i.body()); todo.add(i.orelse()); }
            else if (a instanceof Expr.Call c) {
                ClassInfo k = resolveClass(m, c.func());
                dependsOn(dependent, k);
                if (k != null && k.isModule && !out.contains(k)) out.add(k);
            }
        }
    }

    /** Whether {@code self.attr} is assigned an {@code nn.Buffer(...)} in a method of {@code c} or a project base. */
    public boolean isBufferAttribute(ClassInfo c, String attr) {
        for (ClassInfo k = c; k != null; k = k.bases.isEmpty() ? null : k.bases.get(0)) {
            for (Expr value : selfAssignedValues(k, attr)) {
                String qn = value instanceof Expr.Call call ? k.module().names().qualifiedName(call.func()) : null;
                if ("torch.nn.Buffer".equals(qn) || "torch.nn.parameter.Buffer".equals(qn)) return true;
            }
        }
        return false;
    }

    /**
     * The values {@code self.attr = value} assigns in the methods of {@code k} itself (not its
     * bases); a local that the method builds a module into stands for that module's construction.
     */
    private List<Expr> selfAssignedValues(ClassInfo k, String attr) {
        return selfAssignedValues(k, attr, true);
    }

    /** The values as written: {@code self.rpn = rpn} gives the name {@code rpn}. */
    private List<Expr> rawSelfAssignedValues(ClassInfo k, String attr) {
        return selfAssignedValues(k, attr, false);
    }

    private List<Expr> selfAssignedValues(ClassInfo k, String attr, boolean followLocals) {
        List<Expr> out = new ArrayList<>();
        for (SelfAssignment a : selfAssignments(k).getOrDefault(attr, List.of())) {
            if (followLocals) out.addAll(builtValues(k, a.method(), a.self(), a.value()));
            else out.add(a.value());
        }
        return out;
    }

    /** What {@code self.attr = value} assigns: the modules a local is built into ({@link #localModuleDefaults}), or the value. */
    private List<Expr> builtValues(ClassInfo k, Stmt.FunctionDef method, String self, Expr value) {
        List<Expr> built = value instanceof Expr.Name local && !local.id().equals(self)
                ? localModuleDefaults(k, method, local.id()) : List.of();
        return built.isEmpty() ? List.of(value) : built;
    }

    /** One {@code self.attr = value} statement: the value, the method it is in, and that method's self name. */
    record SelfAssignment(Expr value, Stmt.FunctionDef method, String self) {}

    /** The class's own {@code self.attr = value} statements by attribute, in source order (kept on the class). */
    private static Map<String, List<SelfAssignment>> selfAssignments(ClassInfo k) {
        Map<String, List<SelfAssignment>> m = k.selfAssignments;
        if (m != null) return m;
        m = new java.util.HashMap<>();
        for (Stmt.FunctionDef f : k.ownMethods().values()) {
            String self = f.args().args().isEmpty() ? null : f.args().args().get(0).arg();
            for (Stmt s : Statements.of(f.body())) {
                if (!(s instanceof Stmt.Assign as)) continue;
                for (Expr t : as.targets()) {
                    if (t instanceof Expr.Attribute at && at.value() instanceof Expr.Name n && n.id().equals(self)) {
                        m.computeIfAbsent(at.attr(), x -> new ArrayList<>()).add(new SelfAssignment(as.value(), f, self));
                    }
                }
            }
        }
        k.selfAssignments = m;
        return m;
    }

    /**
     * Every value the nearest class of {@code c}'s chain that assigns {@code self.attr} assigns it,
     * but {@code None} ({@code self.lstm = LSTM(...)} in one branch, {@code None} in the other).
     */
    public List<Expr> attributeValuesButNone(ClassInfo c, String attr) {
        for (ClassInfo k = c; k != null; k = k.bases.isEmpty() ? null : k.bases.get(0)) {
            List<Expr> assigned = selfAssignedValues(k, attr);
            if (assigned.isEmpty()) continue;
            List<Expr> out = new ArrayList<>();
            for (Expr v : assigned) if (!Val.isNone(v)) out.add(v);
            return out;
        }
        return List.of();
    }

    /** The expression last assigned to {@code self.attr} (or the class-body name) in {@code c} or a base; null if none. */
    public Expr attributeExpr(ClassInfo c, String attr) {
        for (ClassInfo k = c; k != null; k = k.bases.isEmpty() ? null : k.bases.get(0)) {
            Expr found = null;
            for (Stmt s : k.def().body()) {
                if (s instanceof Stmt.Assign as) {
                    for (Expr t : as.targets()) if (t instanceof Expr.Name n && n.id().equals(attr)) found = as.value();
                }
            }
            List<Expr> assigned = selfAssignedValues(k, attr);
            if (!assigned.isEmpty()) found = assigned.get(assigned.size() - 1);
            if (found != null) return found;
        }
        return null;
    }

    private static void merge(Map<String, Val> m, String name, Val v) {
        m.merge(name, v, Val::join);
    }

    /** A context-free value of an attribute's assigned expression (in __init__ or the class body). */
    private Val valueOf(ClassInfo c, Expr e) {
        if (e instanceof Expr.Constant k) return Val.ofConstant(k);
        // `Bias(config) if config.use_bias else None`: a submodule when it is one at all
        if (e instanceof Expr.IfExp i) {
            // `head if head is not None else Head()`: a submodule injected through the constructor, or
            // the default the class builds; the default's class is the one the analysis can follow
            Val body = valueOf(c, i.body()), orelse = valueOf(c, i.orelse());
            if (i.body() instanceof Expr.Name && body.kind() == ValueKind.UNKNOWN && orelse.cls() != null) return orelse;
            if (i.orelse() instanceof Expr.Name && orelse.kind() == ValueKind.UNKNOWN && body.cls() != null) return body;
            return body.join(orelse);
        }
        if (e instanceof Expr.BoolOp b && b.op() == dev.graphmend.ir.ast.BoolOperator.Or && b.values().size() == 2
                && b.values().get(0) instanceof Expr.Name) {
            Val dflt = valueOf(c, b.values().get(1)); // `head or Head()`
            if (dflt.cls() != null) return dflt;
        }
        if (e instanceof Expr.Call call) {
            String qn = c.module().names().qualifiedName(call.func());
            if (qn != null && (qn.equals("torch.nn.ModuleList") || qn.equals("torch.nn.Sequential")
                    || qn.equals("torch.nn.ModuleDict"))) {
                ClassInfo element = elementClass(c, call);
                return Val.module(element);
            }
            ValueKind k = TorchApi.torchCallKind(qn);
            if (k == ValueKind.MODULE) return Val.MODULE;
            if (k != null && k.isTensor()) return Val.TENSOR;
            ClassInfo target = resolveClass(c.module(), call.func());
            if (target != null) return target.isModule ? Val.module(target) : Val.object(target);
            return Val.UNKNOWN;
        }
        return Val.UNKNOWN;
    }

    /** For {@code nn.ModuleList([Layer(...) for ...])} and {@code nn.Sequential(A(), B())}: the element class when there is one. */
    private ClassInfo elementClass(ClassInfo c, Expr.Call call) {
        List<ClassInfo> held = new ArrayList<>();
        moduleClassesIn(c, c.module(), call.args(), held);
        return held.size() == 1 ? held.get(0) : null; // heterogeneous: no single forward
    }

    /** Keyword argument by name, or null. */
    static Expr keyword(Expr.Call call, String name) {
        for (Keyword k : call.keywords()) if (name.equals(k.arg())) return k.value();
        return null;
    }
}
