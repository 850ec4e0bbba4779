package dev.graphmend.passes.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.passes.Analyzer;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.config.AnalysisConfig;
import dev.graphmend.passes.model.Diagnostic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GM205 beyond what fixtures/GM205.py's markers can say (they compare sets of codes per line):
 * {@code scaler.scale(loss).backward()} is one diagnostic, at the scale call where Dynamo stops,
 * and each message names the evidence it rests on.
 */
class TrainingStepCallTest {
    private static final String STEP = String.join("\n",
            "import torch",
            "",
            "@torch.compile",
            "def step(model, x, scaler, optimizer):",
            "    loss = model(x).sum()",
            "    scaler.scale(loss).backward()",
            "    scaler.step(optimizer)",
            "    optimizer.step()",
            "    return loss",
            "");

    @Test
    void aScaledBackwardIsOneDiagnosticAtTheScaleCall(@TempDir Path dir) throws IOException {
        Path p = dir.resolve("train.py");
        Files.writeString(p, STEP);
        ProjectLoader.Loaded loaded = ProjectLoader.load(List.of(new ProjectLoader.Input(p, "train.py")), AnalysisConfig.defaults());
        List<Diagnostic> found = Analyzer.analyze(loaded.project()).values().stream().flatMap(List::stream)
                .filter(d -> d.code().equals("GM205"))
                .sorted(java.util.Comparator.comparingInt(d -> d.span().line())).collect(Collectors.toList());
        assertEquals(List.of(6, 7, 8), found.stream().map(d -> d.span().line()).collect(Collectors.toList()),
                found.stream().map(Diagnostic::message).collect(Collectors.joining("\n")));
        assertTrue(found.get(0).message().startsWith("Training step in a compiled function: scaler.scale(...) (named `scaler`;"),
                found.get(0).message());
        assertTrue(found.get(2).message().contains("optimizer.step() (named `optimizer`; the analysis cannot see what it is)"),
                found.get(2).message());
    }
}
