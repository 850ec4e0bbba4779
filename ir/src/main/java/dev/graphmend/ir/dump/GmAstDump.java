package dev.graphmend.ir.dump;

import dev.graphmend.ir.ast.Alias;
import dev.graphmend.ir.ast.Arg;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Keyword;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.PyConstant;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;

/**
 * Writes the {@code gm-ast-v1} dump of a tree (docs/gm-ast-v1.md): one line per positioned node,
 * depth-first in CPython's field order, {@code DEPTH TYPE L:C-EL:EC [DETAIL]}.
 * {@code tools/gm_ast_dump.py} writes the same format from CPython's own ast.
 */
public final class GmAstDump {
    private GmAstDump() {}

    public static String dump(Node root) {
        StringBuilder out = new StringBuilder(4096);
        dump(root, 0, out);
        return out.toString();
    }

    /** Appends the lines of {@code node} and its descendants, each ending in a newline. */
    public static void dump(Node node, int depth, StringBuilder out) {
        Span span = node.span();
        int childDepth = depth;
        if (span != null) {
            out.append(depth).append(' ').append(node.pyType()).append(' ')
               .append(span.line()).append(':').append(span.col()).append('-')
               .append(span.endLine()).append(':').append(span.endCol());
            String detail = detail(node);
            if (detail != null) out.append(' ').append(detail);
            out.append('\n');
            childDepth = depth + 1;
        }
        final int d = childDepth;
        node.forEachChild(child -> dump(child, d, out));
    }

    static String detail(Node node) {
        if (node instanceof Expr.Name n) return n.id();
        if (node instanceof Expr.Attribute a) return a.attr();
        if (node instanceof Stmt.FunctionDef f) return f.name();
        if (node instanceof Stmt.AsyncFunctionDef f) return f.name();
        if (node instanceof Stmt.ClassDef c) return c.name();
        if (node instanceof Alias a) return a.name();
        if (node instanceof Arg a) return a.arg();
        if (node instanceof Keyword k) return k.arg() == null ? "**" : k.arg();
        if (node instanceof Expr.Constant c) return PyConstant.pyTypeName(c.value());
        return null;
    }
}
