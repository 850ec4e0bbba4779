package dev.graphmend.lsp;

import dev.graphmend.ir.source.SourceText;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.FileSelection;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The Python files of the workspace folders, parsed, so the analysis of an open document can
 * follow calls into the other files of the project (docs/compile-regions.md). Open documents are not
 * read from disk: the server gives the engine their editor text instead.
 */
final class WorkspaceIndex {
    static final int MAX_FILES = 5000;

    interface Progress {
        void report(int done, int total);
    }

    private final Map<Path, SourceModule> modules = new ConcurrentHashMap<>();

    /** Lists the Python files under the folders, what the default selection leaves out skipped, sorted. */
    static List<Path> pythonFiles(Collection<Path> roots) {
        return pythonFiles(roots, root -> FileSelection.defaults().withRoot(root));
    }

    /** Lists the Python files under the folders, what each folder's selection (its pyproject.toml's) leaves out skipped, as `check` does. */
    static List<Path> pythonFiles(Collection<Path> roots, java.util.function.Function<Path, FileSelection> selectionFor) {
        List<Path> out = new ArrayList<>();
        for (Path root : roots) {
            if (!Files.isDirectory(root)) continue;
            FileSelection selection = selectionFor.apply(root);
            int from = out.size();
            try {
                Files.walkFileTree(root, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                        if (!dir.equals(root) && selection.skipsFolder(dir)) {
                            return FileVisitResult.SKIP_SUBTREE;
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        if (attrs.isRegularFile() && file.toString().endsWith(".py") && !selection.skipsFile(file)) {
                            out.add(file.toAbsolutePath().normalize());
                        }
                        return out.size() >= MAX_FILES ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException exc) {
                        return FileVisitResult.CONTINUE;
                    }
                });
            } catch (IOException e) {
                // an unreadable folder: index what could be read
            }
            // what git ignores is left out, as `check` leaves it out
            java.util.Set<Path> ignored = dev.graphmend.passes.config.GitIgnore.ignored(root, out.subList(from, out.size()));
            if (!ignored.isEmpty()) out.subList(from, out.size()).removeIf(ignored::contains);
        }
        out.sort(null);
        return out;
    }

    /**
     * Parses the files, reporting progress; stops early (returning false) when {@code cancelled}
     * says so. Before each file {@code yieldTo} runs, so that work the user waits for (the
     * analysis of an open document) can go first; files {@code skip} accepts (open documents,
     * whose editor text stands in) are not read.
     */
    boolean index(List<Path> files, Progress progress, BooleanSupplier cancelled, Runnable yieldTo,
                  java.util.function.Predicate<Path> skip) {
        int done = 0;
        for (Path f : files) {
            if (cancelled.getAsBoolean()) return false;
            yieldTo.run();
            if (!skip.test(f)) update(f);
            done++;
            if (progress != null) progress.report(done, files.size());
        }
        return true;
    }

    /** (Re-)reads one file; a file that cannot be read or decoded is dropped from the index. */
    void update(Path file) {
        Path f = file.toAbsolutePath().normalize();
        try {
            SourceText text = SourceText.decode(Files.readAllBytes(f));
            if (!dev.graphmend.ir.parse.CompileProblems.undecodable(text).isEmpty()) {
                modules.remove(f);
                changed();
                return;
            }
            modules.put(f, ProjectLoader.module(f, f.toString(), text.text()));
        } catch (IOException | RuntimeException e) {
            modules.remove(f);
        }
        changed();
    }

    void remove(Path file) {
        modules.remove(file.toAbsolutePath().normalize());
        changed();
    }

    boolean contains(Path file) {
        return modules.containsKey(file.toAbsolutePath().normalize());
    }

    int size() { return modules.size(); }

    /** The indexed modules, except those of the given files (open documents stand in for them). */
    List<SourceModule> modulesExcept(Set<Path> except) {
        Sorted known = sorted;
        long gen = generation.get();
        Filtered last = filtered;
        // the same index and the same open files: the list of the last keystroke (2,913 paths tested each time otherwise)
        if (last != null && last.generation() == gen && last.except().equals(except)) return last.modules();
        List<Map.Entry<Path, SourceModule>> all;
        if (known != null && known.generation() == gen) {
            all = known.entries();
        } else {
            // sorted once per change of the index, not at every keystroke (thousands of paths)
            List<Map.Entry<Path, SourceModule>> list = new ArrayList<>();
            for (Map.Entry<Path, SourceModule> e : modules.entrySet()) list.add(Map.entry(e.getKey(), e.getValue()));
            list.sort((a, b) -> a.getValue().path().compareTo(b.getValue().path()));
            all = List.copyOf(list);
            sorted = new Sorted(gen, all); // stamped with the generation read before: a change meanwhile outdates it
        }
        List<SourceModule> out = new ArrayList<>(all.size());
        for (Map.Entry<Path, SourceModule> e : all) if (!except.contains(e.getKey())) out.add(e.getValue());
        List<SourceModule> kept = java.util.Collections.unmodifiableList(out);
        filtered = new Filtered(gen, Set.copyOf(except), kept);
        return kept;
    }

    /** The last answer of {@link #modulesExcept}, valid while the generation it was read at is the current one. */
    private record Filtered(long generation, Set<Path> except, List<SourceModule> modules) {}

    private volatile Filtered filtered;

    /** The index as a list sorted by path, valid while the generation it was read at is the current one. */
    private record Sorted(long generation, List<Map.Entry<Path, SourceModule>> entries) {}

    private volatile Sorted sorted;
    private final java.util.concurrent.atomic.AtomicLong generation = new java.util.concurrent.atomic.AtomicLong();

    /** Called after every change of {@code modules}. */
    private void changed() {
        generation.incrementAndGet();
    }
}
