package dev.graphmend.ir.symbols;

import dev.graphmend.ir.ast.Alias;
import dev.graphmend.ir.ast.Stmt;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the imports of one module bind, as absolute dotted names. Relative imports are resolved
 * the way {@code importlib} resolves them: from the module's own dotted name and whether the
 * module is a package's {@code __init__}.
 *
 * <pre>{@code
 * import torch                      # torch  -> torch          (MODULE)
 * import torch.nn.functional        # torch  -> torch          (TOP_PACKAGE; also loads torch.nn.functional)
 * import torch.nn.functional as F   # F      -> torch.nn.functional (MODULE)
 * from torch import nn, where as w  # nn     -> torch.nn, w -> torch.where (FROM)
 * from . import x                   # in pkg.mod: x -> pkg.x
 * from ..pkg import y               # in a.b.mod: y -> a.pkg.y
 * }</pre>
 */
public final class Imports {

    /**
     * One name an import binds.
     *
     * @param kind what kind of import
     * @param localName the name bound in {@code scope}
     * @param qualifiedName the absolute dotted name it denotes; null when a relative import
     *     climbs above the top-level package
     * @param imported for {@link Kind#TOP_PACKAGE}, the full module the statement imports
     *     ({@code torch.nn.functional}); else the same as {@code qualifiedName}
     * @param alias the {@code alias} node
     * @param statement the {@code Import} or {@code ImportFrom}
     * @param scope the scope the name is bound in (imports may sit in functions)
     */
    public record Import(Kind kind, String localName, String qualifiedName, String imported, Alias alias,
                         Stmt statement, Scope scope) {}

    public enum Kind {
        /** {@code import a} or {@code import a.b as x}: the name is the module itself. */
        MODULE,
        /** {@code import a.b.c}: binds {@code a}, the top-level package; {@code a.b.c} is loaded as its attribute. */
        TOP_PACKAGE,
        /** {@code from m import n [as x]}: a member of {@code m} (a submodule or any attribute). */
        FROM
    }

    /**
     * A {@code from m import *}.
     *
     * @param module the absolute module name, null when unresolvable
     */
    public record StarImport(String module, Stmt.ImportFrom statement, Scope scope) {}

    private final String moduleName;
    private final boolean isPackage;
    private final List<Import> all;
    private final List<StarImport> stars;
    private final IdentityHashMap<Alias, Import> byAlias;

    private Imports(String moduleName, boolean isPackage, List<Import> all, List<StarImport> stars) {
        this.moduleName = moduleName;
        this.isPackage = isPackage;
        this.all = List.copyOf(all);
        this.stars = List.copyOf(stars);
        this.byAlias = new IdentityHashMap<>();
        for (Import i : all) byAlias.put(i.alias(), i);
    }

    /**
     * The imports of a module.
     *
     * @param moduleName the module's dotted name ({@code pkg.sub.mod}; for a package's
     *     {@code __init__.py}, the package's name {@code pkg.sub}); may be empty for a script,
     *     whose relative imports then do not resolve
     * @param isPackage whether the module is a package's {@code __init__}
     */
    public static Imports of(SymbolTable table, String moduleName, boolean isPackage) {
        List<Import> all = new ArrayList<>();
        List<StarImport> stars = new ArrayList<>();
        for (Scope scope : table.scopes()) {
            for (Symbol s : scope.symbols()) {
                for (Binding b : s.bindings()) {
                    if (b.kind() != Binding.Kind.IMPORT) continue;
                    Alias a = (Alias) b.node();
                    all.add(describe(a, (Stmt) b.construct(), scope, s.name(), moduleName, isPackage));
                }
            }
            for (Stmt.ImportFrom f : scope.starImports()) {
                stars.add(new StarImport(absolute(moduleName, isPackage, f.level(), f.module()), f, scope));
            }
        }
        all.sort((x, y) -> compareSpans(x.alias(), y.alias()));
        return new Imports(moduleName, isPackage, all, stars);
    }

    private static int compareSpans(Alias a, Alias b) {
        int c = Integer.compare(a.span().line(), b.span().line());
        return c != 0 ? c : Integer.compare(a.span().col(), b.span().col());
    }

    private static Import describe(Alias a, Stmt stmt, Scope scope, String local, String moduleName, boolean isPackage) {
        if (stmt instanceof Stmt.Import) {
            if (a.asname() != null) return new Import(Kind.MODULE, local, a.name(), a.name(), a, stmt, scope);
            int dot = a.name().indexOf('.');
            if (dot < 0) return new Import(Kind.MODULE, local, a.name(), a.name(), a, stmt, scope);
            return new Import(Kind.TOP_PACKAGE, local, a.name().substring(0, dot), a.name(), a, stmt, scope);
        }
        Stmt.ImportFrom f = (Stmt.ImportFrom) stmt;
        String base = absolute(moduleName, isPackage, f.level(), f.module());
        String q = base == null ? null : base.isEmpty() ? a.name() : base + "." + a.name();
        return new Import(Kind.FROM, local, q, q, a, stmt, scope);
    }

    /**
     * The absolute name of the module a {@code from} import reads from, as
     * {@code importlib._bootstrap._resolve_name} computes it; null when a relative import
     * climbs above the top-level package (or the importing module's name is unknown).
     *
     * @param level the number of leading dots (0: absolute)
     * @param module the dotted name after the dots, or null ({@code from . import x})
     */
    public static String absolute(String moduleName, boolean isPackage, int level, String module) {
        if (level == 0) return module == null ? "" : module;
        if (moduleName == null || moduleName.isEmpty()) return null;
        String pkg = isPackage ? moduleName : parentOf(moduleName);
        if (pkg == null) return null;
        String base = pkg;
        for (int i = 1; i < level; i++) {
            base = parentOf(base);
            if (base == null) return null;
        }
        return module == null || module.isEmpty() ? base : base + "." + module;
    }

    private static String parentOf(String dotted) {
        int dot = dotted.lastIndexOf('.');
        return dot < 0 ? null : dotted.substring(0, dot);
    }

    /** The module's own dotted name. */
    public String moduleName() { return moduleName; }

    public boolean isPackage() { return isPackage; }

    /** Every name every import statement binds, in source order. */
    public List<Import> all() { return all; }

    /** The {@code from m import *} statements. */
    public List<StarImport> starImports() { return stars; }

    /** What an {@code alias} node of an import binds, or null. */
    public Import of(Alias alias) { return byAlias.get(alias); }

    /** The imports that bind a symbol, in source order (none when it is not bound by an import). */
    public List<Import> bindingsOf(SymbolTable table, Symbol definition) {
        List<Import> out = new ArrayList<>(1);
        for (Binding b : table.bindingsOf(definition)) {
            if (b.kind() == Binding.Kind.IMPORT) {
                Import i = byAlias.get((Alias) b.node());
                if (i != null) out.add(i);
            }
        }
        return out.isEmpty() ? List.of() : Collections.unmodifiableList(out);
    }

    /** The module-level imports by the name they bind (the last one of a name wins), for a quick look. */
    public Map<String, Import> moduleLevel() {
        Map<String, Import> out = new java.util.LinkedHashMap<>();
        for (Import i : all) if (i.scope().kind() == ScopeKind.MODULE) out.put(i.localName(), i);
        return Collections.unmodifiableMap(out);
    }
}
