package dev.graphmend.ir.symbols;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.symbols.Analyzer.Block;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

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
    private final NodeIndex nodes;
    private final IdentityHashMap<Node, Scope> openers;
    /** Built on the first {@link #references} query: most versions of a document are never asked. */
    private volatile IdentityHashMap<Symbol, List<Symbol>> references;
    /** Built on the first {@link #bindingsOf} query (see there). */
    private volatile IdentityHashMap<Symbol, List<Symbol>> boundElsewhere;
    private final List<Problem> problems;
    /** Pass 1 of each top function body, for the next version's table (see {@link #build(Module, SymbolTable)}). */
    private final Map<Node, Collector.Recorded> recorded;

    /**
     * Something CPython's symtable rejects with a {@code SyntaxError} (a {@code nonlocal} with
     * no binding, {@code import *} in a function, {@code global} after use, ...). The table is
     * still built, as if the offending declaration were absent.
     *
     * @param span where, when known
     */
    public record Problem(String message, Span span) {}

    private SymbolTable(Module ast, Collector c) {
        this.ast = ast;
        this.futureAnnotations = c.futureAnnotations;
        List<Problem> problems = new ArrayList<>(c.problems);
        Block top = toBlock(c.module);
        new Analyzer(false, problems).analyze(top);

        this.module = toScope(top);
        this.nodes = c.nodes;
        this.openers = c.openers;
        this.recorded = c.recorded;
        nodes.freeze();

        for (Scope s : module.walk()) {
            for (Symbol sym : s.symbols()) sym.freeze(Resolver.resolve(module, s, sym.name(), sym));
        }
        this.problems = List.copyOf(problems);
    }

    /** The symbols that resolve to each definition, from the resolutions computed when the table was built. */
    private IdentityHashMap<Symbol, List<Symbol>> referencesIndex() {
        IdentityHashMap<Symbol, List<Symbol>> index = references;
        if (index != null) return index;
        synchronized (this) {
            if (references != null) return references;
            // built at each version of an edited file, over every symbol of every scope: most variables
            // have one reference (themselves), kept as an immutable list at once; the few read from
            // other scopes grow a list, copied immutable at the end
            List<Scope> scopes = module.walk();
            int symbols = 0;
            for (Scope s : scopes) symbols += s.symbolList().size();
            index = new IdentityHashMap<>(symbols);
            List<Symbol> shared = new ArrayList<>();
            for (Scope s : scopes) {
                List<Symbol> syms = s.symbolList();
                for (int i = 0, n = syms.size(); i < n; i++) {
                    Symbol sym = syms.get(i);
                    Symbol definition = sym.resolution().definition();
                    if (definition == null) continue;
                    List<Symbol> refs = index.get(definition);
                    if (refs == null) {
                        index.put(definition, List.of(sym));
                    } else if (refs instanceof ArrayList<Symbol> grown) {
                        grown.add(sym);
                    } else {
                        List<Symbol> grown = new ArrayList<>(4);
                        grown.addAll(refs);
                        grown.add(sym);
                        index.put(definition, grown);
                        shared.add(definition);
                    }
                }
            }
            for (Symbol d : shared) index.put(d, List.copyOf(index.get(d)));
            references = index;
            return index;
        }
    }

    /** Builds the symbol tables of a module. Never throws on a tree the parser produced, however broken the program. */
    public static SymbolTable build(Module module) {
        return new SymbolTable(module, new Collector(module));
    }

    /**
     * The same tables as {@link #build(Module)}, for a module that has no later version: the
     * first pass over function bodies is not recorded for replay, which saves its time and
     * about a third of the table's memory. A later {@link #build(Module, SymbolTable)} from this
     * table still gives the right result, only without replays.
     */
    public static SymbolTable buildOnce(Module module) {
        return new SymbolTable(module, Collector.withoutRecords(module));
    }

    /**
     * Builds the symbol tables of a module that is a later version of {@code previous}'s, as
     * {@link #build(Module)} does, with the same result: every scope, symbol and node mapping is
     * this table's own, and nothing in it refers to {@code previous}. Only faster: the first pass
     * over a function body that the new tree still holds (the same node object, in the same
     * context: the incremental document model reuses the nodes of every chunk an edit does not
     * touch) is replayed from what {@code previous} recorded of it instead of being walked again;
     * the analysis then runs over the whole module as usual.
     *
     * @param previous an earlier version's table, or null (then this is {@link #build(Module)})
     */
    public static SymbolTable build(Module module, SymbolTable previous) {
        if (previous == null) return build(module);
        return new SymbolTable(module, new Collector(module, previous.recorded, previous.nodes.size() + previous.nodes.size() / 8,
                previous.openers.size() + 16));
    }

    /**
     * The analysis works on the raw scope's own symbol map: the {@link Symbol}s pass 1 created
     * receive their final flags in place, and pass-through names are added to it as symbols.
     */
    private static Block toBlock(RawScope raw) {
        List<Block> children = new ArrayList<>(raw.children.size());
        for (RawScope c : raw.children) children.add(toBlock(c));
        return new Block(raw.kind, raw.name, raw.lineno, raw.canSeeClassScope, raw.symbols, children, raw, raw.scope);
    }

    /** Freezes the scopes (without inlining, the blocks' children are the raw scopes' children, in order). */
    private static Scope toScope(Block b) {
        RawScope raw = (RawScope) b.origin;
        Scope scope = raw.scope;
        List<Scope> children = new ArrayList<>(b.children.size());
        for (Block c : b.children) children.add(toScope(c));
        scope.freeze(raw.canSeeClassScope, raw.kind == ScopeKind.CLASS ? raw.name : raw.privateName, raw.mangledNames,
                raw.starImports, children, raw.symbols, b.needsClassClosure, b.needsClassDict);
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
        return nodes.scopeOf(node);
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
        return nodes.symbolOf(name);
    }

    /** What a {@code Name} node of this tree denotes; null for a node from another tree. */
    public Resolution resolve(Expr.Name name) {
        Symbol s = symbolOf(name);
        if (s != null) return s.resolution();
        Scope scope = nodes.scopeOf(name);
        return scope == null ? null : resolve(scope, name.id());
    }

    /** What an identifier written in {@code scope}'s code denotes (mangled as CPython would), whether or not the scope mentions it. */
    public Resolution resolve(Scope scope, String identifier) {
        String stored = scope.mangle(identifier);
        Symbol s = scope.lookup(stored);
        if (s != null) return s.resolution();
        return Resolver.resolve(module, scope, stored, null);
    }

    /**
     * Every symbol, in any scope, that denotes the variable {@code definition} owns (itself
     * included): the free uses of a closure variable, {@code nonlocal} and {@code global}
     * declarations, walrus targets in comprehensions. Empty for a symbol that owns no variable.
     */
    public List<Symbol> references(Symbol definition) {
        return referencesIndex().getOrDefault(definition, List.of());
    }

    /**
     * All sites, in every scope, that bind the variable {@code definition} owns: its own bindings,
     * then (in the order of {@link Scope#walk()}) those of the nested scopes that declare it
     * {@code global} or {@code nonlocal} (CPython marks a comprehension's {@code :=} target so too);
     * a name bound in any other scope is that scope's own variable. So this needs only the few
     * declared symbols, not the references index over every symbol, which the language server
     * would otherwise build at each keystroke (resolving a module's top-level names asks this).
     */
    public List<Binding> bindingsOf(Symbol definition) {
        List<Symbol> elsewhere = boundElsewhere().get(definition);
        boolean owns = definition.resolution().definition() == definition;
        if (elsewhere == null) return owns ? definition.bindings() : List.of();
        // a module-level name may be assigned under 'global' in many functions, and its bindings
        // are asked for at every use: collect them once
        return bindingsByDefinition.computeIfAbsent(definition, d -> {
            List<Binding> out = new ArrayList<>(owns ? d.bindings() : List.of());
            for (Symbol s : elsewhere) out.addAll(s.bindings());
            return Collections.unmodifiableList(out);
        });
    }

    /** The symbols declared global or nonlocal that bind, by the definition they resolve to; built on first use. */
    private IdentityHashMap<Symbol, List<Symbol>> boundElsewhere() {
        IdentityHashMap<Symbol, List<Symbol>> index = boundElsewhere;
        if (index != null) return index;
        synchronized (this) {
            if (boundElsewhere != null) return boundElsewhere;
            index = new IdentityHashMap<>();
            for (Scope s : module.walk()) {
                List<Symbol> syms = s.symbolList();
                for (int i = 0, n = syms.size(); i < n; i++) {
                    Symbol sym = syms.get(i);
                    if (!sym.isDeclaredGlobal() && !sym.isNonlocal() || sym.bindings().isEmpty()) continue;
                    Symbol definition = sym.resolution().definition();
                    if (definition != null && definition != sym) {
                        index.computeIfAbsent(definition, d -> new ArrayList<>(2)).add(sym);
                    }
                }
            }
            boundElsewhere = index;
            return index;
        }
    }

    private final java.util.concurrent.ConcurrentHashMap<Symbol, List<Binding>> bindingsByDefinition =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** All {@code Name} nodes, in every scope, that read the variable {@code definition} owns. */
    public List<Expr.Name> usesOf(Symbol definition) {
        List<Symbol> refs = references(definition);
        if (refs.size() == 1) return refs.get(0).uses();
        List<Expr.Name> out = new ArrayList<>();
        for (Symbol s : refs) out.addAll(s.uses());
        return Collections.unmodifiableList(out);
    }
}
