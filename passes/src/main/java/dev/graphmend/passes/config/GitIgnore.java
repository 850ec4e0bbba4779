package dev.graphmend.passes.config;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Which of a walk's files git ignores ({@code .gitignore} at any depth, {@code .git/info/exclude},
 * the user's global excludes), as ruff leaves them out. git itself answers ({@code git
 * check-ignore --stdin -z}), so every rule of its format is git's own; when git is missing, or the
 * folder is not in a work tree, nothing is ignored (README.md, "Which files are read").
 */
public final class GitIgnore {
    private GitIgnore() {}

    /** The files among {@code files} (all below {@code folder}) that git ignores; empty when git cannot tell. */
    public static Set<Path> ignored(Path folder, Collection<Path> files) {
        if (files.isEmpty()) return Set.of();
        String top = run(folder, List.of("rev-parse", "--show-toplevel"), null);
        if (top == null || top.isBlank()) return Set.of();
        Path root = Path.of(top.trim()).toAbsolutePath().normalize();
        List<Path> inside = new ArrayList<>();
        StringBuilder in = new StringBuilder();
        for (Path f : files) {
            Path abs = f.toAbsolutePath().normalize();
            if (!abs.startsWith(root)) continue; // outside the work tree: git would refuse the whole batch
            inside.add(abs);
            in.append(root.relativize(abs)).append('\0');
        }
        if (inside.isEmpty()) return Set.of();
        String out = run(root, List.of("check-ignore", "--stdin", "-z"), in.toString());
        if (out == null) return Set.of();
        Set<Path> ignored = new HashSet<>();
        for (String p : out.split("\0")) if (!p.isEmpty()) ignored.add(root.resolve(p).normalize());
        return ignored;
    }

    /** git's standard output, or null when it cannot run or fails (exit 1 of check-ignore, "none ignored", is an answer). */
    private static String run(Path dir, List<String> args, String stdin) {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(args);
        try {
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            Thread feeder = null;
            if (stdin != null) {
                byte[] bytes = stdin.getBytes(StandardCharsets.UTF_8);
                // fed from another thread: git answers while it reads, and a full pipe would block both
                feeder = new Thread(() -> {
                    try (OutputStream o = p.getOutputStream()) {
                        o.write(bytes);
                    } catch (IOException e) {
                        // git exited early; its exit status tells
                    }
                }, "graphmend-git-stdin");
                feeder.start();
            } else {
                p.getOutputStream().close();
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (InputStream i = p.getInputStream()) {
                i.transferTo(out);
            }
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            if (feeder != null) feeder.join(1000);
            int code = p.exitValue();
            if (code != 0 && !(code == 1 && args.get(0).equals("check-ignore"))) return null;
            return out.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null; // no git
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
