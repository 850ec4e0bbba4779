package dev.graphmend.ir.symbols;

import static dev.graphmend.ir.symbols.SymbolTestSupport.at;
import static dev.graphmend.ir.symbols.SymbolTestSupport.names;
import static dev.graphmend.ir.symbols.SymbolTestSupport.parse;
import static dev.graphmend.ir.symbols.SymbolTestSupport.scope;
import static dev.graphmend.ir.symbols.SymbolTestSupport.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.parse.ParseResult;
import dev.graphmend.ir.parse.PythonSourceParser;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Bindings, uses, resolution and the node-to-scope maps. */
class SymbolTableApiTest {

    private static List<String> bindings(List<Binding> bs) {
        return bs.stream().map(b -> b.kind() + "@" + at(b.node())).collect(Collectors.toList());
    }

    private static List<String> uses(List<Expr.Name> ns) {
        return ns.stream().map(SymbolTestSupport::at).collect(Collectors.toList());
    }

    @Test
    void eachSymbolKnowsItsBindingSitesAndUses() {
        SymbolTable t = table("""
                def f(x, seq):
                    y = x
                    for y in seq:
                        y += 1
                    with open(y) as y:
                        pass
                    del y
                    return [y for y in seq]
                """);
        Symbol y = scope(t, "f").lookup("y");
        assertEquals(List.of("ASSIGNMENT@2:4", "FOR_TARGET@3:8", "AUGMENTED_ASSIGNMENT@4:8", "WITH_TARGET@5:20", "DELETION@7:8"),
                bindings(y.bindings()));
        assertEquals(List.of("4:8", "5:14"), uses(y.uses()));               // y += 1 reads y too
        assertEquals(List.of("PARAMETER@1:6"), bindings(scope(t, "f").lookup("x").bindings()));
        Symbol compY = scope(t, "f.listcomp").lookup("y");                   // the comprehension's own y
        assertEquals(List.of("COMPREHENSION_TARGET@8:18"), bindings(compY.bindings()));
        assertEquals(List.of("8:12"), uses(compY.uses()));
        Binding forTarget = y.bindings().get(1);
        assertTrue(forTarget.construct() instanceof Stmt.For);
        assertTrue(y.bindings().get(4).kind() == Binding.Kind.DELETION && !y.bindings().get(4).bindsValue());
    }

    @Test
    void definitionsImportsHandlersPatternsAndTypeParametersAreBindings() {
        SymbolTable t = table("""
                import a.b.c
                from m import n as alias
                @deco
                def f[T](): pass
                class C: pass
                type A = int
                try: pass
                except E as err: pass
                match v:
                    case [first, *rest] if first: pass
                x: int
                """);
        Scope m = t.module();
        assertEquals(List.of("IMPORT@1:7"), bindings(m.lookup("a").bindings()));
        assertEquals(List.of("IMPORT@2:14"), bindings(m.lookup("alias").bindings()));
        assertEquals(List.of("FUNCTION_DEFINITION@4:0"), bindings(m.lookup("f").bindings()));
        assertEquals(List.of("CLASS_DEFINITION@5:0"), bindings(m.lookup("C").bindings()));
        assertEquals(List.of("TYPE_ALIAS@6:5"), bindings(m.lookup("A").bindings()));
        assertEquals(List.of("EXCEPT_HANDLER@8:0"), bindings(m.lookup("err").bindings()));
        assertEquals(List.of("MATCH_CAPTURE@10:10"), bindings(m.lookup("first").bindings()));
        assertEquals(List.of("MATCH_CAPTURE@10:17"), bindings(m.lookup("rest").bindings()));
        assertEquals(List.of("ANNOTATION@11:0"), bindings(m.lookup("x").bindings()));
        assertEquals(List.of("TYPE_PARAMETER@4:6"), bindings(scope(t, "f").lookup("T").bindings()));
        assertEquals(1, m.lookup("deco").uses().size());
    }

