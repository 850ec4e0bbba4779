package dev.graphmend.ir.symbols;

/** Follows a name from the scope that mentions it to the scope that owns it, by Python's rules. */
final class Resolver {
    private Resolver() {}

    /**
     * @param sym the name's symbol in {@code scope}, or null when the scope does not mention it
     *     (then: what the name would denote if that scope's code read it)
     */
    static Resolution resolve(Scope module, Scope scope, String name, Symbol sym) {
        if (sym != null) {
            switch (sym.kind()) {
                case LOCAL:
                case CELL:
                    return new Resolution(Resolution.Kind.LOCAL, sym, sym, scope);
                case FREE:
                    return enclosing(module, scope, name, sym);
                default:
                    break;
            }
            Resolution viaClass = classNamespace(scope, name, sym);
            if (viaClass != null) return viaClass;
            return global(module, name, sym);
        }
        // Not mentioned: what reading it here would do.
        Resolution viaClass = classNamespace(scope, name, null);
        if (viaClass != null) return viaClass;
        return enclosing(module, scope, name, null);
    }

    /** A free name: the nearest enclosing function-like scope that binds it, skipping class bodies. */
    private static Resolution enclosing(Scope module, Scope scope, String name, Symbol sym) {
        for (Scope p = scope.parent(); p != null; p = p.parent()) {
            if (p.kind() == ScopeKind.CLASS) {
                if (name.equals("__class__") || name.equals("__classdict__")) {
                    if (sym != null && sym.isFree()) return new Resolution(Resolution.Kind.CLASS_CELL, sym, null, p);
                }
                continue;
            }
            if (p.kind() == ScopeKind.MODULE) break;
            Symbol def = p.lookup(name);
            if (def == null) continue;
            switch (def.kind()) {
                case LOCAL:
                case CELL:
                    return new Resolution(Resolution.Kind.ENCLOSING, sym, def, p);
                case FREE:
                    continue;
                default:
                    return global(module, name, sym);
            }
        }
        return global(module, name, sym);
    }

    /** In a class-visible type scope, a name the class body binds is read from the class namespace. */
    private static Resolution classNamespace(Scope scope, String name, Symbol sym) {
        if (!scope.canSeeClassScope()) return null;
        Scope p = scope.parent();
        while (p != null && p.kind() != ScopeKind.CLASS) {
            if (!p.canSeeClassScope()) return null;
            p = p.parent();
        }
        if (p == null) return null;
        Symbol inClass = p.lookup(name);
        if (inClass == null) return null;
        if (inClass.isDeclaredGlobal()) return null; // global in the class: a module global here too
        if (inClass.isBound() && !inClass.isNonlocal()) {
            return new Resolution(Resolution.Kind.CLASS_NAMESPACE, sym, inClass, p);
        }
        return null;
    }

    /** A global: the module's variable when the module binds it (or some scope declares it global), else a builtin. */
    private static Resolution global(Scope module, String name, Symbol sym) {
        Symbol m = module.lookup(name);
        if (m != null && (m.isBound() || m.isDeclaredGlobal())) {
            return new Resolution(m == sym ? Resolution.Kind.LOCAL : Resolution.Kind.GLOBAL, sym, m, module);
        }
        return new Resolution(Resolution.Kind.BUILTIN_OR_UNBOUND, sym, null, module);
    }
}
