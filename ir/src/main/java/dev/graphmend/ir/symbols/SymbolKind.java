package dev.graphmend.ir.symbols;

/** Where a name lives for the code of one scope: CPython's resolved scope of a symbol. */
public enum SymbolKind {
    /** Bound in this scope and stored in it (for a module or class: a key of its namespace). */
    LOCAL,
    /** Local, and captured by a nested scope: stored in a cell. */
    CELL,
    /** Bound in an enclosing function-like scope (closure variable, or {@code nonlocal}). */
    FREE,
    /** Declared {@code global} here (or, inside a type scope of a class, in that class). */
    GLOBAL_EXPLICIT,
    /** Not bound in any enclosing function: a module global or a builtin. */
    GLOBAL_IMPLICIT;

    static SymbolKind fromCPython(int scope) {
        switch (scope) {
            case Def.S_LOCAL: return LOCAL;
            case Def.S_CELL: return CELL;
            case Def.S_FREE: return FREE;
            case Def.S_GLOBAL_EXPLICIT: return GLOBAL_EXPLICIT;
            case Def.S_GLOBAL_IMPLICIT: return GLOBAL_IMPLICIT;
            default: throw new IllegalStateException("unresolved scope " + scope);
        }
    }

    /** The word the {@code gm-symtable-v1} dump uses. */
    public String dumpName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
