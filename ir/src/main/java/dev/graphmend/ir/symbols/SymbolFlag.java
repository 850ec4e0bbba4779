package dev.graphmend.ir.symbols;

/**
 * What CPython's symbol table records about a name in one scope, flag for flag. Each maps to one
 * bit of CPython 3.13's {@code symtable} ({@code DEF_*} and {@code USE}).
 */
public enum SymbolFlag {
    /** A parameter of the function ({@code DEF_PARAM}; {@code Symbol.is_parameter()}). */
    PARAMETER("param", Def.PARAM),
    /** Assigned, deleted, or bound by def/class/for/with/except/match/walrus ({@code DEF_LOCAL}; {@code is_assigned()}). */
    ASSIGNED("assigned", Def.LOCAL),
    /** Loaded somewhere in the scope ({@code USE}; {@code is_referenced()}). */
    REFERENCED("referenced", Def.USE),
    /** Bound by an import ({@code DEF_IMPORT}; {@code is_imported()}). */
    IMPORTED("imported", Def.IMPORT),
    /** The target of a simple annotated assignment {@code x: T} ({@code DEF_ANNOT}; {@code is_annotated()}). */
    ANNOTATED("annotated", Def.ANNOT),
    /** Named in a {@code global} statement here, or made global by a walrus in a module-level comprehension ({@code DEF_GLOBAL}). */
    DECLARED_GLOBAL("global", Def.GLOBAL),
    /** Named in a {@code nonlocal} statement, or a walrus target inside a comprehension ({@code DEF_NONLOCAL}; {@code is_nonlocal()}). */
    DECLARED_NONLOCAL("nonlocal", Def.NONLOCAL),
    /** A class (or class-visible type scope) name that is also free in a child scope ({@code DEF_FREE_CLASS}). */
    FREE_IN_CHILD_OF_CLASS("free_class", Def.FREE_CLASS),
    /** An iteration target of a comprehension ({@code DEF_COMP_ITER}). */
    COMPREHENSION_TARGET("comp_iter", Def.COMP_ITER),
    /** A PEP 695 type parameter ({@code DEF_TYPE_PARAM}). */
    TYPE_PARAMETER("type_param", Def.TYPE_PARAM),
    /** Made a cell by an inlined comprehension that captures it (CPython view only; {@code DEF_COMP_CELL}). */
    COMPREHENSION_CELL("comp_cell", Def.COMP_CELL);

    private final String dumpName;
    final int bit;

    SymbolFlag(String dumpName, int bit) {
        this.dumpName = dumpName;
        this.bit = bit;
    }

    /** The word the {@code gm-symtable-v1} dump uses. */
    public String dumpName() {
        return dumpName;
    }

    private static final SymbolFlag[] VALUES = values();

    static java.util.Set<SymbolFlag> decode(int flags) {
        java.util.EnumSet<SymbolFlag> set = java.util.EnumSet.noneOf(SymbolFlag.class);
        for (SymbolFlag f : VALUES) if ((flags & f.bit) != 0) set.add(f);
        return java.util.Collections.unmodifiableSet(set);
    }

    /** The flags as the dump writes them: dump names in declaration order, comma-separated, or "-". */
    static String dump(int flags) {
        StringBuilder sb = new StringBuilder();
        for (SymbolFlag f : VALUES) {
            if ((flags & f.bit) != 0) {
                if (sb.length() > 0) sb.append(',');
                sb.append(f.dumpName);
            }
        }
        int unknown = flags & Def.FLAG_MASK & ~ALL;
        if (unknown != 0) {
            if (sb.length() > 0) sb.append(',');
            sb.append("0x").append(Integer.toHexString(unknown));
        }
        return sb.length() == 0 ? "-" : sb.toString();
    }

    private static final int ALL;
    static {
        int all = 0;
        for (SymbolFlag f : VALUES) all |= f.bit;
        ALL = all;
    }
}
