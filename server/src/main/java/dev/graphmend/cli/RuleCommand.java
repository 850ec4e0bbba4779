package dev.graphmend.cli;

import dev.graphmend.passes.registry.RuleRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/** {@code graphmend rule GM101}: prints the rule's page (docs/rules/GM101.md, carried in the jar). */
final class RuleCommand {
    private static final List<String> CODES = RuleRegistry.codes();

    int run(List<String> args, Writer out, PrintStream err) throws IOException {
        if (args.size() == 1 && (args.get(0).equals("-h") || args.get(0).equals("--help"))) {
            out.write("usage: graphmend rule CODE\n  Prints the documentation of a rule (" + String.join(", ", CODES) + ").\n");
            return Main.EXIT_OK;
        }
        if (args.size() != 1) {
            err.println("graphmend rule: give one rule code, e.g. 'graphmend rule GM101' (rules: " + String.join(", ", CODES) + ")");
            return Main.EXIT_USAGE;
        }
        String code = args.get(0).trim().toUpperCase(Locale.ROOT);
        String page = page(code);
        if (page == null) {
            err.println("graphmend rule: unknown rule '" + args.get(0) + "' (rules: " + String.join(", ", CODES) + ")");
            return Main.EXIT_USAGE;
        }
        out.write(page);
        if (!page.endsWith("\n")) out.write("\n");
        return Main.EXIT_OK;
    }

    static String page(String code) throws IOException {
        if (!CODES.contains(code)) return null;
        try (InputStream in = RuleCommand.class.getResourceAsStream("/dev/graphmend/rules/" + code + ".md")) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