    @Test
    void resolveFollowsPythonsRules() {
        String src = """
                import os
                G = 1
                def outer(p):
                    c = 1
                    def inner():
                        nonlocal c
                        c = G + p + len(os.sep) + undefined
                    return inner
                """;
        Module mod = parse(src);
        SymbolTable t = SymbolTable.build(mod);
        Scope outer = scope(t, "outer");
        Scope inner = scope(t, "outer.inner");

        Expr.Name cStore = names(mod, "c").get(1);
        Resolution c = t.resolve(cStore);
        assertEquals(Resolution.Kind.ENCLOSING, c.kind());
        assertSame(inner.lookup("c"), c.symbol());
        assertSame(outer.lookup("c"), c.definition());
        assertSame(outer, c.definingScope());

        Resolution g = t.resolve(names(mod, "G").get(1));
        assertEquals(Resolution.Kind.GLOBAL, g.kind());
        assertSame(t.module().lookup("G"), g.definition());

        assertEquals(Resolution.Kind.ENCLOSING, t.resolve(names(mod, "p").get(0)).kind());
        assertEquals(Resolution.Kind.GLOBAL, t.resolve(names(mod, "os").get(0)).kind());
        Resolution len = t.resolve(names(mod, "len").get(0));
        assertEquals(Resolution.Kind.BUILTIN_OR_UNBOUND, len.kind());
        assertNull(len.definition());
        assertSame(t.module(), len.definingScope());
        assertEquals(Resolution.Kind.LOCAL, t.resolve(names(mod, "G").get(0)).kind());

        // the variable seen from every scope that shares it
        assertEquals(List.of(outer.lookup("c"), inner.lookup("c")), t.references(outer.lookup("c")));
        assertEquals(List.of("ASSIGNMENT@4:4", "ASSIGNMENT@7:8"), bindings(t.bindingsOf(outer.lookup("c"))));
        assertEquals(Stmt.Nonlocal.class, inner.lookup("c").declaration().getClass());
    }

    @Test
    void walrusTargetsInComprehensionsAreBindingsOfTheFunctionVariable() {
        Module mod = parse("""
                def f(items):
                    if any((hit := x) for x in items):
                        return hit
                """);
        SymbolTable t = SymbolTable.build(mod);
        Symbol hit = scope(t, "f").lookup("hit");
        assertEquals(List.of(), hit.bindings());
        assertEquals(List.of("NAMED_EXPRESSION@2:12"), bindings(t.bindingsOf(hit)));
        assertEquals(List.of("3:15"), uses(t.usesOf(hit)));
        assertSame(hit, t.resolve(names(mod, "hit").get(0)).definition());
    }

    @Test
    void scopeOfKnowsWhereEachNodeIsEvaluated() {
        Module mod = parse("""
                @deco
                def f(a=default) -> ret:
                    return [elt for elt in outer_iter if cond]
                class C(base):
                    attr = 1
                """);
        SymbolTable t = SymbolTable.build(mod);
        Stmt.FunctionDef f = (Stmt.FunctionDef) mod.body().get(0);
        Scope fScope = t.scopeOpenedBy(f);
        assertEquals("f", fScope.name());
        assertSame(t.module(), t.scopeOf(names(mod, "deco").get(0)));
        assertSame(t.module(), t.scopeOf(names(mod, "default").get(0)));
        assertSame(t.module(), t.scopeOf(names(mod, "ret").get(0)));
        assertSame(fScope, t.scopeOf(f.body().get(0)));
        assertSame(fScope, t.scopeOf(names(mod, "outer_iter").get(0)));     // the first iterable
        Scope comp = t.scopeOf(names(mod, "cond").get(0));
        assertEquals(ScopeKind.LIST_COMPREHENSION, comp.kind());
        assertSame(comp, t.scopeOpenedBy(((Stmt.Return) f.body().get(0)).value()));
        Stmt.ClassDef c = (Stmt.ClassDef) mod.body().get(1);
        assertSame(t.module(), t.scopeOf(names(mod, "base").get(0)));
        assertSame(t.scopeOpenedBy(c), t.scopeOf(c.body().get(0)));
        assertSame(t.module(), t.scopeOpenedBy(mod));
    }

    @Test
    void genericDefinitionsOpenATypeParameterScopeAroundTheirOwn() {
        Module mod = parse("def f[T](x: T) -> T: return x\n");
        SymbolTable t = SymbolTable.build(mod);
        Scope f = t.scopeOpenedBy(mod.body().get(0));
        assertEquals(ScopeKind.FUNCTION, f.kind());
        assertEquals(ScopeKind.TYPE_PARAMETERS, f.parent().kind());
        assertSame(f.parent(), t.scopeOf(names(mod, "T").get(0)));            // annotations: the type scope
        assertEquals(Resolution.Kind.LOCAL, t.resolve(names(mod, "T").get(0)).kind());
    }

