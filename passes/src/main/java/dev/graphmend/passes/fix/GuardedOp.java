package dev.graphmend.passes.fix;

import dev.graphmend.passes.model.Diagnostic;
import java.util.List;

/**
 * The module-level definition of an ordered custom op ({@code graphmend::log}, {@code graphmend::warn})
 * that an in-graph rewrite calls: added once per file, guarded by {@code hasattr(torch.ops.graphmend, …)}
 * so that the first file imported registers the op and the others (or a reload) find it.
 */
public final class GuardedOp {
    private GuardedOp() {}

    /** The op names the module's text already quotes ({@code "graphmend::log"}): their definitions are there. */
    private static final dev.graphmend.passes.analysis.SourceModule.Derived<java.util.Set<String>> DEFINED =
            new dev.graphmend.passes.analysis.SourceModule.Derived<>("graphmend ops quoted in the text", m -> {
                java.util.Set<String> out = new java.util.HashSet<>();
                String text = m.ir().document().text();
                for (int at = text.indexOf("\"graphmend::"); at >= 0; at = text.indexOf("\"graphmend::", at + 1)) {
                    int close = text.indexOf('"', at + 1);
                    if (close > 0) out.add(text.substring(at + 1, close));
                }
                return out;
            });

    /**
     * Adds the definition after line {@code after} unless the file has it; returns the line that
     * {@code callLine} has once the edits are applied (the record or warning names it).
     */
    static int define(FixSite site, String qualifiedName, int after, String definition, int callLine,
                      List<Diagnostic.Edit> edits) {
        if (site.module().derived(DEFINED).contains(qualifiedName)) return callLine;
        // never between imports: code there makes the imports after it E402 and the block unsorted (I001);
        // a blank line first, as isort (I001) wants after an import block
        after = Math.max(after, site.source().lastImportLine());
        String text = after == 0 || site.source().lines().lineText(after).isBlank() ? definition : "\n" + definition;
        edits.add(site.source().insertLinesAfter(after, text));
        return after < callLine ? callLine + (int) text.chars().filter(ch -> ch == '\n').count() + 1 : callLine;
    }

    /** The guard, the custom_op decorator and the registration around a body (its lines indented by 4). */
    static String definition(String torch, String qualifiedName, String comment, String signature, List<String> body) {
        String op = qualifiedName.substring(qualifiedName.indexOf(':') + 2);
        StringBuilder b = new StringBuilder();
        b.append("if not hasattr(").append(torch).append(".ops.graphmend, \"").append(op).append("\"):\n");
        for (String c : comment.split("\n")) b.append("    # ").append(c).append('\n');
        b.append("    @").append(torch).append(".library.custom_op(\"").append(qualifiedName).append("\", mutates_args=())\n");
        b.append("    def _graphmend_").append(op).append(signature).append(":\n");
        for (String l : body) b.append(l.isEmpty() ? "" : "        " + l).append('\n');
        b.append('\n');
        b.append("    _graphmend_").append(op).append(".register_fake(lambda *args: None)\n");
        b.append("    ").append(torch).append(".library._register_effectful_op(\"").append(qualifiedName).append("\", ")
                .append(torch).append("._library.effects.EffectType.ORDERED)");
        return b.toString();
    }

    /** A call of one of these ops (possibly over several lines), up to the line number it passes after {@code __file__}. */
    private static final java.util.regex.Pattern CALL_LINE = java.util.regex.Pattern.compile(
            "\\.ops\\.graphmend\\.(?:log|warn)(?:_if)?\\((?:(?!\\.ops\\.graphmend\\.).)*?, __file__, (\\d+)",
            java.util.regex.Pattern.DOTALL);

    /**
     * The text with every op call's line number set to the line the call starts on (where Python
     * reports a call spanning lines). A quick fix knows its own line; fix-all applies several fixes a
     * round, and another one's lines above (an inserted definition, a rewrite that joins lines) move
     * the call after the number was written.
     */
    public static String renumbered(String text) {
        java.util.regex.Matcher m = CALL_LINE.matcher(text);
        StringBuilder out = new StringBuilder();
        int last = 0, line = 1, counted = 0;
        while (m.find()) {
            for (int i = counted; i < m.start(); i++) if (text.charAt(i) == '\n') line++;
            counted = m.start();
            out.append(text, last, m.start(1)).append(line);
            last = m.end(1);
        }
        return last == 0 ? text : out.append(text, last, text.length()).toString();
    }
}
