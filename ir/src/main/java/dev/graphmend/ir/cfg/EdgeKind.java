package dev.graphmend.ir.cfg;

/**
 * Why control passes along an edge. An edge that carries a jump through a {@code finally} body
 * (or a {@code with} exit, or the implicit {@code del} of an {@code except ... as} name) keeps the
 * kind of the jump: a {@code return} inside {@code try/finally} leaves by a {@link #RETURN} edge
 * into the copy of the finally body made for returns, and that copy leaves by a {@link #RETURN}
 * edge too (see the package documentation for the duplication of finally bodies).
 */
public enum EdgeKind {
    /** Fall-through, or an unconditional jump to a join or a loop header. */
    NORMAL,
    /**
     * The branch taken when the block's last step succeeds: an {@code if}/{@code elif}/{@code while}
     * test or a {@code case} guard is true, an {@code assert} holds, a {@code case} pattern matches,
     * an {@code except} clause matches the exception, a {@code for} loop got a next item.
     */
    TRUE,
    /**
     * The other branch: the test is false, the assertion fails (to the exception target), the
     * pattern does not match, the {@code except} clause does not match (the last one re-raises to
     * the enclosing exception target), the {@code for} iterator is exhausted.
     */
    FALSE,
    /** From the end of a loop body back to the loop's header. */
    LOOP_BACK,
    /** A {@code break}: to the block after the loop (its {@code else} is skipped). */
    BREAK,
    /** A {@code continue}: to the loop's header. */
    CONTINUE,
    /** A {@code return}: to the exit block. */
    RETURN,
    /**
     * A context manager's {@code __exit__} suppressed the exception raised in the {@code with} body
     * (it returned a true value): from the exceptional exit block to the statement after the
     * {@code with}.
     */
    SUPPRESS,
    /**
     * From a statement that contains {@code yield}/{@code yield from} to the next: the generator
     * suspends there and resumes with the next block (when it resumes at all).
     */
    YIELD,
    /**
     * An exception: from a block inside a {@code try} body, handler, {@code with} body or the like
     * (any step of the block may raise) to where it is caught or intercepted; from a {@code raise}
     * to that place or to the raise exit; from the end of an exceptional finally/exit copy onwards
     * (the re-raise). Exceptions that leave a function from outside any such region are not drawn
     * (every block would have one); only explicit raises, failed asserts and re-raises reach the raise
     * exit.
     */
    EXCEPTION
}
