package dev.graphmend.ir.symbols;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
    final LinkedHashMap<String, RawSymbol> symbols = new LinkedHashMap<>();
    final List<RawScope> children = new ArrayList<>();
    List<Stmt.ImportFrom> starImports = List.of();

    boolean canSeeClassScope;
    /** The public scope this one becomes; its symbols are filled in once the analysis is done. */
    final Scope scope;
    /** CPython's ste_mangled_names: when not null, only these names are mangled (shared with children). */
    Set<String> mangledNames;
    /** CPython's ste_comp_iter_target: set while a comprehension's target is visited. */
    boolean compIterTarget;

    RawScope(ScopeKind kind, String name, Node node, int lineno, RawScope parent, String privateName) {
        this.kind = kind;
        this.name = name;
        this.node = node;
        this.lineno = lineno;
        this.parent = parent;
        this.privateName = privateName;
        this.scope = new Scope(kind, name, node, lineno, parent == null ? null : parent.scope);
    }

    RawSymbol symbol(String mangled) {
        RawSymbol s = symbols.get(mangled);
        if (s == null) {
            s = new RawSymbol(mangled);
            symbols.put(mangled, s);
        }
        return s;
    }

    int flags(String mangled) {
        RawSymbol s = symbols.get(mangled);
        return s == null ? 0 : s.flags;
    }

    void addStarImport(Stmt.ImportFrom s) {
        if (starImports.isEmpty()) starImports = new ArrayList<>(1);
        if (starImports.isEmpty() || starImports.get(starImports.size() - 1) != s) starImports.add(s);
    }

    /** One name of a raw scope: its CPython flags and the sites that bind, use or declare it. */
    static final class RawSymbol {
        final String name;
        int flags;
        List<Binding> bindings = List.of();
        List<Expr.Name> uses = List.of();
        Stmt declaration;
        Symbol result;

        RawSymbol(String name) {
            this.name = name;
        }

        void addBinding(Binding b) {
            if (bindings.isEmpty()) bindings = new ArrayList<>(2);
            bindings.add(b);
        }

        void addUse(Expr.Name n) {
            if (uses.isEmpty()) uses = new ArrayList<>(4);
            uses.add(n);
        }
    }
}
