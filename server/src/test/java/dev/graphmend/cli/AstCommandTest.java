package dev.graphmend.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.SyntaxError;
import dev.graphmend.ir.source.SourceText;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ast} with a fake parser: ordering under parallelism, error lines, exit codes. */
class AstCommandTest {
    /**
     * A stand-in parser: "BAD..." gives two syntax errors, "CRASH" throws, anything else gives one
     * {@code Pass} per line. Sleeps a little at random so that workers finish out of order.
     */
    static Function<byte[], ParseResult> fakeParser(Set<Thread> usedBy) {
        Object owner = new Object();
        return bytes -> {
            usedBy.add(Thread.currentThread());
            try {
                Thread.sleep(ThreadLocalRandom.current().nextInt(3));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            String text = new String(bytes, StandardCharsets.UTF_8);
            SourceText source = SourceText.of(text);
            if (text.startsWith("CRASH")) throw new IllegalStateException("boom " + owner.hashCode());
            if (text.startsWith("BAD")) {
                return new ParseResult(source, new Module(List.of(), List.of()), List.of(
                        new SyntaxError(2, 3, "bad thing"), new SyntaxError(4, 1, "worse\nthing")));
            }
            List<Stmt> body = new ArrayList<>();
            String[] lines = text.split("\n");
            for (int i = 0; i < lines.length; i++) {
                if (!lines[i].isEmpty()) body.add(new Stmt.Pass(new Span(i + 1, 0, i + 1, 4)));
            }
            return new ParseResult(source, new Module(body, List.of()), List.of());
        };
    }

    record Run(int code, String out, String err) {}

    static Run ast(int threads, Set<Thread> used, String... args) throws Exception {
        StringWriter out = new StringWriter();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new AstCommand(() -> fakeParser(used), threads)
                .run(List.of(args), out, new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void manyFilesInParallelComeOutInOrder(@TempDir Path dir) throws Exception {
        StringBuilder expected = new StringBuilder();
        List<String> args = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Path f = dir.resolve(String.format("f%03d.py", i));
            int n = i % 4;
            Files.writeString(f, "pass\n".repeat(n));
            args.add(f.toString());
            expected.append("== ").append(f).append('\n');
            for (int k = 1; k <= n; k++) expected.append("0 Pass ").append(k).append(":0-").append(k).append(":4\n");
        }
        Set<Thread> used = ConcurrentHashMap.newKeySet();
        Run r = ast(4, used, args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        assertEquals(expected.toString(), r.out());
        assertEquals("", r.err());
        assertTrue(used.size() > 1, "expected several worker threads, got " + used.size());
    }

    @Test
    void folderArgumentExpandsLikeTheDumper(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("pkg/sub"));
        Files.writeString(dir.resolve("pkg/b.py"), "pass\n");
        Files.writeString(dir.resolve("pkg/a.py"), "");
        Files.writeString(dir.resolve("pkg/sub/c.py"), "pass\npass\n");
        Files.writeString(dir.resolve("pkg/notes.txt"), "not python");
        Run r = ast(2, ConcurrentHashMap.newKeySet(), dir.resolve("pkg") + "/");
        String p = dir.resolve("pkg") + "/";
        assertEquals("== " + p + "a.py\n"
                + "== " + p + "b.py\n0 Pass 1:0-1:4\n"
                + "== " + p + "sub/c.py\n0 Pass 1:0-1:4\n0 Pass 2:0-2:4\n", r.out());
        assertEquals(0, r.code());
    }

    @Test
    void syntaxErrorsGiveOneLineEachAndExitOne(@TempDir Path dir) throws Exception {
        Path ok = dir.resolve("ok.py");
        Path bad = dir.resolve("bad.py");
        Files.writeString(ok, "pass\n");
        Files.writeString(bad, "BAD\n");
        Run r = ast(2, ConcurrentHashMap.newKeySet(), bad.toString(), ok.toString());
        assertEquals(1, r.code());
        assertEquals("== " + bad + "\n! syntax error 2:3 bad thing\n! syntax error 4:1 worse thing\n"
                + "== " + ok + "\n0 Pass 1:0-1:4\n", r.out());
        assertEquals("", r.err());
    }

    @Test
    void ioErrorWinsOverSyntaxErrorsAndIsReportedInOrder(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.py");
        Path ok = dir.resolve("ok.py");
        Files.writeString(bad, "BAD\n");
        Files.writeString(ok, "pass\n");
        String missing = dir.resolve("nope").toString();
        Run r = ast(2, ConcurrentHashMap.newKeySet(), bad.toString(), missing, ok.toString());
        assertEquals(2, r.code());
        assertTrue(r.out().startsWith("== " + bad + "\n"), r.out());
        assertTrue(r.out().endsWith("== " + ok + "\n0 Pass 1:0-1:4\n"), r.out());
        assertEquals("graphmend ast: " + missing + ": no such file or directory\n", r.err());
    }

    @Test
    void aDirectoryGivenAsAFileIsNotAnError(@TempDir Path dir) throws Exception {
        // An empty folder expands to nothing, like the dumper's os.walk.
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Run r = ast(2, ConcurrentHashMap.newKeySet(), empty.toString());
        assertEquals(0, r.code());
        assertEquals("", r.out());
    }

    @Test
    void unreadableFileIsAnIoError(@TempDir Path dir) throws Exception {
        Path locked = dir.resolve("locked.py");
        Files.writeString(locked, "pass\n");
        assertTrue(locked.toFile().setReadable(false, false));
        org.junit.jupiter.api.Assumptions.assumeFalse(Files.isReadable(locked), "running as a user who can read anything");
        Run r = ast(2, ConcurrentHashMap.newKeySet(), locked.toString());
        assertEquals(2, r.code());
        assertEquals("", r.out());
        assertTrue(r.err().contains(locked + ": cannot read file: permission denied"), r.err());
    }

    @Test
    void aParserCrashIsReportedAndTheRestGoesOn(@TempDir Path dir) throws Exception {
        Path crash = dir.resolve("crash.py");
        Path ok = dir.resolve("ok.py");
        Files.writeString(crash, "CRASH\n");
        Files.writeString(ok, "pass\n");
        Run r = ast(2, ConcurrentHashMap.newKeySet(), crash.toString(), ok.toString());
        assertEquals(2, r.code());
        assertTrue(r.out().startsWith("== " + crash + "\n! internal error java.lang.IllegalStateException: boom"), r.out());
        assertTrue(r.out().endsWith("== " + ok + "\n0 Pass 1:0-1:4\n"), r.out());
        assertTrue(r.err().contains(crash + ": internal error"), r.err());
    }
}
