package dev.graphmend.ir.symbols;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.symbols.Analyzer.Block;
import dev.graphmend.ir.symbols.RawScope.RawSymbol;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The symbol tables of one module: its {@link Scope} tree, every {@link Symbol}, and the way
 * back from AST nodes to them. Built in two passes that port CPython 3.13's
 * {@code Python/symtable.c} (see the package documentation); immutable, and safe to share
 * between threads once built.
 *
 * <pre>{@code
 * SymbolTable table = SymbolTable.build(module);
 * Resolution r = table.resolve(nameNode);          // what this Name denotes
 * Scope f = table.scopeOpenedBy(functionDef);      // the function's own scope
 * Symbol x = f.lookupIdentifier("x");              // x in f: kind(), flags(), bindings(), uses()
 * }</pre>
 */
public final class SymbolTable {
    private final Module ast;
    private final Scope module;
    private final boolean futureAnnotations;
    private final IdentityHashMap<Node, Scope> scopeOfNode;
    private final IdentityHashMap<Node, Scope> openers;
    private final IdentityHashMap<Expr.Name, Symbol> nameSymbols;
    /** All references (whole-module build), or those of the module's own symbols (built per statement). */
    private final IdentityHashMap<Symbol, List<Symbol>> references;
    /** Built per statement: what each nested symbol that reaches the module denotes in this version. */
    private final IdentityHashMap<Symbol, Resolution> moduleResolutions;
    /** Built per statement: the statements' shares, in order, and the part of each top-level scope; else null. */
    private final List<Part> parts;
    private final IdentityHashMap<Scope, Part> partOfTopScope;
    private final List<Problem> problems;

    /**
     * Something CPython's symtable rejects with a {@code SyntaxError} (a {@code nonlocal} with
     * no binding, {@code import *} in a function, {@code global} after use, ...). The table is
     * still built, as if the offending declaration were absent.
     *
     * @param span where, when known
     */
    public record Problem(String message, Span span) {}

    /**
     * One top-level statement's share of a table, reusable by a later table whose module holds
     * the same statement object: the scopes it opens under the module (with everything nested in
     * them, analysed), its module-level names ({@code fragment}), its node maps, its problems,
     * and the references among its own symbols. Nothing in it depends on the other statements
     * except the resolution of names that reach the module ({@code moduleDependent}), which every
     * table recomputes. Immutable once its first table is built.
     */
    private static final class Part {
        final Stmt stmt;
        final RawScope fragment;
        final List<Scope> scopes = new ArrayList<>(2);
        final IdentityHashMap<Node, Scope> scopeOfNode;
        final IdentityHashMap<Node, Scope> openers;
        final IdentityHashMap<Expr.Name, RawSymbol> names;
        final List<Problem> collectProblems;
        final List<Problem> analysisProblems = new ArrayList<>(0);
        Set<String> free = Set.of();
        final List<Symbol> moduleDependent = new ArrayList<>();
        final IdentityHashMap<Symbol, List<Symbol>> localRefs = new IdentityHashMap<>();
        final boolean readModuleFlags;

        Part(Stmt stmt, boolean futureAnnotations, Scope module) {
            this.stmt = stmt;
            this.fragment = new RawScope(module);
            Collector c = new Collector(futureAnnotations, fragment);
            c.collect(stmt);
            this.scopeOfNode = c.scopeOfNode;
            this.openers = c.openers;
            this.names = c.nameSymbols;
            this.collectProblems = c.problems.isEmpty() ? List.of() : List.copyOf(c.problems);
            this.readModuleFlags = c.readModuleFlags;
        }
    }

