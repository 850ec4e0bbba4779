package dev.graphmend.ir.symbols;

import static dev.graphmend.ir.symbols.SymbolTestSupport.names;
import static dev.graphmend.ir.symbols.SymbolTestSupport.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Module;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Following names from one module of a workspace into the module that defines them. */
class WorkspaceTest {

    private final Module init = parse("""
            from .core import train as exported_train
            from .util import *
            """);
    private final Module core = parse("""
            import torch

            def train(model):
                return model

            class Model(torch.nn.Module):
                def forward(self, x):
                    return x
            """);
    private final Module util = parse("""
            def helper():
                pass
            """);
    private final Module main = parse("""
            from .core import train, Model
            from . import core
            from .sibling_missing import nothing
            from pkg import exported_train, helper
            import pkg.core
            import torch

            train
            core.train
            Model.forward
            exported_train
            helper
            pkg.core.Model
            nothing
            torch.relu
            local_def = 1
            local_def
            """);

    private Workspace workspace() {
        return Workspace.builder()
                .add("pkg", true, SymbolTable.build(init))
                .add("pkg.core", false, SymbolTable.build(core))
                .add("pkg.util", false, SymbolTable.build(util))
                .add(Path.of("/src"), Path.of("/src/pkg/main.py"), SymbolTable.build(main))
                .build();
    }

    private Expr line(int index) {
        return ((dev.graphmend.ir.ast.Stmt.Expr) main.body().get(index)).value();
    }

    @Test
    void relativeImportsLeadToTheSiblingsTopLevelBinding() {
        Workspace ws = workspace();
        Workspace.Module coreModule = ws.module("pkg.core");
        Workspace.Definition train = ws.definitionOf("pkg.main", line(6));
        assertSame(coreModule, train.module());
        assertSame(coreModule.table().module().lookup("train"), train.symbol());
        assertEquals("pkg.core.train", train.qualifiedName());

        assertEquals("pkg.core.train", ws.definitionOf("pkg.main", line(7)).qualifiedName());   // core.train
        Workspace.Definition forward = ws.definitionOf("pkg.main", line(8));                  // Model.forward
        assertEquals("Model", forward.symbol().name());
        assertEquals("forward", forward.rest());
        assertEquals("pkg.core.Model.forward", forward.qualifiedName());
    }

    @Test
    void reExportsAndStarImportsAreFollowed() {
        Workspace ws = workspace();
        assertEquals("pkg.core.train", ws.definitionOf("pkg.main", line(9)).qualifiedName());  // pkg's re-export
        assertEquals("pkg.util.helper", ws.definitionOf("pkg.main", line(10)).qualifiedName()); // via pkg's star import
        assertEquals("pkg.core.Model", ws.definitionOf("pkg.main", line(11)).qualifiedName());  // import pkg.core
    }

    @Test
    void namesOutsideTheWorkspaceOrUnboundHaveNoDefinition() {
        Workspace ws = workspace();
        assertNull(ws.definitionOf("pkg.main", line(12)));     // pkg.sibling_missing is not a workspace module
        assertNull(ws.definitionOf("pkg.main", line(13)));     // torch.relu
        assertNull(ws.definition("pkg.core.not_defined"));
        Workspace.Definition local = ws.definitionOf("pkg.main", line(15));
        assertEquals("pkg.main.local_def", local.qualifiedName());
        Workspace.Definition module = ws.definition("pkg.util");
        assertSame(ws.module("pkg.util"), module.module());
        assertNull(module.symbol());
    }

    @Test
    void moduleNamesFromPaths() {
        assertEquals("pkg.sub.mod", Workspace.moduleName(Path.of("/r"), Path.of("/r/pkg/sub/mod.py")));
        assertEquals("pkg.sub", Workspace.moduleName(Path.of("/r"), Path.of("/r/pkg/sub/__init__.py")));
        assertEquals(true, Workspace.isPackage(Path.of("/r/pkg/__init__.py")));
        Expr.Name exported = names(main, "exported_train").get(0);
        assertEquals("pkg.exported_train", workspace().module("pkg.main").names().qualifiedName(exported));
    }

    /**
     * transformers/models/__init__.py star-imports hundreds of model packages; when only some
     * files are loaded, a name none of them binds must be given up on, not searched through
     * every chain of missing star imports (this took minutes and gigabytes on a five-file check).
     */
    @Test
    void starImportsOfMissingModulesAreNotSearched() {
        StringBuilder models = new StringBuilder();
        for (int i = 0; i < 300; i++) models.append("from .model_").append(i).append(" import *\n");
        Module caller = parse("""
                from pkg.models import not_defined_anywhere
                not_defined_anywhere
                """);
        Workspace ws = Workspace.builder()
                .add("pkg", true, SymbolTable.build(parse("from .models import *\n")))
                .add("pkg.models", true, SymbolTable.build(parse(models.toString())))
                .add("pkg.models.model_7", false, SymbolTable.build(parse("def present():\n    pass\n")))
                .add("pkg.caller", false, SymbolTable.build(caller))
                .build();
        Expr use = ((dev.graphmend.ir.ast.Stmt.Expr) caller.body().get(1)).value();
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () -> {
            assertNull(ws.definition("pkg.models.not_defined_anywhere"));
            assertEquals("pkg.models.model_7.present", ws.definition("pkg.models.present").qualifiedName());
            ws.definitionOf("pkg.caller", use);
        });
    }
}
