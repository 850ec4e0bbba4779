package dev.graphmend.ir.symbols;

import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Span;

/**
 * One place in the source that binds (or deletes, or declares local) a name.
 *
 * @param kind what kind of binding it is
 * @param node the node that names the binding: an {@code Expr.Name} target, an {@code Arg}, an
 *     {@code Alias}, the {@code FunctionDef}/{@code ClassDef}/{@code ExceptHandler} statement,
 *     a capturing {@code Pattern}, or a {@code TypeParam}
 * @param construct the construct that performs it: the assignment/for/with/import/delete
 *     statement, the {@code Comprehension}, the {@code NamedExpr}, the {@code ExceptHandler},
 *     the {@code MatchCase}'s pattern, the function or lambda of a parameter; for definitions
 *     and type parameters the same as {@code node}'s owner statement
 */
public record Binding(Kind kind, Node node, Node construct) {

    public enum Kind {
        /** {@code x = ...}, also each name of a tuple/list/starred target. */
        ASSIGNMENT,
        /** {@code x += ...} (it also reads {@code x}, so the Name is among the uses too). */
        AUGMENTED_ASSIGNMENT,
        /** {@code x: T = value}. */
        ANNOTATED_ASSIGNMENT,
        /** {@code x: T} with no value: makes {@code x} local without binding it. */
        ANNOTATION,
        /** {@code del x}. */
        DELETION,
        /** The target of a {@code for} / {@code async for} statement. */
        FOR_TARGET,
        /** {@code with ... as x}. */
        WITH_TARGET,
        /** The iteration target of a comprehension's {@code for}. */
        COMPREHENSION_TARGET,
        /** {@code (x := ...)}. */
        NAMED_EXPRESSION,
        /** A parameter: positional-only, ordinary, {@code *args}, keyword-only or {@code **kwargs}. */
        PARAMETER,
        /** {@code import a.b} (binds {@code a}), {@code import a as b}, {@code from m import a [as b]}. */
        IMPORT,
        /** {@code def f} / {@code async def f}. */
        FUNCTION_DEFINITION,
        /** {@code class C}. */
        CLASS_DEFINITION,
        /** {@code except E as x}. */
        EXCEPT_HANDLER,
        /** A capture in a {@code match} pattern ({@code case x}, {@code case [*rest]}, {@code case {**rest}}, {@code case P() as x}). */
        MATCH_CAPTURE,
        /** A PEP 695 type parameter {@code [T]}. */
        TYPE_PARAMETER,
        /** {@code type X = ...}. */
        TYPE_ALIAS
    }

    public Span span() {
        return node.span();
    }

    /** False for {@link Kind#DELETION} and {@link Kind#ANNOTATION}, which leave no value bound. */
    public boolean bindsValue() {
        return kind != Kind.DELETION && kind != Kind.ANNOTATION;
    }
}
