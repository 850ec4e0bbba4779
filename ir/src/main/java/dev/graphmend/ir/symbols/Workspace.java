package dev.graphmend.ir.symbols;

import java.util.Optional;

import dev.graphmend.ir.ast.Expr;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The modules of a workspace by dotted name, so that a qualified name can be followed into the
 * module that defines it: {@code from .sibling import f} in {@code pkg.main} names
 * {@code pkg.sibling.f}, which is the top-level binding {@code f} of module {@code pkg.sibling}.
 * Re-exports are followed ({@code pkg/__init__.py} doing {@code from .core import f} makes
 * {@code pkg.f} lead to {@code pkg.core}'s {@code f}). Immutable.
 */
public final class Workspace {

    /** One module of the workspace. */
    public record Module(String name, boolean isPackage, SymbolTable table, QualifiedNames names) {
        public Imports imports() { return names.imports(); }
    }

    /**
     * Where a qualified name is defined in the workspace.
     *
     * @param module the module that defines it
     * @param symbol its top-level symbol in that module; null when the name is the module itself
     * @param rest attributes below that symbol, dotted ("" when none): {@code Model.forward}
     *     leads to symbol {@code Model} with rest {@code forward}
     */
    public record Definition(Module module, Symbol symbol, String rest) {
        /** The definition's own qualified name. */
        public String qualifiedName() {
            String s = module.name();
            if (symbol != null) s += (s.isEmpty() ? "" : ".") + symbol.name();
            if (!rest.isEmpty()) s += "." + rest;
            return s;
        }
    }

    private final Map<String, Module> modules;
    /**
     * The workspace this one was built from ({@link Builder#next}), whose answers stand here unless
     * they lead into a module replaced since ({@code replaced}); null for one built from scratch.
     * At most {@link #MAX_PARENTS} deep: then the answers are copied and the chain cut.
     */
    private final Workspace parent;
    private final Set<String> replaced;
    private final int depth;
    private static final int MAX_PARENTS = 8;

    private Workspace(Map<String, Module> modules) {
        this(modules, null, Set.of(), 0);
    }

    private Workspace(Map<String, Module> modules, Workspace parent, Set<String> replaced, int depth) {
        this.modules = Collections.unmodifiableMap(modules);
        this.parent = parent;
        this.replaced = replaced;
        this.depth = depth;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private final Map<String, Module> modules = new LinkedHashMap<>();

        /** Adds a module under its dotted name ({@code pkg.sub} for {@code pkg/sub/__init__.py}, with {@code isPackage}). */
        public Builder add(String name, boolean isPackage, SymbolTable table) {
            return add(name, isPackage, QualifiedNames.of(table, name, isPackage));
        }

        /** Adds a module whose resolver the caller already has (built for the same name, package flag and table). */
        public Builder add(String name, boolean isPackage, QualifiedNames names) {
            modules.put(name, new Module(name, isPackage, names.table(), names));
            return this;
        }

        /** Adds a file under the name its path below {@code root} gives it (see {@link #moduleName}). */
        public Builder add(Path root, Path file, SymbolTable table) {
            return add(moduleName(root, file), isPackage(file), table);
        }

        public Workspace build() {
            return new Workspace(new LinkedHashMap<>(modules));
        }
    }

    /**
     * The workspace after the modules named in {@code replacements} were replaced, each by one with
     * the same top-level bindings and imports (the caller checks): a search's path through them is
     * the same, so only answers that lead into them are found again. The other modules' entries are
     * shared, and {@code previous}'s answers are consulted on demand instead of copied (a package's
     * thousands of cached answers at every keystroke).
     */
    public static Workspace next(Workspace previous, Map<String, QualifiedNames> replacements, Map<String, Boolean> isPackage) {
        Map<String, Module> modules = new LinkedHashMap<>(previous.modules);
        for (var e : replacements.entrySet()) {
            QualifiedNames names = e.getValue();
            modules.put(e.getKey(), new Module(e.getKey(), isPackage.get(e.getKey()), names.table(), names));
        }
        Set<String> replaced = Set.copyOf(replacements.keySet());
        if (previous.depth < MAX_PARENTS) return new Workspace(modules, previous, replaced, previous.depth + 1);
        Workspace w = new Workspace(modules);
        w.definitions.putAll(previous.flattened(replaced));
        return w;
    }

    /** Every answer this workspace can give without searching, valid after {@code alsoReplaced} were replaced. */
    private Map<String, Optional<Definition>> flattened(Set<String> alsoReplaced) {
        Map<String, Optional<Definition>> out = new java.util.HashMap<>();
        List<Set<String>> replacedSince = new ArrayList<>();
        replacedSince.add(alsoReplaced);
        for (Workspace w = this; w != null; w = w.parent) {
            for (var e : w.definitions.entrySet()) {
                if (!out.containsKey(e.getKey()) && stands(e.getValue(), replacedSince)) out.put(e.getKey(), e.getValue());
            }
            replacedSince.add(w.replaced);
        }
        return out;
    }

    private static boolean stands(Optional<Definition> d, List<Set<String>> replacedSince) {
        if (d.isEmpty()) return true;
        String m = d.get().module().name();
        for (Set<String> r : replacedSince) if (r.contains(m)) return false;
        return true;
    }

    /** An answer of an ancestor that still stands here, or null. */
    private Optional<Definition> inherited(String qualifiedName) {
        List<Set<String>> replacedSince = null;
        for (Workspace w = this; w.parent != null; w = w.parent) {
            if (replacedSince == null) replacedSince = new ArrayList<>(MAX_PARENTS);
            replacedSince.add(w.replaced);
            Optional<Definition> d = w.parent.definitions.get(qualifiedName);
            if (d != null) return stands(d, replacedSince) ? d : null;
        }
        return null;
    }


    /** The dotted module name of a {@code .py} file below a source root: {@code root/pkg/sub/mod.py} is {@code pkg.sub.mod}, {@code root/pkg/__init__.py} is {@code pkg}. */
    public static String moduleName(Path root, Path file) {
        Path rel = root.relativize(file);
        List<String> parts = new ArrayList<>();
        for (Path p : rel) parts.add(p.toString());
        String last = parts.remove(parts.size() - 1);
        if (last.endsWith(".py")) last = last.substring(0, last.length() - 3);
        if (!last.equals("__init__")) parts.add(last);
        return String.join(".", parts);
    }

    public static boolean isPackage(Path file) {
        return file.getFileName().toString().equals("__init__.py");
    }

    /** The module of that dotted name, or null. */
    public Module module(String name) { return modules.get(name); }

    public Collection<Module> modules() { return modules.values(); }

    /**
     * Where a qualified name is defined in the workspace: the longest module-name prefix that is
     * a workspace module, then the next name's top-level binding there. When that binding is
     * itself an import, it is followed (at most 20 hops, cycles stop). Null when no workspace
     * module owns the name, or the module does not bind it.
     */
    public Definition definition(String qualifiedName) {
        if (qualifiedName == null) return null;
        // a search through a package's star imports can visit every module; the same names (a
        // model's base classes, a package's helpers) are asked for from thousands of places
        Optional<Definition> known = definitions.get(qualifiedName);
        if (known == null && parent != null) {
            known = inherited(qualifiedName);
            if (known != null) definitions.putIfAbsent(qualifiedName, known);
        }
        if (known == null) {
            known = Optional.ofNullable(definition(qualifiedName, 0, new java.util.HashSet<>()));
            definitions.putIfAbsent(qualifiedName, known);
        }
        return known.orElse(null);
    }

    /** Answers of {@link #definition(String)}: the workspace does not change, so neither do they. */
    private final java.util.concurrent.ConcurrentHashMap<String, Optional<Definition>> definitions =
            new java.util.concurrent.ConcurrentHashMap<>();

    private Definition definition(String qualifiedName, int depth, Set<String> seen) {
        if (qualifiedName == null || depth > 20 || !seen.add(qualifiedName)) return null;
        String prefix = qualifiedName;
        String rest = "";
        while (true) {
            Module m = modules.get(prefix);
            if (m != null) return inModule(m, rest, depth, seen);
            int dot = prefix.lastIndexOf('.');
            if (dot < 0) return null;
            rest = prefix.substring(dot + 1) + (rest.isEmpty() ? "" : "." + rest);
            prefix = prefix.substring(0, dot);
        }
    }

    private Definition inModule(Module m, String rest, int depth, Set<String> seen) {
        if (rest.isEmpty()) return new Definition(m, null, "");
        int dot = rest.indexOf('.');
        String first = dot < 0 ? rest : rest.substring(0, dot);
        String below = dot < 0 ? "" : rest.substring(dot + 1);
        Symbol s = m.table().module().lookup(first);
        if (s == null || !(s.isBound() || s.isDeclaredGlobal())) {
            // not bound here: a star import of another workspace module may bring it
            for (Imports.StarImport star : m.imports().starImports()) {
                if (star.module() == null || star.scope().kind() != ScopeKind.MODULE) continue;
                // only into a module of the workspace: for a missing one the prefix search would land in
                // its package again, and a package of hundreds of star imports (transformers/models)
                // would be searched once per path of star imports, 20 levels deep
                if (!modules.containsKey(star.module())) continue;
                Definition d = definition(star.module() + "." + rest, depth + 1, seen);
                if (d != null) return d;
            }
            return null;
        }
        // a re-export: follow the import it comes from, when every binding is that import
        List<Imports.Import> imports = m.imports().bindingsOf(m.table(), s);
        if (!imports.isEmpty() && imports.size() == m.table().bindingsOf(s).size()) {
            String target = imports.get(0).qualifiedName();
            boolean agree = target != null;
            for (Imports.Import i : imports) agree &= target != null && target.equals(i.qualifiedName());
            if (agree) {
                Definition d = definition(below.isEmpty() ? target : target + "." + below, depth + 1, seen);
                if (d != null) return d;
            }
        }
        return new Definition(m, s, below);
    }

    /** What an expression of module {@code moduleName} names, followed into the workspace when it leads there. */
    public Definition definitionOf(String moduleName, Expr e) {
        Module m = modules.get(moduleName);
        if (m == null) return null;
        Target t = m.names().resolve(e);
        if (t instanceof Target.ModuleMember) {
            Target.ModuleMember mm = (Target.ModuleMember) t;
            if (mm.symbol() == null) return null;
            int dot = mm.path().indexOf('.');
            return new Definition(m, mm.symbol(), dot < 0 ? "" : mm.path().substring(dot + 1));
        }
        if (t instanceof Target.Imported) return definition(t.qualifiedName());
        return null;
    }
}