    /** Whole-module build: one collector over every statement. */
    private SymbolTable(Module ast, Collector c) {
        this.ast = ast;
        this.futureAnnotations = c.futureAnnotations;
        this.parts = null;
        this.partOfTopScope = new IdentityHashMap<>();
        this.moduleResolutions = new IdentityHashMap<>();
        List<Problem> problems = new ArrayList<>(c.problems);
        IdentityHashMap<RawScope, Block> blocks = new IdentityHashMap<>();
        Block top = toBlock(c.module, blocks);
        new Analyzer(false, problems).analyze(top);

        this.module = toScope(c.module, blocks);
        this.scopeOfNode = c.scopeOfNode;
        this.openers = c.openers;
        this.nameSymbols = new IdentityHashMap<>(c.nameSymbols.size() * 4 / 3 + 16);
        for (Map.Entry<Expr.Name, RawSymbol> e : c.nameSymbols.entrySet()) nameSymbols.put(e.getKey(), e.getValue().result);

        this.references = new IdentityHashMap<>();
        for (Scope s : module.walk()) {
            for (Symbol sym : s.symbols()) {
                Resolution r = Resolver.resolve(module, s, sym.name(), sym);
                sym.resolveTo(r);
                if (r.definition() != null) references.computeIfAbsent(r.definition(), k -> new ArrayList<>(2)).add(sym);
            }
        }
        for (Map.Entry<Symbol, List<Symbol>> e : references.entrySet()) e.setValue(List.copyOf(e.getValue()));
        this.problems = List.copyOf(problems);
    }

    /**
     * Per-statement build: the parts of {@code previous} whose statement {@code ast} still holds
     * (same object) are reused as they are; the other statements are collected and analysed
     * anew; the module scope itself (its names gathered from every part in order, analysed,
     * resolved) and the node maps are always rebuilt.
     */
    private SymbolTable(Module ast, List<Part> parts, RawScope merged, Scope moduleScope, boolean futureAnnotations,
                        IdentityHashMap<Part, Boolean> fresh) {
        this.ast = ast;
        this.futureAnnotations = futureAnnotations;
        this.parts = parts;
        this.module = moduleScope;

        // the module's names: each part's share, in statement order (first occurrence order as in one pass)
        List<Stmt.ImportFrom> starImports = new ArrayList<>(0);
        Set<String> childrenFree = new HashSet<>();
        List<Scope> children = new ArrayList<>(parts.size() + 8);
        for (Part p : parts) {
            for (RawSymbol rs : p.fragment.symbols.values()) {
                RawSymbol m = merged.symbol(rs.name);
                m.flags |= rs.flags;
                if (!rs.bindings.isEmpty()) {
                    if (m.bindings.isEmpty()) m.bindings = new ArrayList<>(rs.bindings);
                    else m.bindings.addAll(rs.bindings);
                }
                if (!rs.uses.isEmpty()) {
                    if (m.uses.isEmpty()) m.uses = new ArrayList<>(rs.uses);
                    else m.uses.addAll(rs.uses);
                }
                if (m.declaration == null) m.declaration = rs.declaration;
            }
            starImports.addAll(p.fragment.starImports);
            childrenFree.addAll(p.free);
            children.addAll(p.scopes);
        }
        merged.starImports = starImports;
        LinkedHashMap<String, Integer> flags = new LinkedHashMap<>(merged.symbols.size() * 4 / 3 + 4);
        for (RawSymbol s : merged.symbols.values()) flags.put(s.name, s.flags);
        Block top = new Block(ScopeKind.MODULE, merged.name, merged.lineno, false, flags, List.of(), merged);
        List<Problem> moduleProblems = new ArrayList<>(0);
        new Analyzer(false, moduleProblems).analyzeModule(top, childrenFree);
        freeze(merged, top, children);

        // resolution: the module's names, the new parts' names, then whatever reaches the module
        this.references = new IdentityHashMap<>();
        for (Symbol sym : module.symbols()) {
            Resolution r = Resolver.resolve(module, module, sym.name(), sym);
            sym.resolveTo(r);
            if (r.definition() != null) references.computeIfAbsent(r.definition(), k -> new ArrayList<>(2)).add(sym);
        }
        this.partOfTopScope = new IdentityHashMap<>(children.size() * 2);
        int moduleDependent = 0;
        for (Part p : parts) {
            for (Scope top2 : p.scopes) partOfTopScope.put(top2, p);
            if (fresh.containsKey(p)) {
                for (Scope t : p.scopes) {
                    for (Scope s : t.walk()) {
                        for (Symbol sym : s.symbols()) {
                            Resolution r = Resolver.resolve(module, s, sym.name(), sym);
                            sym.resolveTo(r);
                            if (r.definingScope() != null && r.definingScope().kind() == ScopeKind.MODULE) {
                                p.moduleDependent.add(sym);
                            } else if (r.definition() != null) {
                                p.localRefs.computeIfAbsent(r.definition(), k -> new ArrayList<>(2)).add(sym);
                            }
                        }
                    }
                }
                for (Map.Entry<Symbol, List<Symbol>> e : p.localRefs.entrySet()) e.setValue(List.copyOf(e.getValue()));
            }
            moduleDependent += p.moduleDependent.size();
        }
        this.moduleResolutions = new IdentityHashMap<>(moduleDependent * 4 / 3 + 16);
        for (Part p : parts) {
            boolean isFresh = fresh.containsKey(p);
            for (Symbol sym : p.moduleDependent) {
                Resolution r = isFresh ? sym.resolution() : Resolver.resolve(module, sym.scope(), sym.name(), sym);
                moduleResolutions.put(sym, r);
                if (r.definition() != null) references.computeIfAbsent(r.definition(), k -> new ArrayList<>(2)).add(sym);
            }
        }
        for (Map.Entry<Symbol, List<Symbol>> e : references.entrySet()) e.setValue(List.copyOf(e.getValue()));

        // node maps: each part's, entries of the module scope pointing at this version's module
        int nodes = 16, names = 16;
        for (Part p : parts) {
            nodes += p.scopeOfNode.size();
            names += p.names.size();
        }
        this.scopeOfNode = new IdentityHashMap<>(nodes);
        this.openers = new IdentityHashMap<>();
        this.nameSymbols = new IdentityHashMap<>(names);
        openers.put(ast, module);
        for (Part p : parts) {
            for (Map.Entry<Node, Scope> e : p.scopeOfNode.entrySet()) {
                Scope s = e.getValue();
                scopeOfNode.put(e.getKey(), s.kind() == ScopeKind.MODULE ? module : s);
            }
            openers.putAll(p.openers);
            for (Map.Entry<Expr.Name, RawSymbol> e : p.names.entrySet()) {
                RawSymbol rs = e.getValue();
                nameSymbols.put(e.getKey(), rs.moduleLevel ? module.lookup(rs.name) : rs.result);
            }
        }

        List<Problem> problems = new ArrayList<>();
        for (Part p : parts) problems.addAll(p.collectProblems);
        problems.addAll(moduleProblems);
        for (Part p : parts) problems.addAll(p.analysisProblems);
        this.problems = List.copyOf(problems);
    }

