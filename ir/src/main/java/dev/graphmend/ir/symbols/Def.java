package dev.graphmend.ir.symbols;

/** CPython 3.13's symbol flag bits ({@code Include/internal/pycore_symtable.h}), kept bit for bit. */
final class Def {
    private Def() {}

    static final int GLOBAL = 1;            // DEF_GLOBAL: a `global` statement
    static final int LOCAL = 2;             // DEF_LOCAL: assigned, deleted, defined
    static final int PARAM = 2 << 1;        // DEF_PARAM
    static final int NONLOCAL = 2 << 2;     // DEF_NONLOCAL
    static final int USE = 2 << 3;          // USE: loaded
    static final int FREE_CLASS = 2 << 5;   // DEF_FREE_CLASS
    static final int IMPORT = 2 << 6;       // DEF_IMPORT
    static final int ANNOT = 2 << 7;        // DEF_ANNOT
    static final int COMP_ITER = 2 << 8;    // DEF_COMP_ITER
    static final int TYPE_PARAM = 2 << 9;   // DEF_TYPE_PARAM
    static final int COMP_CELL = 2 << 10;   // DEF_COMP_CELL
    static final int BOUND = LOCAL | PARAM | IMPORT;

    static final int SCOPE_OFFSET = 12;
    static final int SCOPE_MASK = 0xF;
    static final int FLAG_MASK = (1 << SCOPE_OFFSET) - 1;

    // resolved scopes
    static final int S_LOCAL = 1;
    static final int S_GLOBAL_EXPLICIT = 2;
    static final int S_GLOBAL_IMPLICIT = 3;
    static final int S_FREE = 4;
    static final int S_CELL = 5;

    static int scopeOf(int flags) {
        return (flags >> SCOPE_OFFSET) & SCOPE_MASK;
    }
}
