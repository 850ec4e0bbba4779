package dev.graphmend.ir.cfg;

import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;

/**
 * One thing a basic block does, in execution order. A simple statement is one step; a compound
 * statement contributes the parts of its header as steps in the blocks where they run (its body's
 * statements are steps of their own).
 *
 * @param kind what the step does
 * @param node the AST node it evaluates, as listed per {@link Kind}
 * @param statement the statement the step belongs to: the statement itself for
 *     {@link Kind#STATEMENT}, the compound statement whose header it is otherwise ({@code If},
 *     {@code While}, {@code For}, {@code With}, {@code Try}, {@code Match}, ...), or null for the
 *     parameters and a lambda's body
 */
public record Step(Kind kind, Node node, Stmt statement) {

    public enum Kind {
        /** {@code node}: the {@code Arguments} of a function or lambda, bound on entry (entry block only). */
        PARAMETERS,
        /**
         * {@code node}: a simple statement, executed whole. Nested {@code def}/{@code class} are simple
         * statements here (decorators, defaults, bases are evaluated and the name bound; their bodies
         * have graphs of their own). An {@code assert} ends its block with TRUE/FALSE edges.
         */
        STATEMENT,
        /**
         * {@code node}: an expression tested for truth: the test of an {@code if}/{@code elif}/
         * {@code while} or the guard of a {@code case}. Ends the block with TRUE/FALSE edges (only
         * one of them when the test is a constant).
         */
        TEST,
        /** {@code node}: a {@code for} loop's iterable, evaluated once and {@code iter()} taken. */
        ITER,
        /** {@code node}: the {@code For}/{@code AsyncFor}; fetches the next item: TRUE (an item) / FALSE (exhausted). */
        NEXT,
        /** {@code node}: a target expression (Store) that receives the loop item or the {@code with ... as} value. */
        BIND,
        /** {@code node}: a {@code withitem}; its context expression is evaluated and {@code __enter__} called. */
        ENTER,
        /** {@code node}: a {@code withitem}; its {@code __exit__} is called (on the exceptional path it may suppress). */
        EXIT,
        /** {@code node}: the subject of a {@code match}, evaluated once. */
        SUBJECT,
        /** {@code node}: a {@code case} pattern; TRUE (matches, captures bound) / FALSE (no match). */
        MATCH,
        /** {@code node}: an {@code ExceptHandler} with a type; the exception is tested against it: TRUE / FALSE. */
        EXCEPT,
        /** {@code node}: an {@code ExceptHandler}; the exception is caught here and its {@code name}, if any, bound. */
        HANDLER,
        /** {@code node}: an {@code ExceptHandler} with a name; the implicit {@code del name} when the handler is left. */
        UNBIND,
        /** {@code node}: a lambda's body expression, whose value the lambda returns. */
        EVAL;
    }

    /** The first line of the step's node (for a step without position, that of its statement, or 0). */
    public int line() {
        if (node.span() != null) return node.span().line();
        if (node instanceof dev.graphmend.ir.ast.WithItem w) return w.contextExpr().span().line();
        if (node instanceof dev.graphmend.ir.ast.Arguments) return 0;
        return statement != null && statement.span() != null ? statement.span().line() : 0;
    }
}
