package dev.graphmend.ir.symbols;

import static dev.graphmend.ir.symbols.SymbolTestSupport.expectSymbols;
import static dev.graphmend.ir.symbols.SymbolTestSupport.scope;
import static dev.graphmend.ir.symbols.SymbolTestSupport.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * One test per scoping rule: a Python snippet and, next to it, what each name is in each scope
 * ({@code "SCOPE: NAME KIND FLAGS"}, see {@link SymbolTestSupport#expectSymbols}). These are
 * the table's own view, where every comprehension is a scope; the CPython 3.13 view is checked
 * by {@link SymtableOracleTest} and at the end of this class.
 */
class ScopingRulesTest {

    @Test
    void moduleNamesAreLocalToTheModuleAndUnboundOnesImplicitGlobals() {
        expectSymbols("""
                x = 1
                print(x, y)
                """,
                "top: x local assigned,referenced",
                "top: print global_implicit referenced",
                "top: y global_implicit referenced");
    }

    @Test
    void functionLocalsParametersAndImplicitGlobals() {
        expectSymbols("""
                def f(a, /, b, *args, c, d=1, **kw):
                    e = a + b + c + d + len(args) + len(kw)
                    return e
                """,
                "top: f local assigned",
                "f: a local param,referenced",
                "f: b local param,referenced",
                "f: args local param,referenced",
                "f: c local param,referenced",
                "f: d local param,referenced",
                "f: kw local param,referenced",
                "f: e local assigned,referenced",
                "f: len global_implicit referenced");
    }

    @Test
    void closureVariablesAreCellsOutsideAndFreeInside() {
        expectSymbols("""
                def outer():
                    x = 1
                    def middle():
                        def inner():
                            return x
                        return inner
                    return middle
                """,
                "outer: x cell assigned",
                "outer.middle: x free -",           // passes the cell through
                "outer.middle.inner: x free referenced");
    }

    @Test
    void globalDeclarationMakesAssignmentsGlobalAndMarksTheModuleName() {
        expectSymbols("""
                def f():
                    global g
                    g = 1
                    def h():
                        return g
                """,
                "f: g global_explicit assigned,global",
                "f.h: g global_implicit referenced",
                "top: g global_explicit global");     // CPython records the declaration in the module too
    }

    @Test
    void nonlocalRebindsTheEnclosingFunctionsVariable() {
        expectSymbols("""
                def counter():
                    n = 0
                    def bump():
                        nonlocal n
                        n += 1
                        return n
                    return bump
                """,
                "counter: n cell assigned",
                "counter.bump: n free assigned,referenced,nonlocal");
    }

    @Test
    void classScopeIsInvisibleToMethodsAndComprehensions() {
        expectSymbols("""
                def f():
                    x = 'function'
                    class C:
                        x = 'class'
                        y = x
                        def m(self):
                            return x
                        squares = [x for _ in range(3)]
                    return C
                """,
                "f: x cell assigned",
                "f.C: x local assigned,referenced,free_class",  // the class's own x, also free in children
                "f.C.m: x free referenced",                     // ...but m sees f's x
                "f.C.listcomp: x free referenced");             // so does the comprehension
        expectSymbols("""
                class C:
                    attr = 1
                    def m(self):
                        return attr
                """,
                "C.m: attr global_implicit referenced");
    }

    @Test
    void superAndDunderClassMakeAClassCell() {
        SymbolTable t = table("""
                class C(Base):
                    def m(self):
                        return super().m()
                    def n(self):
                        return __class__
                class D:
                    def m(self):
                        return 1
                def not_a_method():
                    return super()
                """);
        assertEquals("free referenced", SymbolTestSupport.describe(scope(t, "C.m").lookup("__class__")));
        assertEquals("free referenced", SymbolTestSupport.describe(scope(t, "C.n").lookup("__class__")));
        assertTrue(scope(t, "C").needsClassCell());
        assertFalse(scope(t, "D").needsClassCell());
        assertEquals("global_implicit referenced", SymbolTestSupport.describe(scope(t, "not_a_method").lookup("__class__")));
        assertEquals(Resolution.Kind.CLASS_CELL, scope(t, "C.m").lookup("__class__").resolution().kind());
        assertEquals(scope(t, "C"), scope(t, "C.m").lookup("__class__").resolution().definingScope());
    }

    @Test
    void comprehensionsAreScopesWithTheOutermostIterableEvaluatedOutside() {
        expectSymbols("""
                def f(rows):
                    return [cell for row in rows for cell in row if cell], (r for r in rows), {k: v for k, v in rows}
                """,
                "f: rows local param,referenced",
                "f: cell absent",
                "f.listcomp: .0 local param",
                "f.listcomp: row local assigned,referenced,comp_iter",
                "f.listcomp: cell local assigned,referenced,comp_iter",
                "f.listcomp: rows absent",                          // the first iterable is f's
                "f.genexpr: r local assigned,referenced,comp_iter",
                "f.dictcomp: k local assigned,referenced,comp_iter",
                "f.dictcomp: v local assigned,referenced,comp_iter");
    }

    @Test
    void walrusInAComprehensionBindsInTheEnclosingFunction() {
        expectSymbols("""
                def f(items):
                    if any((hit := x) > 1 for x in items):
                        return hit
                    [last := i for i in items]
                    return last
                """,
                "f: hit cell assigned,referenced",
                "f.genexpr: hit free assigned,nonlocal",
                "f: last cell assigned,referenced",
                "f.listcomp: last free assigned,nonlocal");
        expectSymbols("""
                [top := i for i in range(3)]
                """,
                "top: top global_explicit global",
                "listcomp: top global_explicit assigned,global");
        expectSymbols("""
                def f():
                    global g
                    [g := i for i in range(3)]
                """,
                "f.listcomp: g global_explicit assigned,global");
    }

    @Test
    void lambdaDefaultsDecoratorsBasesAndDefaultsAreEvaluatedInTheEnclosingScope() {
        expectSymbols("""
                def outer(default, deco, base, meta):
                    @deco
                    def f(a=default, *, b=default):
                        return a
                    class C(base, metaclass=meta):
                        pass
                    g = lambda x=default: x
                    return f, C, g
                """,
                "outer: default local param,referenced",
                "outer: deco local param,referenced",
                "outer: base local param,referenced",
                "outer: meta local param,referenced",
                "outer.f: default absent",
                "outer.C: base absent",
                "outer.lambda: x local param,referenced",
                "outer.lambda: default absent");
    }

    @Test
    void bindingConstructs() {
        expectSymbols("""
                def f(ctx, seq, cmd):
                    for i, (j, *rest) in seq:
                        pass
                    with ctx as c, ctx as (d, e):
                        pass
                    try:
                        pass
                    except OSError as err:
                        pass
                    import os.path
                    import xml.etree as et
                    from json import loads as ld, dumps
                    del i
                    match cmd:
                        case [first, *others]:
                            pass
                        case {"k": v, **kw}:
                            pass
                        case Point(x=0) as p:
                            pass
                """,
                "f: i local assigned", "f: j local assigned", "f: rest local assigned",
                "f: c local assigned", "f: d local assigned", "f: e local assigned",
                "f: err local assigned",
                "f: os local imported", "f: et local imported", "f: ld local imported", "f: dumps local imported",
                "f: first local assigned", "f: others local assigned", "f: v local assigned", "f: kw local assigned",
                "f: p local assigned",
                "f: Point global_implicit referenced",
                "f: OSError global_implicit referenced");
    }

    @Test
    void deleteMakesANameLocal() {
        expectSymbols("""
                x = 1
                def f():
                    del x
                """,
                "f: x local assigned");
    }

    @Test
    void annotationsAreEvaluatedWhereTheyStandUnlessPostponed() {
        String body = """
                x: int = 1
                y: str
                def f(a: A, *b: B, **c: C) -> R:
                    local: L = 1
                    bare: M
                class K:
                    field: F
                """;
        expectSymbols(body,
                "top: x local assigned,annotated",
                "top: y local assigned,annotated",    // declared: local although never assigned
                "top: int global_implicit referenced",
                "top: A global_implicit referenced",  // parameter annotations: the enclosing scope
                "top: R global_implicit referenced",
                "f: L global_implicit referenced",    // body annotations count in 3.13's symtable
                "f: local local assigned,annotated",
                "f: bare local assigned,annotated",
                "K: field local assigned,annotated",
                "K: F global_implicit referenced");
        expectSymbols("from __future__ import annotations\n" + body,
                "top: A absent",
                "top: int absent",
                "f: L absent",
                "f: bare local assigned,annotated",
                "K: F absent");
    }

    @Test
    void starImportIsRecordedAsUnknown() {
        SymbolTable t = table("""
                from os.path import *
                def f():
                    return join
                """);
        assertTrue(t.module().hasStarImport());
        Resolution r = scope(t, "f").lookup("join").resolution();
        assertEquals(Resolution.Kind.BUILTIN_OR_UNBOUND, r.kind());
        assertTrue(r.mayComeFromStarImport());
        assertTrue(t.problems().isEmpty());
        assertEquals(List.of("import * only allowed at module level"),
                table("def f():\n    from os import *\n").problems().stream()
                        .map(SymbolTable.Problem::message).collect(Collectors.toList()));
    }

    @Test
    void privateNamesAreMangledInsideClasses() {
        expectSymbols("""
                class C:
                    __x = 1
                    __dunder__ = 2
                    def m(self, __p):
                        return __x, __p
                """,
                "C: _C__x local assigned",
                "C: __dunder__ local assigned",
                "C.m: _C__p local param,referenced",
                "C.m: _C__x global_implicit referenced");
        SymbolTable t = table("class _C:\n    __x = 1\n");
        assertEquals("_C__x", scope(t, "_C").mangle("__x"));
        assertEquals("_C__x", scope(t, "_C").lookupIdentifier("__x").name());
    }

    @Test
    void genericFunctionsClassesAndAliasesGetTypeScopes() {
        expectSymbols("""
                def first[T: int, *Ts, **P](xs: list[T], *, k=1) -> T:
                    return xs[0]
                class Box[T](Base[T]):
                    item: T
                type Pair[K] = tuple[K, K]
                """,
                "top: first local assigned",
                "first: T local assigned,referenced,type_param",      // the type-parameter scope
                "first: .defaults local param",
                "first: .kwdefaults local param",
                "first.T: int global_implicit referenced",             // the bound's lazy scope
                "first.first: xs local param,referenced",              // the function itself
                "Box: T cell assigned,referenced,type_param",         // read by the bases
                "Box: Base global_implicit referenced",                // bases see the type parameters
                "Box: .type_params cell assigned,referenced",
                "Box.Box: T free referenced",
                "Box.Box: __type_params__ local assigned",
                "top: Pair local assigned",
                "Pair: K cell assigned,type_param",
                "Pair.Pair: K free referenced",
                "Pair.Pair: tuple global_implicit referenced");
        SymbolTable t = table("def first[T](x: T) -> T: return x\n");
        assertEquals(ScopeKind.TYPE_PARAMETERS, scope(t, "first").kind());
        assertEquals(ScopeKind.FUNCTION, scope(t, "first.first").kind());
    }

    @Test
    void typeScopesInAClassSeeTheClassNamespace() {
        SymbolTable t = table("""
                class C:
                    Attr = int
                    type A = Attr
                    def m[T: Attr](self) -> T:
                        pass
                """);
        Symbol inAlias = scope(t, "C.A").lookup("Attr");
        assertEquals(SymbolKind.GLOBAL_IMPLICIT, inAlias.kind());     // CPython's classification...
        assertEquals(Resolution.Kind.CLASS_NAMESPACE, inAlias.resolution().kind()); // ...read through __classdict__
        assertEquals(scope(t, "C").lookup("Attr"), inAlias.resolution().definition());
        assertEquals(Resolution.Kind.CLASS_NAMESPACE, scope(t, "C.m.T").lookup("Attr").resolution().kind());
        assertTrue(scope(t, "C.A").canSeeClassScope());
        assertTrue(scope(t, "C").needsClassDict());
    }

    @Test
    void cpythonViewInlinesListSetAndDictComprehensions() {
        SymbolTable t = table("""
                def f(xs):
                    a = [x for x in xs]
                    g = (y for y in xs)
                    cells = [lambda: i for i in xs]
                """);
        assertTrue(scope(t, "f.listcomp").isInlined());
        assertFalse(scope(t, "f.genexpr").isInlined());
        String dump = SymtableDump.dump(t);
        assertEquals("""
                0 module top 0
                  f local assigned
                1 function f 1
                  a local assigned
                  cells local assigned
                  g local assigned
                  i cell assigned,comp_iter,comp_cell
                  x local assigned,referenced,comp_iter
                  xs local param,referenced
                2 function genexpr 3
                  .0 local param
                  y local assigned,referenced,comp_iter
                2 function lambda 4
                  i free referenced
                """, dump);
    }
}
