package dev.graphmend.ir.symbols;

/**
 * What a name denotes for the code of one scope.
 *
 * @param kind how it is reached
 * @param symbol the symbol of the name in the scope it is evaluated in; null when that scope has
 *     none (a name inside an annotation that {@code from __future__ import annotations} leaves
 *     unevaluated, resolved as if it were evaluated there)
 * @param definition the symbol that owns the variable (itself for a local); null for
 *     {@link Kind#CLASS_CELL} and {@link Kind#BUILTIN_OR_UNBOUND}
 * @param definingScope the scope that owns the variable: the function of a closure variable, the
 *     class of {@code __class__}, the module for globals and builtins
 */
public record Resolution(Kind kind, Symbol symbol, Symbol definition, Scope definingScope) {

    public enum Kind {
        /** Bound in the scope itself (a module's or class's own namespace included). */
        LOCAL,
        /** A closure variable (or {@code nonlocal}, or a comprehension's walrus target) of an enclosing function-like scope. */
        ENCLOSING,
        /** A PEP 695 type scope of a class reading a name the class body binds (found through {@code __classdict__}). */
        CLASS_NAMESPACE,
        /** The implicit {@code __class__} cell ({@code super()}, {@code __class__}) or {@code __classdict__} of the enclosing class. */
        CLASS_CELL,
        /** A module-level variable of this module, bound at module level or through {@code global}. */
        GLOBAL,
        /** Bound nowhere in this module: a builtin, a name a star import may bring, or undefined. */
        BUILTIN_OR_UNBOUND
    }

    /** True when the name is not bound in this module but a {@code from m import *} of the module may bind it. */
    public boolean mayComeFromStarImport() {
        return kind == Kind.BUILTIN_OR_UNBOUND && definingScope.hasStarImport();
    }
}
