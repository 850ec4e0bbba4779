package dev.graphmend.passes.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GuardedOpTest {
    @Test
    void everyOpCallCarriesTheLineItStartsOn() {
        String text = String.join("\n",
                "import torch",
                "def f(x):",
                "    torch.ops.graphmend.log(__name__, \"warning\", \"a\", __file__, 99, \"f\")",
                "    torch.ops.graphmend.log(__name__, \"warning_once\", \"b\"",
                "                            \"c\", __file__, 1, \"f\")",
                "    th.ops.graphmend.warn(\"d\", \"FutureWarning\", __name__, __file__, 6)",
                "    torch.ops.graphmend.warn(\"e\", \"UserWarning\", __name__, __file__, 3)",
                "");
        String expected = text.replace("__file__, 99", "__file__, 3").replace("__file__, 1,", "__file__, 4,")
                .replace("__file__, 3)", "__file__, 7)");
        assertEquals(expected, GuardedOp.renumbered(text));
        assertEquals(expected, GuardedOp.renumbered(expected));
    }
}
