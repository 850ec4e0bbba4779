package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.document.UniIR;
import dev.graphmend.ir.symbols.QualifiedNames;
import dev.graphmend.ir.symbols.SymbolTable;
import java.util.ArrayList;
import java.util.List;

/**
 * One Python file of the analysed project: its path as shown to the user, its dotted module
 * name within the workspace, its UniIR, name resolver and suppression comments.
 */
public final class SourceModule {
    private final String path;
    private final String moduleName;
    private final boolean isPackage;
    private final UniIR ir;
    private final QualifiedNames names;
    private volatile Suppressions suppressions;

    public SourceModule(String path, String moduleName, boolean isPackage, UniIR ir) {
        this.path = path;
        this.moduleName = moduleName;
        this.isPackage = isPackage;
        this.ir = ir;
        this.names = QualifiedNames.of(ir.symbols(), moduleName, isPackage);
    }

    public String path() { return path; }
    public String moduleName() { return moduleName; }
    public boolean isPackage() { return isPackage; }
    public UniIR ir() { return ir; }
    public SymbolTable symbols() { return ir.symbols(); }
    public QualifiedNames names() { return names; }

    public Suppressions suppressions() {
        Suppressions s = suppressions;
        if (s == null) suppressions = s = Suppressions.scan(ir.lines());
        return s;
    }

    private volatile java.util.Set<String> declaredGlobal;

    /** Names some function of this module declares {@code global}: it may rebind them, so their module-level value is not a constant. */
    public java.util.Set<String> declaredGlobal() {
        java.util.Set<String> g = declaredGlobal;
        if (g == null) {
            java.util.Set<String> out = new java.util.HashSet<>();
            Statements.everywhere(ir.module(), s -> {
                if (s instanceof Stmt.Global gl) out.addAll(gl.names());
            });
            declaredGlobal = g = out;
        }
        return g;
    }

    private volatile List<Stmt.ClassDef> classes;

    /** Top-level classes, and classes nested in classes (not those inside functions). */
    public List<Stmt.ClassDef> classes() {
        List<Stmt.ClassDef> c = classes;
        if (c == null) {
            List<Stmt.ClassDef> out = new ArrayList<>();
            collectClasses(ir.module().body(), out);
            classes = c = List.copyOf(out);
        }
        return c;
    }

    private static void collectClasses(List<Stmt> body, List<Stmt.ClassDef> out) {
        for (Stmt s : body) {
            if (s instanceof Stmt.ClassDef c) {
                out.add(c);
                collectClasses(c.body(), out);
            } else if (s instanceof Stmt.If i) { // `if TYPE_CHECKING:` / version switches
                collectClasses(i.body(), out);
                collectClasses(i.orelse(), out);
            }
        }
    }

    /**
     * A fact derived from this version of the module alone (its tree and text), which several
     * rules or fixes ask for at every site: computed once per version instead of once per site
     * (a module-wide scan per site made large files quadratic). The key names the fact; keys are
     * constants of the classes that own the facts.
     */
    public record Derived<T>(String name, java.util.function.Function<SourceModule, T> compute) {}

    private final java.util.concurrent.ConcurrentHashMap<Derived<?>, Object> derived = new java.util.concurrent.ConcurrentHashMap<>();

    @SuppressWarnings("unchecked")
    public <T> T derived(Derived<T> key) {
        Object v = derived.get(key);
        if (v == null) {
            // computed outside the map's lock: a fact may ask for another one of the same module
            v = key.compute().apply(this);
            Object before = derived.putIfAbsent(key, v);
            if (before != null) v = before;
        }
        return (T) v;
    }

    private static final Derived<java.util.Map<String, List<dev.graphmend.ir.ast.Expr>>> MODULE_ASSIGNMENTS =
            new Derived<>("module-level assignments by name", SourceModule::collectAssignments);

    /**
     * The values assigned to a module-level name by the module's statements, in order (a null
     * entry: an augmented assignment, or a function that declares the name {@code global}).
     */
    public List<dev.graphmend.ir.ast.Expr> moduleAssignments(String name) {
        List<dev.graphmend.ir.ast.Expr> out = new ArrayList<>();
        if (declaredGlobal().contains(name)) out.add(null); // a function rebinds it: not a constant
        out.addAll(derived(MODULE_ASSIGNMENTS).getOrDefault(name, List.of()));
        return out;
    }

    private static java.util.Map<String, List<dev.graphmend.ir.ast.Expr>> collectAssignments(SourceModule m) {
        java.util.Map<String, List<dev.graphmend.ir.ast.Expr>> out = new java.util.HashMap<>();
        for (Stmt s : Statements.of(m.ir().module().body())) {
            if (s instanceof Stmt.Assign a) {
                for (dev.graphmend.ir.ast.Expr t : a.targets()) {
                    if (t instanceof dev.graphmend.ir.ast.Expr.Name tn) out.computeIfAbsent(tn.id(), k -> new ArrayList<>()).add(a.value());
                }
            } else if (s instanceof Stmt.AugAssign a && a.target() instanceof dev.graphmend.ir.ast.Expr.Name tn) {
                out.computeIfAbsent(tn.id(), k -> new ArrayList<>()).add(null); // not a plain assignment: callers give up on the name
            }
        }
        return out;
    }

    private static final Derived<java.util.Map<String, List<Stmt.Assign>>> TOP_LEVEL_ASSIGNMENTS = new Derived<>(
            "top-level assignments by target name", m -> {
                java.util.Map<String, List<Stmt.Assign>> out = new java.util.HashMap<>();
                for (Stmt s : m.ir().module().body()) {
                    if (!(s instanceof Stmt.Assign a)) continue;
                    for (dev.graphmend.ir.ast.Expr t : a.targets()) {
                        if (t instanceof dev.graphmend.ir.ast.Expr.Name tn) out.computeIfAbsent(tn.id(), k -> new ArrayList<>()).add(a);
                    }
                }
                return out;
            });

    /**
     * The assignment statements directly in the module's body with {@code name} as a whole target,
     * in order (a statement twice when it assigns the name twice, {@code a = a = f()}).
     */
    public List<Stmt.Assign> topLevelAssignments(String name) {
        return derived(TOP_LEVEL_ASSIGNMENTS).getOrDefault(name, List.of());
    }

    private static final Derived<java.util.Map<String, Integer>> NAME_USES = new Derived<>("name nodes by id", m -> {
        java.util.Map<String, Integer> out = new java.util.HashMap<>();
        List<dev.graphmend.ir.ast.Node> todo = new ArrayList<>();
        todo.add(m.ir().module());
        while (!todo.isEmpty()) {
            dev.graphmend.ir.ast.Node n = todo.remove(todo.size() - 1);
            if (n instanceof dev.graphmend.ir.ast.Expr.Name nm) out.merge(nm.id(), 1, Integer::sum);
            n.forEachChild(todo::add);
        }
        return out;
    });

    /** How many {@code Name} nodes of the module, anywhere in it, spell {@code id}. */
    public int nameUses(String id) {
        return derived(NAME_USES).getOrDefault(id, 0);
    }

    @Override
    public String toString() {
        return path;
    }
}
