package dev.graphmend.ir.symbols;

import java.util.Optional;

import dev.graphmend.ir.ast.Expr;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
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

    /** Layered, so that {@link #next} shares the entries of the modules it keeps. */
    private final LayeredMap<String, Module> modules;

    /**
     * An ancestor's answers ({@link #next}), and the modules replaced since it: an answer that leads
     * into one of them does not stand here. Only the answers are kept, not the ancestor, whose
     * modules include the replaced versions (a fix-all's rounds would keep every version's tree).
     */
    private record Layer(Map<String, Optional<Definition>> definitions, Set<String> replacedSince) {}

    /** Nearest first; at most {@link #MAX_LAYERS}: then the answers are copied and the chain cut. */
    private final List<Layer> layers;
    private static final int MAX_LAYERS = 8;

    private Workspace(LayeredMap<String, Module> modules) {
        this(modules, List.of());
    }

    private Workspace(LayeredMap<String, Module> modules, List<Layer> layers) {
        this.modules = modules;
        this.layers = layers;
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
            return new Workspace(LayeredMap.of(modules));
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
        Map<String, Module> changed = new LinkedHashMap<>();
        for (var e : replacements.entrySet()) {
            QualifiedNames names = e.getValue();
            changed.put(e.getKey(), new Module(e.getKey(), isPackage.get(e.getKey()), names.table(), names));
        }
        LayeredMap<String, Module> modules = previous.modules.with(changed);
        Set<String> replaced = Set.copyOf(replacements.keySet());
        // the previous answers that lead into a replaced module are of no use here: dropped, so that
        // they do not keep the replaced versions alive (a cache: an analysis still on the previous
        // workspace finds them again)
        previous.definitions.values().removeIf(d -> !stands(d, replaced));
        List<Layer> layers = new ArrayList<>(previous.layers.size() + 1);
        layers.add(new Layer(previous.definitions, replaced));
        for (Layer l : previous.layers) layers.add(new Layer(l.definitions(), union(l.replacedSince(), replaced)));
        if (layers.size() <= MAX_LAYERS) return new Workspace(modules, List.copyOf(layers));
        Workspace w = new Workspace(modules);
        Set<String> seen = new java.util.HashSet<>();
        for (Layer l : layers) { // nearest first, as inherited() reads them: the nearest answer decides
            l.definitions().forEach((qn, d) -> {
                if (seen.add(qn) && stands(d, l.replacedSince())) w.definitions.put(qn, d);
            });
        }
        return w;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        if (b.isEmpty() || a.containsAll(b)) return a;
        Set<String> out = new java.util.HashSet<>(a);
        out.addAll(b);
        return Set.copyOf(out);
    }

    private static boolean stands(Optional<Definition> d, Set<String> replacedSince) {
        return d.isEmpty() || !replacedSince.contains(d.get().module().name());
    }

    /** An ancestor's answer that still stands here, or null. */
    private Optional<Definition> inherited(String qualifiedName) {
        for (Layer l : layers) {
            Optional<Definition> d = l.definitions().get(qualifiedName);
            if (d != null) return stands(d, l.replacedSince()) ? d : null;
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
        if (known == null && !layers.isEmpty()) {
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
