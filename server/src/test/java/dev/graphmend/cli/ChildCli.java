package dev.graphmend.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code graphmend} run as a child process, as a shell runs it: in a folder of its own (so that
 * paths are relative, as a diff for {@code git apply} needs), with its real standard output (a
 * pipe, a file such as /dev/full, or a pipe whose reader has gone).
 */
final class ChildCli {
    record Result(int code, byte[] out, String err) {
        String outText() { return new String(out, StandardCharsets.UTF_8); }
    }

    private ChildCli() {}

    /** Standard output read whole. */
    static Result run(Path dir, String... args) throws Exception {
        return start(dir, ProcessBuilder.Redirect.PIPE, false, args);
    }

    /** Standard output sent to {@code file} (e.g. /dev/full). */
    static Result runTo(Path dir, Path file, String... args) throws Exception {
        return start(dir, ProcessBuilder.Redirect.to(file.toFile()), false, args);
    }

    /** Standard output a pipe whose reader closes it at once (as `| head -c0` would): every write fails. */
    static Result runIntoClosedPipe(Path dir, String... args) throws Exception {
        return start(dir, ProcessBuilder.Redirect.PIPE, true, args);
    }

    /** Standard output read whole, the JVM started with {@code jvmOptions} (none: a plain {@code java}, 1 MB thread stacks). */
    static Result runWithJvm(List<String> jvmOptions, Path dir, String... args) throws Exception {
        return start(jvmOptions, dir, ProcessBuilder.Redirect.PIPE, false, args);
    }

    private static Result start(Path dir, ProcessBuilder.Redirect stdout, boolean closeAtOnce, String... args) throws Exception {
        return start(List.of(), dir, stdout, closeAtOnce, args);
    }

    private static Result start(List<String> jvmOptions, Path dir, ProcessBuilder.Redirect stdout, boolean closeAtOnce,
                                String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(stdout).start();
        p.getOutputStream().close();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread drain = new Thread(() -> {
            try {
                p.getErrorStream().transferTo(err);
            } catch (IOException ignored) {
                // the child is gone
            }
        });
        drain.start();
        byte[] out = new byte[0];
        if (closeAtOnce) p.getInputStream().close();
        else if (stdout == ProcessBuilder.Redirect.PIPE) out = p.getInputStream().readAllBytes();
        if (!p.waitFor(600, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("graphmend " + String.join(" ", args) + " did not finish in 600 s");
        }
        drain.join();
        return new Result(p.exitValue(), out, err.toString(StandardCharsets.UTF_8));
    }

    /** Runs git in {@code dir}: its exit status and output, or an AssertionError "ORACLE NOT RUN: git: ..." without git. */
    static Result git(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("ORACLE NOT RUN: git: " + e.getMessage(), e);
        }
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) throw new AssertionError("git " + String.join(" ", args) + " did not finish");
        return new Result(p.exitValue(), out, "");
    }
}
