package dev.graphmend.passes.fix;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;

/** The call statement a GM102 diagnostic sits on, shared by the GM102 transformations. */
final class SideEffectSites {
    private SideEffectSites() {}

    /** The expression statement whose value is exactly the reported call, or null (its result is used). */
    static Stmt.Expr statement(FixSite site) {
        if (!(site.at() instanceof Expr.Call c)) return null;
        Stmt s = site.statementOf(c);
        return s instanceof Stmt.Expr e && e.value() == c ? e : null;
    }

    /** Whether the statement is the only one on its line(s), so it can be wrapped or prefixed safely. */
    static boolean ownsItsLines(FixSite site, Stmt s) {
        String first = site.source().lines().lineText(s.span().line());
        String before = first.substring(0, Math.min(first.length(), site.source().indentation(s.span().line()).length()));
        String text = site.source().text(s);
        return first.strip().startsWith(text.split("\n")[0].strip()) && before.isBlank()
                && code(site, s.span().endLine()).strip().endsWith(lastLine(text).strip())
                && !hasSemicolonAfter(site, s);
    }

    /** A line without its comment. */
    private static String code(FixSite site, int line) {
        String l = site.source().lines().lineText(line);
        int c = dev.graphmend.passes.analysis.Suppressions.commentStart(l, new String[1]);
        return c < 0 ? l : l.substring(0, c);
    }

    private static String lastLine(String text) {
        int nl = text.lastIndexOf('\n');
        return nl < 0 ? text : text.substring(nl + 1);
    }

    private static boolean hasSemicolonAfter(FixSite site, Stmt s) {
        String code = code(site, s.span().endLine());
        return code.strip().endsWith(";") || code.contains(";") && !site.source().text(s).contains(";");
    }
}