    /** Builds the symbol tables of a module. Never throws on a tree the parser produced, however broken the program. */
    public static SymbolTable build(Module module) {
        return update(null, module);
    }

    /**
     * The symbol tables of {@code next}, reusing what {@code previous} built for every top-level
     * statement that {@code next} holds as the same object ({@code ==}; the incremental document
     * model keeps the statements an edit does not touch): the scopes the statement opens, with
     * all their nested scopes, symbols, bindings and uses, its node-to-scope entries and its
     * problems. Only new statements are collected and analysed; the module scope (whose names
     * every statement contributes to, {@code global} declarations in functions included) is
     * always rebuilt, as is the resolution of each reused name that reaches the module (a global
     * or builtin). The answer is always the one {@link #build} gives for {@code next}.
     *
     * <p>Falls back to building from scratch when {@code previous} is null or was not built per
     * statement, when {@code from __future__ import annotations} changed (it decides whether
     * annotations are evaluated anywhere), and builds the whole module in one pass when some
     * statement has a module-level {@code global} or {@code nonlocal} (whose errors depend on
     * what earlier statements did).
     *
     * <p>A reused top-level scope keeps its {@link Scope#parent()}: the module scope of the
     * table that first built it; ask {@link #module()} for this version's, and
     * {@link #resolution(Symbol)} (or {@link #resolve}) rather than {@link Symbol#resolution()}
     * for what a reused name denotes in this version.
     */
    public static SymbolTable update(SymbolTable previous, Module next) {
        boolean future = Collector.hasFutureAnnotations(next);
        IdentityHashMap<Stmt, Part> old = null;
        if (previous != null && previous.parts != null && previous.futureAnnotations == future) {
            old = new IdentityHashMap<>(previous.parts.size() * 2);
            for (Part p : previous.parts) old.put(p.stmt, p);
        }
        RawScope merged = new RawScope(ScopeKind.MODULE, "top", next, 0, null, null);
        Scope moduleScope = merged.scope;
        List<Part> parts = new ArrayList<>(next.body().size());
        IdentityHashMap<Part, Boolean> fresh = new IdentityHashMap<>();
        for (Stmt s : next.body()) {
            Part p = old == null ? null : old.get(s);
            if (p == null) {
                p = new Part(s, future, moduleScope);
                if (p.readModuleFlags) return new SymbolTable(next, new Collector(next));
                IdentityHashMap<RawScope, Block> blocks = new IdentityHashMap<>();
                List<Block> childBlocks = new ArrayList<>(p.fragment.children.size());
                for (RawScope c : p.fragment.children) childBlocks.add(toBlock(c, blocks));
                p.free = new Analyzer(false, p.analysisProblems).analyzeTopLevel(childBlocks);
                for (RawScope c : p.fragment.children) p.scopes.add(toScope(c, blocks));
                fresh.put(p, Boolean.TRUE);
            }
            parts.add(p);
        }
        return new SymbolTable(next, parts, merged, moduleScope, future, fresh);
    }

