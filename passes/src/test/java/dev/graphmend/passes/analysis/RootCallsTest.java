package dev.graphmend.passes.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.ProjectLoader;
import dev.graphmend.passes.config.AnalysisConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The parameters a program's calls of a compiled object leave None (docs/compile-regions.md,
 * "Calls of the compiled object"), and the uses that make the calls unknowable. The verdict
 * that follows from them is checked against Dynamo by fixtures/modes.py.
 */
class RootCallsTest {
    private static final String MODEL = String.join("\n",
            "import torch",
            "from torch import nn",
            "",
            "class Net(nn.Module):",
            "    def forward(self, x, pixels=None, mask=None, scale=1.0):",
            "        return x",
            "",
            "");

    /** The parameter names every call leaves None, sorted; "unknown" when nothing is narrowed. */
    private static String noneAtCalls(String program) {
        SourceModule m = ProjectLoader.module(Path.of("prog.py"), "prog.py", MODEL + program);
        Project project = new Project(List.of(m), AnalysisConfig.defaults());
        List<Node> all = new ArrayList<>();
        collect(m.ir().module(), all);
        Expr.Call compile = null;
        FunctionRef forward = null;
        for (Node n : all) {
            if (n instanceof Expr.Call c && c.func() instanceof Expr.Attribute a && a.attr().equals("compile") && compile == null) compile = c;
            if (n instanceof Stmt.FunctionDef f && f.name().equals("forward")) forward = project.functionOf(f);
        }
        Map<String, Val> none = RootCalls.noneAtEveryCall(project, m, compile, forward);
        return none == null ? "unknown" : String.join(",", new TreeSet<>(none.keySet()));
    }

    private static void collect(Node n, List<Node> out) {
        out.add(n);
        n.forEachChild(c -> collect(c, out));
    }

    @Test
    void argumentsLeftOutOrPassedAsNoneAtEveryCall() {
        assertEquals("mask,pixels", noneAtCalls("compiled = torch.compile(Net())\ncompiled(torch.ones(2))\n"));
        assertEquals("pixels", noneAtCalls(String.join("\n",
                "compiled = torch.compile(Net())",
                "def main():",
                "    compiled(torch.ones(2), mask=torch.ones(2))",
                "    return compiled(torch.ones(2), None, None)",
                "")));
        // the name rebound to what it compiles: its read on the compile line is not a use
        assertEquals("mask,pixels", noneAtCalls("model = Net()\nmodel = torch.compile(model)\nmodel(torch.ones(2))\n"));
    }

    @Test
    void nothingIsNarrowedWhereACallIsNotSeenWhole() {
        assertEquals("unknown", noneAtCalls("compiled = torch.compile(Net())\n"), "no call");
        assertEquals("unknown", noneAtCalls("compiled = torch.compile(Net())\ncompiled(torch.ones(2), pixels=torch.ones(2), mask=torch.ones(2))\n"));
        assertEquals("unknown", noneAtCalls("compiled = torch.compile(Net())\ncompiled(torch.ones(2))\nrun = lambda b: compiled(*b)\n"),
                "a starred call inside a lambda");
        assertEquals("unknown", noneAtCalls("compiled = torch.compile(Net())\ncompiled(torch.ones(2))\nkw = {}\ncompiled(torch.ones(2), **kw)\n"));
        assertEquals("unknown", noneAtCalls("compiled = torch.compile(Net())\ncompiled(torch.ones(2))\nmodels = [compiled]\n"), "stored");
        assertEquals("unknown", noneAtCalls("compiled = torch.compile(Net())\ncompiled(torch.ones(2))\ncompiled = torch.compile(Net())\n"),
                "bound again");
        assertEquals("unknown", noneAtCalls("print(torch.compile(Net()))\n"), "not assigned to a name");
    }
}
