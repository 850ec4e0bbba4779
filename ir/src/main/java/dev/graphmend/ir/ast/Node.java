package dev.graphmend.ir.ast;

import java.util.function.Consumer;

/**
 * A node of the Python AST. The node kinds, their fields and field order mirror CPython's
 * {@code ast} module (3.13), so that our tree can be dumped and compared with CPython's.
 */
public interface Node {
    /** The source span as CPython gives it, or null for kinds CPython leaves unpositioned. */
    Span span();

    /** CPython's class name for this node, e.g. {@code "Name"}, {@code "keyword"}. */
    String pyType();

    /** Visits the direct child nodes in CPython's {@code _fields} order (nulls skipped). */
    void forEachChild(Consumer<? super Node> visitor);

    /** This subtree with every line number moved by {@code delta} (this node itself when 0). */
    Node shiftLines(int delta);
}