    @Test
    void namesInPostponedAnnotationsResolveAsIfEvaluated() {
        Module mod = parse("""
                from __future__ import annotations
                import torch
                def f(x: torch.Tensor) -> Missing:
                    y: torch.Tensor = x
                """);
        SymbolTable t = SymbolTable.build(mod);
        assertTrue(t.futureAnnotations());
        Expr.Name inSignature = names(mod, "torch").get(0);     // would be evaluated in the module
        assertNull(t.symbolOf(inSignature));
        Resolution r = t.resolve(inSignature);
        assertEquals(Resolution.Kind.LOCAL, r.kind());
        assertSame(t.module().lookup("torch"), r.definition());
        Expr.Name inBody = names(mod, "torch").get(1);          // would be evaluated in f, which never mentions torch
        Resolution b = t.resolve(inBody);
        assertEquals(Resolution.Kind.GLOBAL, b.kind());
        assertNull(b.symbol());
        assertSame(t.module().lookup("torch"), b.definition());
        assertEquals(Resolution.Kind.BUILTIN_OR_UNBOUND, t.resolve(names(mod, "Missing").get(0)).kind());
    }

    @Test
    void resolveAnIdentifierInAnyScope() {
        SymbolTable t = table("""
                x = 1
                class C:
                    x = 2
                    def m(self):
                        pass
                """);
        assertEquals(Resolution.Kind.GLOBAL, t.resolve(scope(t, "C.m"), "x").kind());
        assertEquals(Resolution.Kind.LOCAL, t.resolve(scope(t, "C"), "x").kind());
        assertEquals(Resolution.Kind.BUILTIN_OR_UNBOUND, t.resolve(scope(t, "C.m"), "print").kind());
    }

    @Test
    void problemsCPythonRejectsAreReportedNotThrown() {
        assertEquals(List.of("no binding for nonlocal 'x' found"), messages("def f():\n    nonlocal x\n"));
        assertEquals(List.of("nonlocal declaration not allowed at module level"), messages("nonlocal x\n"));
        assertEquals(List.of("name 'a' is parameter and global"), messages("def f(a):\n    global a\n"));
        assertEquals(List.of("name 'x' is used prior to global declaration"), messages("def f():\n    print(x)\n    global x\n"));
        assertEquals(List.of(), messages("def f():\n    x = 1\n    def g():\n        nonlocal x\n"));
    }

    private static List<String> messages(String src) {
        return table(src).problems().stream().map(SymbolTable.Problem::message).collect(Collectors.toList());
    }

    @Test
    void brokenSourceStillGetsTables() {
        String[] broken = {"def f(:\n    x = 1\n", "class C(\n    def m(self): return y\n", "x = [i for i in\n",
            "lambda: (yield)\n", "def f():\n    return [(y := 1) for y in z]\n", "class C:\n    [(w := 1) for _ in z]\n",
            "def g[T](x := 1): pass\n", "async def f():\n    [await x async for x in y]\n"};
        for (String src : broken) {
            ParseResult r = new PythonSourceParser().parse(src.getBytes(StandardCharsets.UTF_8));
            SymbolTable t = SymbolTable.build(r.module());
            SymtableDump.dump(t);
            for (Scope s : t.scopes()) for (Symbol sym : s.symbols()) sym.resolution().kind();
        }
    }

    private static List<String> resolutions(SymbolTable t) {
        return t.scopes().stream().flatMap(sc -> sc.symbols().stream())
                .map(sym -> sym.scope().name() + "." + sym.name() + "=" + sym.resolution().kind()).collect(Collectors.toList());
    }

    /** A table built once (no replay records) is the same table: every fixture, dumped scope by scope and name by name. */
    @Test
    void aTableBuiltWithoutRecordsIsTheSame() throws Exception {
        java.nio.file.Path dir = java.nio.file.Path.of("src/test/resources/symbols");
        List<java.nio.file.Path> files;
        try (var s = java.nio.file.Files.walk(dir)) {
            files = s.filter(f -> f.toString().endsWith(".py")).sorted().collect(Collectors.toList());
        }
        assertTrue(files.size() >= 8, "fixtures: " + files);
        for (java.nio.file.Path f : files) {
            Module m = new PythonSourceParser().parse(java.nio.file.Files.readAllBytes(f)).module();
            SymbolTable recorded = SymbolTable.build(m);
            SymbolTable once = SymbolTable.buildOnce(m);
            assertEquals(SymtableDump.dump(recorded), SymtableDump.dump(once), f.toString());
            assertEquals(resolutions(recorded), resolutions(once), f.toString());
        }
    }
}
