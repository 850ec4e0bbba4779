package dev.graphmend.passes.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.document.PythonDocument;
import dev.graphmend.passes.FixAll;
import dev.graphmend.passes.config.AnalysisConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A form feed in a line's indentation resets the column (CPython's tokenizer): a line starting
 * {@code "\f    "} sits at column 4. A fix that writes new lines at a statement's indentation
 * wrote them at column 0 there, which moved the rest of the function out of it (the adversarial
 * finding: "a form feed at the start of a line moved a return to column 0").
 */
class FormFeedIndentationTest {
    @Test
    void newLinesTakeTheColumnAfterTheFormFeed() {
        String text = "import logging\nimport torch\n\nlogger = logging.getLogger(__name__)\n\n\n"
                + "@torch.compile\ndef f(x):\n    y = x + 1\n\f    logger.warning(\"a %s\", 1)\n\f    return y\n";
        FixAll.Result r = FixAll.apply(Path.of("ff.py"), text, AnalysisConfig.defaults(), List.of());
        assertFalse(r.applied().isEmpty(), "a fix applies: " + r.declined());
        assertTrue(PythonDocument.open(r.text(), 0).errors().isEmpty(), "the fixed file does not parse:\n" + r.text());
        assertTrue(r.text().contains("\f    return y\n"), r.text());
    }

    @Test
    void theIndentationOfALineIsWhatFollowsItsLastFormFeed() {
        SourceText src = SourceText.of(dev.graphmend.passes.ProjectLoader.module(Path.of("ff.py"), "ff.py",
                "def f():\n\f    x = 1\n  \f  y = 2\n\tz = 3\n"));
        assertEquals("    ", src.indentation(2));
        assertEquals("  ", src.indentation(3));
        assertEquals("\t", src.indentation(4));
    }
}
