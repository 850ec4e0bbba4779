package dev.graphmend.ir.symbols;

import static dev.graphmend.ir.symbols.SymbolTestSupport.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What expressions name, with the expected answer written on the line of the expression
 * (Error Prone style): {@code # => EXPECTED} checks the line's expression statement,
 * {@code # EXPR => EXPECTED} the first expression on the line whose source is {@code EXPR}.
 * EXPECTED is a dotted name for an import, {@code member Q} for a name of this module,
 * {@code attribute A of class C}, {@code builtin B}, {@code local X} or {@code unknown}.
 */
class QualifiedNamesTest {

    @Test
    void importsAndTheirAliases() {
        check("mod", false, """
                import torch as th
                import torch.nn.functional as F
                import torch.nn
                import os.path
                from torch import nn, where as w
                from torch.nn import functional

                th                                 # => torch
                th.nn.functional.relu              # => torch.nn.functional.relu
                F.relu                             # => torch.nn.functional.relu
                F                                  # => torch.nn.functional
                torch.nn.Linear                    # => torch.nn.Linear
                torch                              # => torch
                os.path.join                       # => os.path.join
                nn.Module                          # => torch.nn.Module
                w                                  # => torch.where
                w(x > 0, x, 0)                     # w => torch.where
                functional.relu                    # => torch.nn.functional.relu
                """);
    }

    @Test
    void relativeImportsUseTheModulesOwnName() {
        check("pkg.sub.mod", false, """
                from . import sibling
                from .sibling import f as g
                from .. import top_level
                from ..other.deep import h
                from ...too_far import x

                sibling.run          # => pkg.sub.sibling.run
                g                    # => pkg.sub.sibling.f
                top_level            # => pkg.top_level
                h                    # => pkg.other.deep.h
                x                    # => unknown
                """);
        check("pkg.sub", true, """
                from . import mod
                from .mod import f
                from .. import other

                mod                  # => pkg.sub.mod
                f                    # => pkg.sub.mod.f
                other                # => pkg.other
                """);
    }

    @Test
    void methodsSeeTheirClassThroughSelfAndCls() {
        check("models", false, """
                import torch
                from torch import nn

                class Model(nn.Module):                    # nn.Module => torch.nn.Module
                    scale = 2

                    def __init__(self, dim):
                        super().__init__()
                        self.proj = nn.Linear(dim, dim)    # self.proj => attribute proj of class Model

                    def forward(self, x):
                        y = self.proj(x) * self.scale      # self.scale => attribute scale of class Model
                        helper = lambda: self.proj         # self.proj => attribute proj of class Model
                        return torch.relu(y)               # torch.relu => torch.relu

                    @classmethod
                    def build(cls):
                        return cls.scale                   # cls.scale => attribute scale of class Model

                    @staticmethod
                    def static(self):
                        return self.proj                   # self.proj => unknown

                    def rebinds(self):
                        self = other
                        return self.proj                   # self.proj => unknown

                    def uses_class_name(self):
                        return Model.scale                 # Model.scale => attribute scale of class Model

                    def generic[T](self, x: T) -> T:
                        return self.proj                   # self.proj => attribute proj of class Model

                def not_a_method(self):
                    return self.proj                       # self.proj => unknown

                Model                                      # => member models.Model
                Model.forward                              # => attribute forward of class Model
                """);
    }

    @Test
    void localsBuiltinsModuleNamesAndRebinding() {
        check("app.main", false, """
                import numpy as np
                from os import *

                try:
                    import simplejson as json
                except ImportError:
                    json = None

                def helper(a):
                    import math
                    b = a
                    math.pi                        # => math.pi
                    np.zeros                       # => numpy.zeros
                    b                              # => local b
                    len                            # => builtin len
                    path                           # => unknown
                    helper                         # => member app.main.helper
                    json.loads                     # => unknown
                    __name__                       # => member app.main.__name__
                    a[0].x                         # => unknown

                CONSTANT = 3
                CONSTANT.real                      # => member app.main.CONSTANT.real
                str.join                           # => builtin str.join
                """);
    }

    @Test
    void classBodyNamesAreClassAttributes() {
        check("m", false, """
                import torch
                class Config:
                    device = torch.device("cpu")
                    other = device                 # device => attribute device of class Config
                    type Alias = device            # device => attribute device of class Config
                    t = torch                      # torch => torch
                """);
    }

    @Test
    void importsListsEveryBoundName() {
        SymbolTable t = SymbolTable.build(parse("""
                import a.b.c
                import d.e as f
                from .g import h, i as j
                from k import *
                def fn():
                    import local_mod
                """));
        Imports imports = Imports.of(t, "pkg.mod", false);
        assertEquals(List.of("TOP_PACKAGE a=a (a.b.c)", "MODULE f=d.e (d.e)", "FROM h=pkg.g.h (pkg.g.h)",
                "FROM j=pkg.g.i (pkg.g.i)", "MODULE local_mod=local_mod (local_mod)"),
                imports.all().stream().map(i -> i.kind() + " " + i.localName() + "=" + i.qualifiedName() + " (" + i.imported() + ")")
                        .collect(Collectors.toList()));
        assertEquals("k", imports.starImports().get(0).module());
        assertEquals(ScopeKind.FUNCTION, imports.all().get(4).scope().kind());
        assertEquals(List.of("a", "f", "h", "j"), new ArrayList<>(imports.moduleLevel().keySet()));
    }

    @Test
    void relativeResolutionFollowsImportlib() {
        assertEquals("pkg.x", Imports.absolute("pkg.mod", false, 1, "x"));
        assertEquals("pkg", Imports.absolute("pkg.mod", false, 1, null));
        assertEquals("pkg.x", Imports.absolute("pkg", true, 1, "x"));
        assertEquals("a.pkg", Imports.absolute("a.b.mod", false, 2, "pkg"));
        assertEquals("a", Imports.absolute("a.b", true, 2, null));
        assertNull(Imports.absolute("a", true, 2, null));                  // beyond the top-level package
        assertNull(Imports.absolute("script", false, 1, "x"));             // no parent package
        assertNull(Imports.absolute("", false, 1, "x"));
        assertEquals("x.y", Imports.absolute("whatever", false, 0, "x.y"));
    }

    // ---------------------------------------------------------------------------------------

    static void check(String moduleName, boolean isPackage, String source) {
        Module mod = parse(source);
        SymbolTable table = SymbolTable.build(mod);
        QualifiedNames names = QualifiedNames.of(table, moduleName, isPackage);
        String[] lines = source.split("\n", -1);
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (int i = 0; i < lines.length; i++) {
            int hash = lines[i].indexOf("# ");
            if (hash < 0 || !lines[i].contains("=>")) continue;
            String marker = lines[i].substring(hash + 2);
            int arrow = marker.indexOf("=>");
            String exprText = marker.substring(0, arrow).trim();
            String expected = marker.substring(arrow + 2).trim();
            Expr e = find(mod, i + 1, exprText.isEmpty() ? lines[i].substring(0, hash).trim() : exprText, lines[i]);
            if (e == null) {
                failures.add("line " + (i + 1) + ": no expression '" + exprText + "'");
                continue;
            }
            checked++;
            String actual = describe(names.resolve(e));
            if (!actual.equals(expected)) {
                failures.add("line " + (i + 1) + ": " + source(e, lines[i]) + " => " + actual + ", expected " + expected);
            }
        }
        assertTrue(checked > 0, "no markers in the source");
        if (!failures.isEmpty()) fail(String.join("\n", failures));
    }

    /** The outermost expression on 1-based {@code line} whose source text is {@code text}. */
    private static Expr find(Module mod, int line, String text, String lineText) {
        Expr[] found = {null};
        SymbolTestSupport.walk(mod, n -> {
            if (found[0] == null && n instanceof Expr && n.span() != null && n.span().line() == line
                    && n.span().endLine() == line && source(n, lineText).equals(text)) {
                found[0] = (Expr) n;
            }
        });
        return found[0];
    }

    private static String source(Node n, String lineText) {
        return lineText.substring(n.span().col(), n.span().endCol());
    }

    static String describe(Target t) {
        if (t instanceof Target.Imported) return t.qualifiedName();
        if (t instanceof Target.ModuleMember) return "member " + t.qualifiedName();
        if (t instanceof Target.ClassAttribute) {
            Target.ClassAttribute c = (Target.ClassAttribute) t;
            return "attribute " + c.attribute() + " of class " + c.className();
        }
        if (t instanceof Target.Builtin) return "builtin " + ((Target.Builtin) t).name();
        if (t instanceof Target.Local) return "local " + ((Target.Local) t).symbol().name();
        return "unknown";
    }
}
