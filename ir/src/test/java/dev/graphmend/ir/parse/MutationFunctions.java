package dev.graphmend.ir.parse;

import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.dump.GmAstDump;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The functions (and classes) of a parsed module by qualified path: the names of the enclosing
 * classes and functions, the name, and an occurrence index among same-path definitions,
 * e.g. {@code Parser.parse#0}, {@code Parser.x#1} (a property's setter), {@code main.helper#0}.
 * Definitions nested in if/try/with/match blocks count under their enclosing class or function.
 */
final class MutationFunctions {
    /** One definition. {@code bodyStart} is -1 when the body does not start on its own line. */
    record Def(String key, Node node, boolean isFunction, Def parent, int defLine, int extentStart, int endLine,
            int bodyStart) {

        boolean encloses(Def other) {
            for (Def p = other.parent; p != null; p = p.parent) if (p == this) return true;
            return false;
        }

        String dump() {
            return GmAstDump.dump(node);
        }
    }

    final Map<String, Def> byKey = new LinkedHashMap<>();
    final List<Def> functions = new ArrayList<>();

    /** Indexes a module; {@code source} (may be null) tells whether a body starts its own line. */
    MutationFunctions(Node module, MutationLex source) {
        Map<String, Integer> seen = new HashMap<>();
        module.forEachChild(child -> visit(child, null, "", seen, source));
    }

    private void visit(Node node, Def parent, String prefix, Map<String, Integer> seen, MutationLex source) {
        String name = null;
        List<Stmt> body = null;
        List<? extends Node> decorators = null;
        boolean function = false;
        if (node instanceof Stmt.FunctionDef f) {
            name = f.name(); body = f.body(); decorators = f.decoratorList(); function = true;
        } else if (node instanceof Stmt.AsyncFunctionDef f) {
            name = f.name(); body = f.body(); decorators = f.decoratorList(); function = true;
        } else if (node instanceof Stmt.ClassDef c) {
            name = c.name(); body = c.body(); decorators = c.decoratorList();
        }
        if (name == null) {
            if (node instanceof Stmt || node instanceof dev.graphmend.ir.ast.ExceptHandler
                    || node instanceof dev.graphmend.ir.ast.MatchCase) {
                node.forEachChild(child -> visit(child, parent, prefix, seen, source));
            }
            return; // expressions hold no definitions
        }
        String path = prefix + name;
        int index = seen.merge(path, 1, Integer::sum) - 1;
        int defLine = node.span() == null ? 0 : node.span().line();
        int extentStart = defLine;
        for (Node d : decorators) if (d != null && d.span() != null) extentStart = Math.min(extentStart, d.span().line());
        int endLine = node.span() == null ? 0 : node.span().endLine();
        int bodyStart = -1;
        if (!body.isEmpty() && body.get(0) != null && body.get(0).span() != null && source != null) {
            int line = body.get(0).span().line();
            if (line > defLine && startsOwnLine(source, line, body.get(0).span().col())) bodyStart = line;
        }
        Def def = new Def(path + "#" + index, node, function, parent, defLine, extentStart, endLine, bodyStart);
        byKey.put(def.key(), def);
        if (function) functions.add(def);
        String inner = path + ".";
        node.forEachChild(child -> visit(child, def, inner, seen, source));
    }

    private static boolean startsOwnLine(MutationLex lex, int line, int col) {
        if (line > lex.lineCount()) return false;
        int start = lex.lineStart(line);
        int end = Math.min(start + col, lex.src.length);
        for (int i = start; i < end; i++) {
            byte c = lex.src[i];
            if (c != ' ' && c != '\t' && c != '\f') return false;
        }
        return true;
    }

    /** The innermost function whose body lines [bodyStart, endLine] hold lines [from, to], or null. */
    Def innermostFunctionHolding(int from, int to) {
        Def best = null;
        for (Def d : functions) {
            if (d.bodyStart < 0 || from < d.bodyStart || to > d.endLine) continue;
            if (best == null || best.encloses(d)) best = d;
        }
        return best;
    }

    /** The dump with every line number moved by delta. */
    static String shiftLines(String dump, int delta) {
        if (delta == 0) return dump;
        StringBuilder out = new StringBuilder(dump.length() + 16);
        for (String line : dump.split("\n", -1)) {
            if (line.isEmpty()) continue;
            // DEPTH TYPE L:C-EL:EC [DETAIL]
            String[] f = line.split(" ", 4);
            int colon = f[2].indexOf(':'), dash = f[2].indexOf('-'), colon2 = f[2].indexOf(':', dash);
            int l = Integer.parseInt(f[2].substring(0, colon)) + delta;
            int el = Integer.parseInt(f[2].substring(dash + 1, colon2)) + delta;
            out.append(f[0]).append(' ').append(f[1]).append(' ').append(l).append(f[2], colon, dash + 1)
               .append(el).append(f[2].substring(colon2));
            if (f.length > 3) out.append(' ').append(f[3]);
            out.append('\n');
        }
        return out.toString();
    }

    /** "line K: expected ... / actual ..." for the first line where two dumps differ, or null. */
    static String firstDifference(String expected, String actual) {
        String[] e = expected.split("\n"), a = actual.split("\n");
        for (int i = 0; i < Math.max(e.length, a.length); i++) {
            String x = i < e.length ? e[i] : "<end>", y = i < a.length ? a[i] : "<end>";
            if (!x.equals(y)) return "dump line " + (i + 1) + ": expected [" + x + "] got [" + y + "]";
        }
        return null;
    }
}
