package dev.graphmend.passes.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.config.AnalysisConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A project built from the last one ({@link Project#next}) keeps the classes of unchanged files,
 * except those whose inferred facts lead to a changed file's class, and rebuilds everything when
 * a changed file's top-level names or imports differ; its analysis equals a fresh project's.
 */
class ProjectNextTest {
    private static final AnalysisConfig CONFIG = AnalysisConfig.defaults();

    @org.junit.jupiter.api.io.TempDir
    static Path dir;

    /** A module of package {@code pkg} (its folder holds an {@code __init__.py}, so relative imports resolve). */
    private static SourceModule module(String name, String... lines) {
        try {
            Path pkg = java.nio.file.Files.createDirectories(dir.resolve("pkg"));
            if (!java.nio.file.Files.exists(pkg.resolve("__init__.py"))) java.nio.file.Files.writeString(pkg.resolve("__init__.py"), "");
            Path file = pkg.resolve(name + ".py");
            return ProjectLoader.module(file, file.toString(), String.join("\n", lines) + "\n");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static final String[] ENCODER = {
            "import torch.nn as nn",
            "",
            "class Encoder(nn.Module):",
            "    def forward(self, x):",
            "        if x.sum() > 0:",
            "            x = x * 2",
            "        return x",
            "",
            "class Unrelated(nn.Module):",
            "    def forward(self, x):",
            "        return x",
    };

    private static final String[] MODEL = {
            "import torch.nn as nn",
            "from .encoder import Encoder",
            "",
            "class Model(nn.Module):",
            "    def __init__(self):",
            "        super().__init__()",
            "        self.enc = Encoder()",
            "",
            "    def forward(self, x):",
            "        return self.enc(x)",
            "",
            "class Plain(nn.Module):",
            "    def forward(self, x):",
            "        print(x)",
            "        return x",
    };

    /** The same class definitions in the same order, and a count that agrees with the list. */
    private static void assertSameClasses(Project fresh, Project next) {
        List<ClassInfo> a = List.copyOf(fresh.classes()), b = List.copyOf(next.classes());
        assertEquals(a.size(), b.size(), "classes");
        for (int i = 0; i < a.size(); i++) assertSame(a.get(i).def(), b.get(i).def(), "class " + i);
        assertEquals(b.size(), next.classCount());
        assertEquals(a.size(), fresh.classCount());
    }

    @Test
    void keepsWhatDoesNotLeadToTheChangedFileAndAnalysesAsAFreshProject() {
        SourceModule init = module("__init__");
        SourceModule encoder = module("encoder", ENCODER);
        SourceModule model = module("model", MODEL);
        Project first = new Project(List.of(init, encoder, model), CONFIG);
        Analyzer.analyze(first); // infers attributes and submodules, which the next project may keep
        ClassInfo modelClass = first.classInfo(model.classes().get(0));
        ClassInfo plainClass = first.classInfo(model.classes().get(1));

        String[] edited = ENCODER.clone();
        edited[5] = "            x = x * 3"; // a body edit: same top-level names and imports
        SourceModule encoder2 = module("encoder", edited);
        Project next = Project.next(first, List.of(init, encoder2, model), CONFIG);
        assertSame(plainClass, next.classInfo(model.classes().get(1)), "a class that leads nowhere near the edit is kept");
        assertNotSame(modelClass, next.classInfo(model.classes().get(0)), "Model holds an Encoder: it is built again");
        assertEquals("pkg.model", model.moduleName());
        Project fresh = new Project(List.of(init, encoder2, model), CONFIG);
        assertEquals(Analyzer.analyze(fresh).get(model), Analyzer.analyze(next).get(model));
        assertEquals(Analyzer.analyze(fresh).get(encoder2), Analyzer.analyze(next).get(encoder2));
        assertSameClasses(fresh, next);

        // a class nested in a class body: the same top-level names, one class more (the count is carried)
        List<String> nested = new java.util.ArrayList<>(List.of(ENCODER));
        nested.addAll(9, List.of("    class Config:", "        depth = 2", ""));
        SourceModule encoder4 = module("encoder", nested.toArray(String[]::new));
        Project fourth = Project.next(next, List.of(init, encoder4, model), CONFIG);
        Project fresh4 = new Project(List.of(init, encoder4, model), CONFIG);
        assertEquals(fresh.classCount() + 1, fourth.classCount());
        assertSameClasses(fresh4, fourth);
        assertEquals(Analyzer.analyze(fresh4).get(encoder4), Analyzer.analyze(fourth).get(encoder4));

        String[] renamed = ENCODER.clone();
        renamed[8] = "class Other(nn.Module):"; // a top-level name changed: nothing is kept
        SourceModule encoder3 = module("encoder", renamed);
        Project third = Project.next(next, List.of(init, encoder3, model), CONFIG);
        assertEquals(0, third.keptClasses());
        assertSameClasses(new Project(List.of(init, encoder3, model), CONFIG), third);
        assertEquals(Analyzer.analyze(new Project(List.of(init, encoder3, model), CONFIG)).get(model),
                Analyzer.analyze(third).get(model));
    }
}
