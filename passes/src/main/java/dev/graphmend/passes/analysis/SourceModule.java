package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.document.UniIR;
import dev.graphmend.ir.symbols.QualifiedNames;
import dev.graphmend.ir.symbols.SymbolTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

    /** The classes {@link #classes} finds in these statements, in its order. */
    static void collectClasses(List<Stmt> body, List<Stmt.ClassDef> out) {
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

    private static final Derived<String> INTERFACE = new Derived<>("top-level bindings and imports", m -> {
        StringBuilder b = new StringBuilder();
        var table = m.ir().symbols();
        for (dev.graphmend.ir.symbols.Symbol sym : table.module().symbols()) {
            b.append(sym.name()).append(sym.isBound() ? "+" : "-").append(sym.isDeclaredGlobal() ? "g" : "")
                    .append(table.bindingsOf(sym).size()).append(';');
        }
        b.append('|');
        for (var imp : m.names().imports().all()) {
            if (imp.scope().kind() == dev.graphmend.ir.symbols.ScopeKind.MODULE) {
                b.append(imp.localName()).append('=').append(imp.qualifiedName()).append(';');
            }
        }
        b.append('|');
        for (var star : m.names().imports().starImports()) b.append(star.module()).append(star.scope().kind()).append(';');
        return b.toString();
    });

    /**
     * What other modules' name resolution can see of this one: its module-level names (bound or
     * not, how many bindings) and its module-level imports. Two versions with the same key resolve
     * every imported name the same way (the nodes they lead to may differ).
     */
    public String interfaceKey() {
        return derived(INTERFACE);
    }

    private static final Derived<List<Stmt.FunctionDef>> FUNCTIONS = new Derived<>("function definitions", m -> {
        List<Stmt.FunctionDef> out = new ArrayList<>();
        Statements.everywhere(m.ir().module(), st -> {
            if (st instanceof Stmt.FunctionDef f) out.add(f);
        });
        return List.copyOf(out);
    });

    /** Every {@code def} of the module, nested ones and methods included, in source order. */
    public List<Stmt.FunctionDef> functionDefinitions() {
        return derived(FUNCTIONS);
    }

    private static final Derived<java.util.Set<String>> IDENTIFIERS = new Derived<>("identifiers in the text",
            m -> words(m.ir().document().text()));

    /** One top-level statement: the names it binds and the words its text spells. */
    public record TopLevelUse(java.util.Set<String> binds, java.util.Set<String> spells) {}

    private static final Derived<List<TopLevelUse>> TOP_LEVEL_USES = new Derived<>("top-level statements' names", m -> {
        List<TopLevelUse> out = new ArrayList<>();
        var lines = m.ir().lines();
        List<Stmt> units = new ArrayList<>();
        flatten(m.ir().module().body(), units);
        for (Stmt st : units) {
            java.util.Set<String> binds = new java.util.HashSet<>();
            bindsOf(st, binds);
            if (binds.isEmpty()) continue;
            StringBuilder text = new StringBuilder();
            int first = st.span().line();
            List<dev.graphmend.ir.ast.Expr> decorators = st instanceof Stmt.FunctionDef f ? f.decoratorList()
                    : st instanceof Stmt.ClassDef c ? c.decoratorList() : List.of();
            for (var d : decorators) if (d.span() != null) first = Math.min(first, d.span().line());
            for (int l = first; l <= st.span().endLine() && l <= lines.lineCount(); l++) text.append(lines.lineText(l)).append('\n');
            out.add(new TopLevelUse(binds, words(text)));
        }
        return List.copyOf(out);
    });

    /** Module-level statements, those inside a module-level if / try / with / for each on its own. */
    private static void flatten(List<Stmt> body, List<Stmt> out) {
        for (Stmt st : body) {
            if (st instanceof Stmt.If i) {
                flatten(i.body(), out);
                flatten(i.orelse(), out);
            } else if (st instanceof Stmt.Try t) {
                flatten(t.body(), out);
                for (var h : t.handlers()) flatten(h.body(), out);
                flatten(t.orelse(), out);
                flatten(t.finalbody(), out);
            } else {
                out.add(st);
            }
        }
    }

    private static void bindsOf(Stmt st, java.util.Set<String> out) {
        if (st instanceof Stmt.FunctionDef f) out.add(f.name());
        else if (st instanceof Stmt.AsyncFunctionDef f) out.add(f.name());
        else if (st instanceof Stmt.ClassDef c) out.add(c.name());
        else if (st instanceof Stmt.Import i) for (var a : i.names()) out.add(a.asname() != null ? a.asname() : a.name().split("\\.")[0]);
        else if (st instanceof Stmt.ImportFrom i) for (var a : i.names()) out.add(a.asname() != null ? a.asname() : a.name());
        else if (st instanceof Stmt.Assign a) for (var t : a.targets()) namesIn(t, out);
        else if (st instanceof Stmt.AnnAssign a) namesIn(a.target(), out);
        else if (st instanceof Stmt.AugAssign a) namesIn(a.target(), out);
        else {
            // if / try / with / for at module level: what their blocks bind
            st.forEachChild(c -> {
                if (c instanceof Stmt inner) bindsOf(inner, out);
                else if (c instanceof dev.graphmend.ir.ast.ExceptHandler h) for (Stmt inner : h.body()) bindsOf(inner, out);
            });
        }
    }

    private static void namesIn(dev.graphmend.ir.ast.Expr target, java.util.Set<String> out) {
        if (target instanceof dev.graphmend.ir.ast.Expr.Name n) out.add(n.id());
        else if (target instanceof dev.graphmend.ir.ast.Expr.Tuple t) for (var e : t.elts()) namesIn(e, out);
        else if (target instanceof dev.graphmend.ir.ast.Expr.List l) for (var e : l.elts()) namesIn(e, out);
        else if (target instanceof dev.graphmend.ir.ast.Expr.Starred st) namesIn(st.value(), out);
    }

    /**
     * The names the module's top-level statements bind whose text spells one of {@code names}:
     * through them, code elsewhere can reach what those names lead to.
     */
    public java.util.Set<String> namesLeadingTo(java.util.Set<String> names) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (TopLevelUse u : derived(TOP_LEVEL_USES)) {
            if (out.containsAll(u.binds())) continue;
            for (String w : u.spells()) {
                if (names.contains(w)) {
                    out.addAll(u.binds());
                    break;
                }
            }
        }
        return out;
    }

    private static java.util.Set<String> words(CharSequence t) {
        java.util.Set<String> out = new java.util.HashSet<>();
        int i = 0, n = t.length();
        while (i < n) {
            char c = t.charAt(i);
            if (Character.isJavaIdentifierStart(c) && c != '$') {
                int j = i + 1;
                while (j < n && Character.isJavaIdentifierPart(t.charAt(j)) && t.charAt(j) != '$') j++;
                out.add(t.subSequence(i, j).toString());
                i = j;
            } else {
                i++;
            }
        }
        return out;
    }

    private static final Derived<Map<String, java.util.Set<String>>> ATTRIBUTES = new Derived<>("attributes spelled", m -> {
        Map<String, java.util.Set<String>> out = new java.util.HashMap<>();
        String t = m.ir().document().text();
        int i = 0, n = t.length();
        String last = null; // the word just before a dot
        while (i < n) {
            char c = t.charAt(i);
            if (Character.isJavaIdentifierStart(c) && c != '$') {
                int j = i + 1;
                while (j < n && Character.isJavaIdentifierPart(t.charAt(j)) && t.charAt(j) != '$') j++;
                String w = t.substring(i, j);
                if (last != null) out.computeIfAbsent(last, k -> new java.util.HashSet<>()).add(w);
                int k = j;
                while (k < n && (t.charAt(k) == ' ' || t.charAt(k) == '\t')) k++;
                last = k < n && t.charAt(k) == '.' ? w : null;
                i = k < n && t.charAt(k) == '.' ? k + 1 : j;
            } else {
                if (c != ' ' && c != '\t' && c != '\n' && c != '\\') last = null;
                i++;
            }
        }
        return out;
    });

    /** Whether the text spells {@code base.n} for one of {@code names}. */
    private boolean attributesSpelled(String base, java.util.Set<String> names) {
        java.util.Set<String> attrs = derived(ATTRIBUTES).get(base);
        if (attrs == null) return false;
        for (String a : attrs) if (names.contains(a)) return true;
        return false;
    }

    /** Whether the module's text spells one of {@code names} as a word (in code, a string or a comment). */
    public boolean spellsAny(java.util.Set<String> names) {
        java.util.Set<String> ids = derived(IDENTIFIERS);
        if (names.size() < ids.size()) {
            for (String s : names) if (ids.contains(s)) return true;
        } else {
            for (String s : ids) if (names.contains(s)) return true;
        }
        return false;
    }

    private static final Derived<java.util.Set<String>> NAMES_OTHERS_USE = new Derived<>("names other modules use", m -> {
        java.util.Set<String> imported = new java.util.HashSet<>();
        for (var imp : m.names().imports().all()) {
            if (imp.scope().kind() == dev.graphmend.ir.symbols.ScopeKind.MODULE) imported.add(imp.localName());
        }
        java.util.Set<String> out = new java.util.HashSet<>();
        for (dev.graphmend.ir.symbols.Symbol sym : m.ir().symbols().module().symbols()) {
            if ((sym.isBound() || sym.isDeclaredGlobal()) && !imported.contains(sym.name())) out.add(sym.name());
        }
        return out;
    });

    /**
     * The names another module spells to reach into this one: what it defines at top level (not
     * what it imports). Reaching it through the module object ({@code from . import mod}, then
     * {@code mod.f()}) spells one of them too.
     */
    public java.util.Set<String> namesOthersUse() {
        return derived(NAMES_OTHERS_USE);
    }

    /**
     * The names of this module through which it reaches {@code names} of module {@code moduleName}:
     * the local names of its imports of them ({@code from m import n}, in any scope), all of
     * {@code names} when it star-imports the module, and the local name of an import of the module
     * itself when the text spells one of them ({@code import m}, then {@code m.n}). Null when it
     * reaches none of them.
     */
    public java.util.Set<String> bindingsReaching(String moduleName, java.util.Set<String> names) {
        java.util.Set<String> out = null;
        if (starImports(moduleName)) out = new java.util.HashSet<>(names);
        String prefix = moduleName + ".";
        for (var imp : names().imports().all()) {
            String q = imp.qualifiedName();
            if (q == null) continue;
            boolean member = q.startsWith(prefix) && names.contains(q.substring(prefix.length()).split("\\.")[0]);
            // `import pkg.m` / `from pkg import m` bind a module object: m's names are reached as
            // `….m.n` (or `L.n` for the local name L), which the text spells
            boolean module = (q.equals(moduleName) || moduleName.startsWith(q + "."))
                    && (attributesSpelled(moduleName.substring(moduleName.lastIndexOf('.') + 1), names)
                        || attributesSpelled(imp.localName(), names));
            if (member || module) {
                if (out == null) out = new java.util.HashSet<>();
                out.add(imp.localName());
            }
        }
        return out;
    }

    /** The local names of this module's top-level imports of {@code moduleName} or of names inside it (re-exports). */
    public java.util.Set<String> namesImportedFrom(String moduleName) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (var imp : names().imports().all()) {
            String q = imp.qualifiedName();
            if (imp.scope().kind() == dev.graphmend.ir.symbols.ScopeKind.MODULE && q != null
                    && (q.equals(moduleName) || q.startsWith(moduleName + "."))) {
                out.add(imp.localName());
            }
        }
        return out;
    }

    /** Whether the module star-imports the module named {@code moduleName} ({@code from m import *}). */
    public boolean starImports(String moduleName) {
        for (var star : names().imports().starImports()) if (moduleName.equals(star.module())) return true;
        return false;
    }

    @Override
    public String toString() {
        return path;
    }
}
