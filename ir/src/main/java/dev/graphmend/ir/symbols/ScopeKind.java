package dev.graphmend.ir.symbols;

/** What opens a {@link Scope}. */
public enum ScopeKind {
    /** The module body. */
    MODULE("module"),
    /** A class body. */
    CLASS("class"),
    /** A {@code def} or {@code async def} body. */
    FUNCTION("function"),
    /** A {@code lambda}. */
    LAMBDA("function"),
    /** {@code [elt for ...]}; CPython 3.12+ inlines it into its parent (PEP 709), see {@link Scope#isInlined()}. */
    LIST_COMPREHENSION("function"),
    /** {@code {elt for ...}}; inlined like a list comprehension. */
    SET_COMPREHENSION("function"),
    /** {@code {key: value for ...}}; inlined like a list comprehension. */
    DICT_COMPREHENSION("function"),
    /** {@code (elt for ...)}: a real nested function at run time. */
    GENERATOR_EXPRESSION("function"),
    /** PEP 695: the scope holding the type parameters of a generic function, class or type alias. */
    TYPE_PARAMETERS("type parameters"),
    /** PEP 695/696: the lazily evaluated bound, constraints or default of one type parameter. */
    TYPE_VARIABLE("type variable"),
    /** PEP 695: the lazily evaluated value of a {@code type X = ...} statement. */
    TYPE_ALIAS("type alias");

    private final String cpythonType;

    ScopeKind(String cpythonType) {
        this.cpythonType = cpythonType;
    }

    /** The table type CPython's {@code symtable} reports for it ({@code SymbolTable.get_type()}). */
    public String cpythonType() {
        return cpythonType;
    }

    /** CPython's "function-like" blocks: everything but module and class. Their locals can be cells. */
    public boolean isFunctionLike() {
        return this != MODULE && this != CLASS;
    }

    public boolean isComprehension() {
        return this == LIST_COMPREHENSION || this == SET_COMPREHENSION
                || this == DICT_COMPREHENSION || this == GENERATOR_EXPRESSION;
    }

    /** PEP 695 annotation scopes (type parameters, their bounds and defaults, type alias values). */
    public boolean isTypeScope() {
        return this == TYPE_PARAMETERS || this == TYPE_VARIABLE || this == TYPE_ALIAS;
    }
}
