package dev.graphmend.cli;

import dev.graphmend.ir.concurrent.DeepStack;
import dev.graphmend.ir.dump.GmAstDump;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import dev.graphmend.ir.parse.SyntaxError;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code graphmend ast PATH...}: the gm-ast-v1 dump (docs/gm-ast-v1.md) of each file, in the same
 * shape as {@code tools/gm_ast_dump.py} prints it, so the two can be compared line for line.
 *
 * <p>Files are parsed in parallel (one parser per worker thread, since a parser is not
 * thread-safe) and printed in command-line order. Exit status: 0 when every file parsed, 1 when
 * any file has syntax errors, 2 on a usage or I/O error (which wins over 1).
 */
final class AstCommand {
    static final String USAGE = "usage: graphmend ast PATH...\n"
            + "  Prints '== PATH' and then the gm-ast-v1 dump of each Python file, or one line\n"
            + "  '! syntax error L:C message' per syntax error. Folders expand recursively to\n"
            + "  their *.py files in sorted order (as tools/gm_ast_dump.py expands them).\n"
            + "  Exit status: 0 all files parsed, 1 some file has syntax errors, 2 usage or I/O error.\n";

    private final Supplier<Function<byte[], ParseResult>> parserFactory;
    private final int threads;

    AstCommand() {
        this(() -> new PythonSourceParser()::parse, Math.max(1, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * @param parserFactory makes one parse function per worker thread (each is used by one thread only)
     * @param threads number of worker threads
     */
    AstCommand(Supplier<Function<byte[], ParseResult>> parserFactory, int threads) {
        this.parserFactory = parserFactory;
        this.threads = threads;
    }

    /** What one file produced. {@code text} is null when the file could not be read. */
    private record FileResult(String path, String text, boolean syntaxErrors, String ioProblem, String crash) {}

    int run(List<String> args, Writer out, PrintStream err) throws IOException {
        List<String> paths = new ArrayList<>();
        boolean endOfOptions = false;
        for (String a : args) {
            if (!endOfOptions && a.equals("--")) {
                endOfOptions = true;
            } else if (!endOfOptions && (a.equals("-h") || a.equals("--help"))) {
                out.write(USAGE);
                out.flush();
                return Main.EXIT_OK;
            } else if (!endOfOptions && a.startsWith("-") && a.length() > 1) {
                err.print("graphmend ast: unknown option '" + a + "'\n" + USAGE);
                return Main.EXIT_USAGE;
            } else {
                paths.add(a);
            }
        }
        if (paths.isEmpty()) {
            err.print("graphmend ast: no PATH given\n" + USAGE);
            return Main.EXIT_USAGE;
        }

        List<PathExpander.Entry> entries = PathExpander.expand(paths);
        boolean ioError = false;
        boolean syntaxErrors = false;

        ThreadLocal<Function<byte[], ParseResult>> parser = ThreadLocal.withInitial(parserFactory);
        ExecutorService pool = Executors.newFixedThreadPool(threads, workerThreads());
        // A sliding window keeps the workers busy while bounding how much output waits in memory.
        int window = threads * 8;
        ArrayDeque<Future<FileResult>> pending = new ArrayDeque<>();
        try {
            for (PathExpander.Entry entry : entries) {
                if (!entry.ok()) {
                    // Report in order, after the files before it have been printed.
                    while (!pending.isEmpty()) {
                        FileResult r = take(pending.poll());
                        ioError |= emit(r, out, err);
                        syntaxErrors |= r.syntaxErrors();
                    }
                    out.flush();
                    err.println("graphmend ast: " + entry.path() + ": " + entry.problem());
                    ioError = true;
                    continue;
                }
                String path = entry.path();
                pending.add(pool.submit(() -> process(path, parser.get())));
                if (pending.size() >= window) {
                    FileResult r = take(pending.poll());
                    ioError |= emit(r, out, err);
                    syntaxErrors |= r.syntaxErrors();
                }
            }
            while (!pending.isEmpty()) {
                FileResult r = take(pending.poll());
                ioError |= emit(r, out, err);
                syntaxErrors |= r.syntaxErrors();
            }
            out.flush();
        } finally {
            pool.shutdownNow();
        }
        if (ioError) return Main.EXIT_USAGE;
        return syntaxErrors ? Main.EXIT_FOUND : Main.EXIT_OK;
    }

    /** Writes one file's output; returns true when the file was an error (I/O or internal). */
    private static boolean emit(FileResult r, Writer out, PrintStream err) throws IOException {
        if (r.text() != null) out.write(r.text());
        if (r.ioProblem() != null) {
            out.flush();
            err.println("graphmend ast: " + r.path() + ": " + r.ioProblem());
            return true;
        }
        if (r.crash() != null) {
            out.flush();
            err.println("graphmend ast: " + r.path() + ": internal error: " + r.crash());
            return true;
        }
        return false;
    }

    private static FileResult take(Future<FileResult> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("worker failed", e.getCause());
        }
    }

    private static FileResult process(String path, Function<byte[], ParseResult> parser) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(Paths.get(path));
        } catch (IOException | SecurityException e) {
            return new FileResult(path, null, false, "cannot read file: " + PathExpander.describe(e), null);
        } catch (OutOfMemoryError e) {
            return new FileResult(path, null, false, "file too large to read", null);
        }
        StringBuilder sb = new StringBuilder(256);
        sb.append("== ").append(path).append('\n');
        try {
            ParseResult result = parser.apply(bytes);
            if (result.hasErrors()) {
                for (SyntaxError e : result.errors()) {
                    sb.append("! syntax error ").append(e.line()).append(':').append(e.column())
                      .append(' ').append(oneLine(e.message())).append('\n');
                }
                return new FileResult(path, sb.toString(), true, null, null);
            }
            sb.append(GmAstDump.dump(result.module()));
            return new FileResult(path, sb.toString(), false, null, null);
        } catch (RuntimeException | StackOverflowError e) {
            // The parser promises never to throw; if it does, say so in both streams and go on.
            String what = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + oneLine(e.getMessage()));
            sb.setLength(0);
            sb.append("== ").append(path).append('\n').append("! internal error ").append(what).append('\n');
            return new FileResult(path, sb.toString(), false, null, what);
        }
    }

    private static String oneLine(String s) {
        if (s == null) return "";
        return s.replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
    }

    private static ThreadFactory workerThreads() {
        return DeepStack.factory("graphmend-ast", true);
    }
}
