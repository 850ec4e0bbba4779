package dev.graphmend.cli;

import dev.graphmend.ir.concurrent.DeepStack;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * The {@code graphmend} command line (docs/cli.md).
 *
 * <p>Argument handling is written by hand: there are five subcommands and, so far, only
 * {@code ast} takes arguments (paths), so a CLI library would add a dependency to the shaded jar
 * and to start-up time without removing much code. Revisit when {@code check}/{@code fix} bring
 * their options.
 */
public final class Main {
    static final int EXIT_OK = 0;
    /** {@code check}: diagnostics found; {@code ast}: some file has syntax errors. */
    static final int EXIT_FOUND = 1;
    static final int EXIT_USAGE = 2;

    static final String USAGE = "usage: graphmend <command> [options] [PATH...]\n"
            + "\n"
            + "Finds code that makes torch.compile (TorchDynamo) break its graph, and fixes it.\n"
            + "\n"
            + "commands:\n"
            + "  check [options] PATH...\n"
            + "                 report graph breaks in files and folders (--output-format full|concise|json|sarif,\n"
            + "                 --select/--ignore CODES, --exit-zero, --quiet, ...)\n"
            + "  fix [options] PATH...\n"
            + "                 apply the legal fixes to a fixed point (--diff: show, write nothing;\n"
            + "                 --unsafe-fixes, --select/--ignore CODES, ...)\n"
            + "  lsp            run the language server on stdio (LSP 3.17) [--debounce-ms N]\n"
            + "  ast PATH...    print the gm-ast-v1 dump of each Python file (folders: *.py, recursively)\n"
            + "  rule CODE      show a rule's documentation, e.g. 'graphmend rule GM101'\n"
            + "\n"
            + "'graphmend COMMAND --help' lists every option of a command.\n"
            + "\n"
            + "options:\n"
            + "  -h, --help     show this help\n"
            + "  --version      show the version\n"
            + "\n"
            + "exit status: 0 ok, 1 found something (graph breaks; for 'ast', syntax errors),\n"
            + "             2 usage or I/O error\n";

    static final String LSP_USAGE = "usage: graphmend lsp [--stdio] [--debounce-ms N]\n"
            + "  Runs the language server (LSP 3.17) on standard input and output.\n"
            + "  --stdio            the transport (the only one; accepted for editors that pass it)\n"
            + "  --debounce-ms N    milliseconds to wait after an edit before analysing\n"
            + "  -h, --help         show this help\n";

    private static final List<String> NOT_YET = List.of();

    /** {@code graphmend lsp --help}: answered here, not by the server, which would take it as an error. */
    private static boolean isHelp(String[] args) {
        for (int i = 1; i < args.length; i++) if (args[i].equals("-h") || args[i].equals("--help")) return true;
        return false;
    }

    private Main() {}

    public static void main(String[] args) {
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        // Not System.out: a PrintStream swallows write errors, and a failed write must be seen.
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        // the work runs on a thread with the front end's fixed stack: a verdict never depends on -Xss (DeepStack)
        int code = DeepStack.call("graphmend-main", () -> run(args, out, err));
        err.flush();
        System.exit(code);
    }

    /** Runs one command line; returns the exit status. Output is UTF-8. */
    public static int run(String[] args, OutputStream stdout, PrintStream err) {
        return run(args, System.in, stdout, err);
    }

    /** As {@link #run(String[], OutputStream, PrintStream)}, with the standard input {@code check -} reads. */
    public static int run(String[] args, java.io.InputStream stdin, OutputStream stdout, PrintStream err) {
        return run(args, stdin, stdout, err, System.getenv());
    }

    /**
     * As {@link #run(String[], InputStream, OutputStream, PrintStream)}, with the environment
     * {@code check} and {@code fix} read ({@code VIRTUAL_ENV}, {@code GRAPHMEND_PYTHON_PATH}: where
     * the project's torch is installed); the language server reads the process's.
     */
    public static int run(String[] args, java.io.InputStream stdin, OutputStream stdout, PrintStream err,
                          java.util.Map<String, String> environment) {
        if (args.length > 0 && args[0].equals("lsp") && !isHelp(args)) {
            // the protocol needs the raw streams, not the buffered text writer below
            return dev.graphmend.lsp.LspMain.run(Arrays.asList(args).subList(1, args.length), stdin, stdout, err);
        }
        Stdout out = new Stdout(stdout);
        try {
            int code = dispatch(args, stdin, out, err, environment);
            out.flush();
            return code;
        } catch (IOException e) {
            String msg = e.getMessage();
            // `graphmend ast big/ | head` closes the pipe early: nothing to report.
            if (msg == null || !msg.contains("Broken pipe")) {
                err.println("graphmend: cannot write output: " + (msg == null ? e : msg));
            }
            return EXIT_USAGE;
        }
    }

    private static int dispatch(String[] args, java.io.InputStream stdin, Stdout out, PrintStream err,
                                java.util.Map<String, String> environment) throws IOException {
        if (args.length == 0) {
            err.print(USAGE);
            return EXIT_USAGE;
        }
        String command = args[0];
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        switch (command) {
            case "-h":
            case "--help":
            case "help":
                out.write(USAGE);
                return EXIT_OK;
            case "-V":
            case "--version":
                out.write("graphmend " + version() + "\n");
                return EXIT_OK;
            case "ast":
                return new AstCommand().run(rest, out, err);
            case "check":
                return new CheckCommand(stdin, environment).run(rest, out, err);
            case "lsp": // only for --help: the server itself is run above
                out.write(LSP_USAGE);
                return EXIT_OK;
            case "rule":
                return new RuleCommand().run(rest, out, err);
            case "fix":
                return new FixCommand(environment).run(rest, out, err);
            default:
                if (NOT_YET.contains(command)) {
                    err.println("graphmend: the '" + command + "' command is not implemented yet"
                            + " (so far only 'ast' is; see 'graphmend --help')");
                    return EXIT_USAGE;
                }
                err.print("graphmend: unknown command '" + command + "'\n\n" + USAGE);
                return EXIT_USAGE;
        }
    }

    /** The project version, from the Maven descriptor that the jar carries. */
    static String version() {
        String resource = "/META-INF/maven/dev.graphmend/graphmend-server/pom.properties";
        try (InputStream in = Main.class.getResourceAsStream(resource)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isBlank()) return v;
            }
        } catch (IOException ignored) {
            // fall through
        }
        return "(development build)";
    }
}
