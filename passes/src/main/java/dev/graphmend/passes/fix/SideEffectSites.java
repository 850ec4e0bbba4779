package dev.graphmend.passes.fix;

import java.util.List;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;

/** The call statement a GM102 diagnostic sits on, and the module lines the GM102 transformations insert after. */
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
        String before = first.substring(0, Math.min(first.length(), site.source().charColumn(s.span().line(), s.span().col())));
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

    // ---- where a callee becomes available at module level (the GM102 rewrites insert after it) ----

    static int torchImportLine(FixSite site) {
        int line = importLine(site, "torch");
        return line > 0 ? line : site.source().importInsertionLine();
    }

    static int importLine(FixSite site, String module) {
        for (Stmt s : site.module().ir().module().body()) {
            if (s instanceof Stmt.Import imp) {
                for (var a : imp.names()) if (a.name().equals(module)) return s.span().endLine();
            }
        }
        return 0;
    }

    /**
     * The argument that names a module-level logger ({@code __name__} or a string literal in its single
     * {@code logger = logging.getLogger(...)} / {@code get_logger(...)} assignment), or null.
     */
    static Expr moduleLoggerName(FixSite site, Expr.Name n) {
        if (!isModuleLogger(site, n)) return null;
        for (Stmt.Assign a : site.module().topLevelAssignments(n.id())) {
            if (a.targets().size() == 1 && a.value() instanceof Expr.Call c && c.args().size() == 1 && c.keywords().isEmpty()) {
                Expr arg = c.args().get(0);
                if (arg instanceof Expr.Name an && an.id().equals("__name__")) return arg;
                if (arg instanceof Expr.Constant k && k.value() instanceof String) return arg;
            }
        }
        return null;
    }

    static boolean isModuleLogger(FixSite site, Expr.Name n) {
        return assignmentLine(site, n.id()) > 0
                && site.module().names().resolve(n) instanceof dev.graphmend.ir.symbols.Target.ModuleMember;
    }

    /** The last line of the single top-level assignment of {@code name}, or 0. */
    static int assignmentLine(FixSite site, String name) {
        List<Stmt.Assign> all = site.module().topLevelAssignments(name);
        return all.size() == 1 ? all.get(0).span().endLine() : 0;
    }
}
