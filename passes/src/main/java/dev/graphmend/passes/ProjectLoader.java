package dev.graphmend.passes;

import dev.graphmend.ir.concurrent.DeepStack;
import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.ir.document.UniIR;
import dev.graphmend.ir.parse.CompileProblems;
import dev.graphmend.ir.source.DecodeProblem;
import dev.graphmend.ir.source.SourceText;
import dev.graphmend.ir.symbols.Workspace;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.config.AnalysisConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads and parses a set of files into a {@link Project}, in parallel. Each file gets its
 * dotted module name from the package it sits in (the nearest ancestor folder without an
 * {@code __init__.py} is the source root), so relative and absolute imports between the files
 * resolve. A file that cannot be read or decoded is listed as a problem; the others still load.
 */
public final class ProjectLoader {
    private ProjectLoader() {}

    /** A file that could not be loaded, with a message for the user. */
    public record Problem(String path, String message) {}

    /**
     * What to tell a user whose file does not decode: where, CPython's own words, and what to do
     * (Python reads source as UTF-8 unless a PEP 263 coding line says otherwise).
     */
    static String undecodable(DecodeProblem p) {
        String where = "cannot decode line " + p.line() + ", column " + p.column() + ": " + p.message();
        if (p.message().contains("'utf-8' codec")) {
            return where + " (Python reads source as UTF-8: save the file as UTF-8, or declare its encoding on the"
                    + " first or second line, e.g. '# -*- coding: latin-1 -*-')";
        }
        return where + " (the file's coding declaration names this encoding: fix the declaration or the bytes)";
    }

    public record Loaded(Project project, List<Problem> problems) {}

    /**
     * One file to load: where it is, the path to show for it, and its bytes when they do not come
     * from the file ({@code check -} reads standard input); null reads the file.
     */
    public record Input(Path file, String shownPath, byte[] content) {
        public Input(Path file, String shownPath) { this(file, shownPath, null); }
    }

    public static Loaded load(List<Input> inputs, AnalysisConfig config) {
        Object[] results = new Object[inputs.size()];
        DeepStack.forEach(inputs.size(), i -> results[i] = loadOne(inputs.get(i)));
        List<SourceModule> modules = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        for (Object r : results) {
            if (r instanceof SourceModule m) modules.add(m);
            else problems.add((Problem) r);
        }
        return new Loaded(new Project(modules, config), problems);
    }

    private static Object loadOne(Input in) {
        byte[] bytes;
        try {
            bytes = in.content() != null ? in.content() : Files.readAllBytes(in.file());
        } catch (IOException | SecurityException e) {
            return new Problem(in.shownPath(), "cannot read: " + describe(e));
        }
        SourceText text = SourceText.decode(bytes);
        List<DecodeProblem> problems = CompileProblems.undecodable(text);
        if (!problems.isEmpty()) {
            return new Problem(in.shownPath(), undecodable(problems.get(0)));
        }
        return module(in.file(), in.shownPath(), text.text());
    }

    /** A module of the given text, named after the file's place in its package. */
    public static SourceModule module(Path file, String shownPath, String text) {
        UniIR ir = UniIR.ofUnedited(PythonDocument.open(text, 0)); // never edited: no replay records
        Path abs = file.toAbsolutePath().normalize();
        Path root = sourceRoot(abs);
        return new SourceModule(shownPath, Workspace.moduleName(root, abs), Workspace.isPackage(abs), ir);
    }

    /** The nearest ancestor folder that is not a package (has no __init__.py). */
    static Path sourceRoot(Path file) {
        Path dir = file.getParent();
        while (dir != null && Files.isRegularFile(dir.resolve("__init__.py")) && dir.getParent() != null) {
            dir = dir.getParent();
        }
        return Objects.requireNonNullElse(dir, file.getParent());
    }

    private static String describe(Exception e) {
        String m = e.getMessage();
        if (e instanceof java.nio.file.NoSuchFileException) return "no such file";
        if (e instanceof java.nio.file.AccessDeniedException) return "permission denied";
        return m == null ? e.getClass().getSimpleName() : m;
    }
}