    private static Block toBlock(RawScope raw, IdentityHashMap<RawScope, Block> blocks) {
        LinkedHashMap<String, Integer> symbols = new LinkedHashMap<>(raw.symbols.size() * 4 / 3 + 4);
        for (RawSymbol s : raw.symbols.values()) symbols.put(s.name, s.flags);
        List<Block> children = new ArrayList<>(raw.children.size());
        for (RawScope c : raw.children) children.add(toBlock(c, blocks));
        Block b = new Block(raw.kind, raw.name, raw.lineno, raw.canSeeClassScope, symbols, children, raw);
        blocks.put(raw, b);
        return b;
    }

    private static Scope toScope(RawScope raw, IdentityHashMap<RawScope, Block> blocks) {
        List<Scope> children = new ArrayList<>(raw.children.size());
        for (RawScope c : raw.children) children.add(toScope(c, blocks));
        return freeze(raw, blocks.get(raw), children);
    }

    private static Scope freeze(RawScope raw, Block b, List<Scope> children) {
        Scope scope = raw.scope;
        LinkedHashMap<String, Symbol> symbols = new LinkedHashMap<>(b.symbols.size() * 4 / 3 + 4);
        for (Map.Entry<String, Integer> e : b.symbols.entrySet()) {
            RawSymbol rs = raw.symbols.get(e.getKey());
            Symbol sym = rs == null
                    ? new Symbol(e.getKey(), scope, e.getValue(), 0, true, List.of(), List.of(), null)
                    : new Symbol(e.getKey(), scope, e.getValue(), rs.flags, false, rs.bindings, rs.uses, rs.declaration);
            if (rs != null) rs.result = sym;
            symbols.put(e.getKey(), sym);
        }
        scope.freeze(raw.canSeeClassScope, raw.kind == ScopeKind.CLASS ? raw.name : raw.privateName, raw.mangledNames,
                raw.starImports, children, symbols, b.needsClassClosure, b.needsClassDict);
        return scope;
    }

    /** The module's AST. */
    public Module ast() { return ast; }

    /** The module scope, root of the scope tree. */
    public Scope module() { return module; }

    /** Every scope, depth first. */
    public List<Scope> scopes() { return module.walk(); }

    /** Whether the module has {@code from __future__ import annotations} (annotations are then never evaluated). */
    public boolean futureAnnotations() { return futureAnnotations; }

    /** What CPython's symtable would reject in this module; empty for a valid program. */
    public List<Problem> problems() { return problems; }

