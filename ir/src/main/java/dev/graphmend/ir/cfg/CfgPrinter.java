package dev.graphmend.ir.cfg;

import dev.graphmend.ir.ast.Arg;
import dev.graphmend.ir.ast.Arguments;
import dev.graphmend.ir.ast.ExceptHandler;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.WithItem;
import dev.graphmend.ir.source.LineIndex;
import dev.graphmend.ir.source.SourceText;
import java.util.ArrayList;
import java.util.List;

/**
 * Text and dot renderings. The text form, one line per block:
 * <pre>
 * B0 entry: params a -> B1
 * B1: x = 1 | if a -> B2 [TRUE], B3 [FALSE]
 * B4 unreachable: y = 2 -> B5
 * B5 exit
 * B6 raise-exit
 * </pre>
 * NORMAL edges are shown bare, the others with their kind.
 */
final class CfgPrinter {
    private static final int MAX = 40;

    private CfgPrinter() {}

    static String text(ControlFlowGraph g, SourceText src) {
        StringBuilder sb = new StringBuilder();
        for (Block b : g.blocks()) {
            sb.append(b);
            switch (b.kind()) {
                case ENTRY -> sb.append(" entry");
                case EXIT -> sb.append(" exit");
                case RAISE_EXIT -> sb.append(" raise-exit");
                default -> { }
            }
            if (!b.isReachable() && b.kind() != Block.Kind.ENTRY) sb.append(" unreachable");
            if (b.kind() == Block.Kind.BODY || !b.steps().isEmpty() || !b.successors().isEmpty()) {
                sb.append(':');
                List<String> steps = new ArrayList<>();
                for (Step s : b.steps()) steps.add(step(s, src));
                if (!steps.isEmpty()) sb.append(' ').append(String.join(" | ", steps));
                if (!b.successors().isEmpty()) sb.append(" -> ").append(successors(b));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    static String successors(Block b) {
        List<String> parts = new ArrayList<>();
        for (Edge e : b.successors()) {
            parts.add(e.target() + (e.kind() == EdgeKind.NORMAL ? "" : " [" + e.kind() + "]"));
        }
        return String.join(", ", parts);
    }

    static String dot(ControlFlowGraph g, SourceText src) {
        StringBuilder sb = new StringBuilder("digraph cfg {\n  node [shape=box, fontname=monospace];\n");
        for (Block b : g.blocks()) {
            StringBuilder label = new StringBuilder(b.toString());
            if (b.kind() != Block.Kind.BODY) label.append(' ').append(b.kind().name().toLowerCase());
            for (Step s : b.steps()) label.append("\\l").append(esc(step(s, src)));
            label.append("\\l");
            sb.append("  ").append(b).append(" [label=\"").append(label).append('"');
            if (!b.isReachable()) sb.append(", style=dashed");
            sb.append("];\n");
        }
        for (Edge e : g.edges()) {
            sb.append("  ").append(e.source()).append(" -> ").append(e.target());
            if (e.kind() != EdgeKind.NORMAL) {
                sb.append(" [label=\"").append(e.kind()).append('"');
                if (e.kind() == EdgeKind.EXCEPTION) sb.append(", style=dotted");
                sb.append(']');
            }
            sb.append(";\n");
        }
        return sb.append("}\n").toString();
    }

    private static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** A step as text: a statement's source, or the header part with a keyword. */
    static String step(Step s, SourceText src) {
        Node n = s.node();
        return switch (s.kind()) {
            case PARAMETERS -> "params " + params((Arguments) n);
            case STATEMENT -> code(n, src);
            case TEST -> (s.statement() instanceof Stmt.While ? "while "
                    : s.statement() instanceof Stmt.Match ? "guard " : "if ") + code(n, src);
            case ITER -> "iter " + code(n, src);
            case NEXT -> "next";
            case BIND -> "bind " + code(n, src);
            case ENTER -> "with " + code(((WithItem) n).contextExpr(), src);
            case EXIT -> "exit " + code(((WithItem) n).contextExpr(), src);
            case SUBJECT -> "match " + code(n, src);
            case MATCH -> "case " + code(n, src);
            case EXCEPT -> "except? " + (((ExceptHandler) n).type() == null ? "" : code(((ExceptHandler) n).type(), src));
            case HANDLER -> "caught" + (((ExceptHandler) n).name() == null ? "" : " as " + ((ExceptHandler) n).name());
            case UNBIND -> "unbind " + ((ExceptHandler) n).name();
            case EVAL -> "eval " + code(n, src);
        };
    }

    private static String params(Arguments a) {
        List<String> names = new ArrayList<>();
        for (Arg x : a.posonlyargs()) names.add(x.arg());
        for (Arg x : a.args()) names.add(x.arg());
        if (a.vararg() != null) names.add("*" + a.vararg().arg());
        for (Arg x : a.kwonlyargs()) names.add(x.arg());
        if (a.kwarg() != null) names.add("**" + a.kwarg().arg());
        return String.join(", ", names);
    }

    /** The node's source text on its first line, shortened; {@code Type@line:col} without source. */
    static String code(Node n, SourceText src) {
        Span sp = n.span();
        if (sp == null) return n.pyType();
        if (src == null) return n.pyType() + "@" + sp.line() + ":" + sp.col();
        LineIndex li = src.lines();
        if (sp.line() < 1 || sp.line() > li.lineCount()) return n.pyType() + "@" + sp;
        String line = li.lineText(sp.line());
        int from = li.cpColumnFromUtf8(sp.line(), sp.col());
        int to = sp.endLine() == sp.line() ? li.cpColumnFromUtf8(sp.line(), sp.endCol()) : line.codePointCount(0, line.length());
        int a = line.offsetByCodePoints(0, Math.min(from, line.codePointCount(0, line.length())));
        int b = line.offsetByCodePoints(0, Math.max(from, Math.min(to, line.codePointCount(0, line.length()))));
        String t = line.substring(a, b).strip();
        boolean more = sp.endLine() != sp.line();
        if (t.length() > MAX) {
            t = t.substring(0, MAX);
            more = true;
        }
        return more ? t + " ..." : t;
    }
}
