package dev.graphmend.ir.symbols;

import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** A scope while the {@link Collector} fills it: CPython's {@code PySTEntryObject} after pass 1. */
final class RawScope {
    final ScopeKind kind;
    final String name;
    final Node node;
    final int lineno;
    final RawScope parent;
    /** The class name private names are mangled with when this scope was opened (st_private). */
    String privateName;
    /** Its names, in order of first sighting: the {@link Symbol}s the finished scope will hold. */
    final SymbolMap symbols;
    final List<RawScope> children = new ArrayList<>();
    List<Stmt.ImportFrom> starImports = List.of();

    boolean canSeeClassScope;
    /** The public scope this one becomes; its symbols are filled in once the analysis is done. */
    final Scope scope;
    /** CPython's ste_mangled_names: when not null, only these names are mangled (shared with children). */
    Set<String> mangledNames;
    /** CPython's ste_comp_iter_target: set while a comprehension's target is visited. */
    boolean compIterTarget;

    /** Nesting depth: 0 for the module. */
    final int depth;

    RawScope(ScopeKind kind, String name, Node node, int lineno, RawScope parent, String privateName) {
        this(kind, name, node, lineno, parent, privateName, kind == ScopeKind.MODULE || kind == ScopeKind.CLASS ? 32 : 8);
    }

    RawScope(ScopeKind kind, String name, Node node, int lineno, RawScope parent, String privateName, int expectedNames) {
        this.kind = kind;
        this.name = name;
        this.node = node;
        this.lineno = lineno;
        this.parent = parent;
        this.privateName = privateName;
        this.depth = parent == null ? 0 : parent.depth + 1;
        this.scope = new Scope(kind, name, node, lineno, parent == null ? null : parent.scope);
        this.symbols = new SymbolMap(expectedNames);
    }

    /** The symbol of a (mangled) name in this scope, added when first seen. */
    Symbol symbol(String mangled) {
        Symbol s = (Symbol) symbols.get(mangled);
        if (s == null) {
            s = new Symbol(mangled, scope, false);
            symbols.add(s);
        }
        return s;
    }

    /** Pass 1's flags for a (mangled) name; 0 when the scope has not seen it. */
    int flags(String mangled) {
        Analyzer.Entry s = symbols.get(mangled);
        return s == null ? 0 : s.rawFlags;
    }

    void addStarImport(Stmt.ImportFrom s) {
        if (starImports.isEmpty()) starImports = new ArrayList<>(1);
        if (starImports.isEmpty() || starImports.get(starImports.size() - 1) != s) starImports.add(s);
    }
}