    /**
     * The scope whose code evaluates {@code node}: for a decorator, a default value, a base
     * class or an annotation, the scope around the definition; for a function's body, the
     * function. Statements, expressions, patterns, arguments, parameters, aliases, keywords,
     * with-items, except handlers, match cases, type parameters and comprehension clauses are
     * known; null for any other node, or one from another tree (nodes are matched by identity).
     */
    public Scope scopeOf(Node node) {
        return scopeOfNode.get(node);
    }

    /**
     * The scope a node opens: a {@code Module}, {@code FunctionDef}/{@code AsyncFunctionDef}
     * (its body's scope; a generic function's type-parameter scope is that scope's parent),
     * {@code ClassDef} (likewise), {@code Lambda}, comprehension, {@code TypeAlias} (the value's
     * scope), or the bound/default expression of a type parameter; else null.
     */
    public Scope scopeOpenedBy(Node node) {
        Scope s = openers.get(node);
        if (s == null) return null;
        // a generic definition opens its type-parameter scope first; answer the inner one
        if (s.kind() == ScopeKind.TYPE_PARAMETERS) {
            for (Scope c : s.children()) if (c.node() == node && c.kind() != ScopeKind.TYPE_PARAMETERS) return c;
        }
        return s;
    }

    /** The symbol a {@code Name} node refers to in its own scope; null for a name no scope records (an unevaluated annotation). */
    public Symbol symbolOf(Expr.Name name) {
        return nameSymbols.get(name);
    }

    /**
     * What {@code symbol} (one of this table's) denotes in this version. Prefer it to
     * {@link Symbol#resolution()}: a symbol reused from an earlier table ({@link #update})
     * answers there for the version that built it, which differs for a name that reaches the
     * module (a global or builtin) when the module's names changed.
     */
    public Resolution resolution(Symbol symbol) {
        Resolution r = moduleResolutions.get(symbol);
        return r != null ? r : symbol.resolution();
    }

    /** What a {@code Name} node of this tree denotes; null for a node from another tree. */
    public Resolution resolve(Expr.Name name) {
        Symbol s = symbolOf(name);
        if (s != null) return resolution(s);
        Scope scope = scopeOfNode.get(name);
        return scope == null ? null : resolve(scope, name.id());
    }

    /** What an identifier written in {@code scope}'s code denotes (mangled as CPython would), whether or not the scope mentions it. */
    public Resolution resolve(Scope scope, String identifier) {
        String stored = scope.mangle(identifier);
        Symbol s = scope.lookup(stored);
        if (s != null) return resolution(s);
        return Resolver.resolve(module, scope, stored, null);
    }

    /**
     * Every symbol, in any scope, that denotes the variable {@code definition} owns (itself
     * included): the free uses of a closure variable, {@code nonlocal} and {@code global}
     * declarations, walrus targets in comprehensions. Empty for a symbol that owns no variable.
     */
    public List<Symbol> references(Symbol definition) {
        List<Symbol> refs = references.get(definition);
        if (refs != null || partOfTopScope.isEmpty()) return refs == null ? List.of() : refs;
        // a nested definition: its references are all inside its own top-level statement
        Scope top = definition.scope();
        while (top.parent() != null && top.parent().kind() != ScopeKind.MODULE) top = top.parent();
        Part p = partOfTopScope.get(top);
        if (p == null) return List.of();
        return p.localRefs.getOrDefault(definition, List.of());
    }

    /** All sites, in every scope, that bind the variable {@code definition} owns. */
    public List<Binding> bindingsOf(Symbol definition) {
        List<Symbol> refs = references(definition);
        if (refs.size() == 1) return refs.get(0).bindings();
        List<Binding> out = new ArrayList<>();
        for (Symbol s : refs) out.addAll(s.bindings());
        return Collections.unmodifiableList(out);
    }

    /** All {@code Name} nodes, in every scope, that read the variable {@code definition} owns. */
    public List<Expr.Name> usesOf(Symbol definition) {
        List<Symbol> refs = references(definition);
        if (refs.size() == 1) return refs.get(0).uses();
        List<Expr.Name> out = new ArrayList<>();
        for (Symbol s : refs) out.addAll(s.uses());
        return Collections.unmodifiableList(out);
    }
}
