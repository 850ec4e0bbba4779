package dev.graphmend.ir.symbols;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One name of one {@link Scope}: how the scope's code reaches it ({@link #kind()}), what CPython
 * records about it ({@link #flags()}), and the nodes of this scope's own code that bind it
 * ({@link #bindings()}) and read it ({@link #uses()}). Names inside a class are stored mangled
 * ({@code __x} in class {@code C} is {@code _C__x}), as CPython stores them.
 *
 * <p>A variable can span scopes: a closure's free name, a {@code nonlocal} or {@code global}
 * declaration, a walrus in a comprehension. {@link #resolution()} leads to the symbol that owns
 * the storage; {@link SymbolTable#references(Symbol)}, {@link SymbolTable#bindingsOf(Symbol)} and
 * {@link SymbolTable#usesOf(Symbol)} gather every scope's share of it.
 *
 * <p>Immutable once its {@link SymbolTable} is built. While the table is built, the symbol is
 * the entry that pass 1 fills (raw flags, bindings, uses, declaration)
 * and that the analysis completes (the final flags): one object from the first
 * sighting of the name to the finished table, rather than a raw record copied into a final one.
 */
public final class Symbol extends Analyzer.Entry {
    private final Scope scope;
    private final boolean passThrough;
    private List<Binding> bindings = List.of();
    private List<Expr.Name> uses = List.of();
    private Stmt declaration;
    private Resolution resolution;

    /** While a table is built: this symbol's number in the function body {@link Collector} is recording. */
    int slot;
    /** The binding and use lists are a finished table's (unmodifiable already, shared). */
    private boolean listsShared;

    Symbol(String name, Scope scope, boolean passThrough) {
        super(name);
        this.scope = scope;
        this.passThrough = passThrough;
    }

    /**
     * Pass 1's view of {@code done}, a symbol of a finished table, as a symbol of {@code scope}:
     * raw flags, bindings, uses and declaration, before any analysis. The lists are shared, as
     * they are immutable and hold nodes of the same (reused) subtree.
     */
    Symbol(Symbol done, Scope scope) {
        super(done.name);
        this.scope = scope;
        this.passThrough = false;
        this.rawFlags = done.rawFlags;
        this.flags = done.rawFlags;
        this.bindings = done.bindings;
        this.uses = done.uses;
        this.declaration = done.declaration;
        this.listsShared = true;
    }

    void addBinding(Binding b) {
        if (bindings.isEmpty()) bindings = new ArrayList<>(2);
        bindings.add(b);
    }

    void addUse(Expr.Name n) {
        if (uses.isEmpty()) uses = new ArrayList<>(4);
        uses.add(n);
    }

    /** The first {@code global}/{@code nonlocal} statement naming it, recorded by pass 1. */
    void declare(Stmt s) {
        if (declaration == null) declaration = s;
    }

    /** Ends the build: the lists become unmodifiable, and the resolution is set. */
    void freeze(Resolution r) {
        if (!listsShared) {
            // exact-size copies: a workspace holds hundreds of thousands of symbols
            if (!bindings.isEmpty()) bindings = dev.graphmend.ir.ast.Nodes.freeze(bindings);
            if (!uses.isEmpty()) uses = dev.graphmend.ir.ast.Nodes.freeze(uses);
        }
        this.resolution = r;
    }

    /** The name as stored: mangled inside classes, CPython's hidden names start with a dot. */
    public String name() { return name; }

    /** The scope this symbol belongs to. */
    public Scope scope() { return scope; }

    /** Where the name lives for this scope's code (CPython's resolved scope of the symbol). */
    public SymbolKind kind() { return SymbolKind.fromCPython(Def.scopeOf(flags)); }

    /** CPython's flags for the name in this scope (an unmodifiable set). */
    public Set<SymbolFlag> flags() { return SymbolFlag.decode(flags); }

    public boolean has(SymbolFlag flag) { return (flags & flag.bit) != 0; }

    public boolean isParameter() { return (flags & Def.PARAM) != 0; }
    public boolean isAssigned() { return (flags & Def.LOCAL) != 0; }
    public boolean isReferenced() { return (flags & Def.USE) != 0; }
    public boolean isImported() { return (flags & Def.IMPORT) != 0; }
    public boolean isAnnotated() { return (flags & Def.ANNOT) != 0; }
    public boolean isNonlocal() { return (flags & Def.NONLOCAL) != 0; }
    /** Named in a {@code global} statement of this scope (kind then is {@link SymbolKind#GLOBAL_EXPLICIT}). */
    public boolean isDeclaredGlobal() { return (flags & Def.GLOBAL) != 0; }
    /** Bound here: a parameter, assigned (or deleted, or declared by an annotation), or imported. */
    public boolean isBound() { return (flags & Def.BOUND) != 0; }
    public boolean isFree() { return kind() == SymbolKind.FREE; }
    public boolean isCell() { return kind() == SymbolKind.CELL; }

    /** As CPython's {@code Symbol.is_local()}: local or cell, or bound at module level. */
    public boolean isLocal() {
        SymbolKind k = kind();
        return k == SymbolKind.LOCAL || k == SymbolKind.CELL || (scope.kind() == ScopeKind.MODULE && isBound());
    }

    /** As CPython's {@code Symbol.is_global()}: an explicit or implicit global, or bound at module level. */
    public boolean isGlobal() {
        SymbolKind k = kind();
        return k == SymbolKind.GLOBAL_EXPLICIT || k == SymbolKind.GLOBAL_IMPLICIT
                || (scope.kind() == ScopeKind.MODULE && isBound());
    }

    /**
     * True for a name this scope never mentions, listed only because a nested scope uses it
     * freely from further out (CPython lists it so the closure can be passed through).
     */
    public boolean isPassThrough() { return passThrough; }

    /** CPython's hidden names ({@code .0}, {@code .type_params}, {@code .defaults}, ...). */
    public boolean isHidden() { return name.startsWith("."); }

    /** The nodes of this scope's own code that bind the name, in source order of the visit. */
    public List<Binding> bindings() { return bindings; }

    /**
     * The {@code Name} nodes of this scope's own code that read the name (loads, and the target
     * of an augmented assignment, which reads before it writes).
     */
    public List<Expr.Name> uses() { return uses; }

    /** The first {@code global} or {@code nonlocal} statement of this scope naming it, else null. */
    public Stmt declaration() { return declaration; }

    /** What the name denotes for this scope's code. */
    public Resolution resolution() { return resolution; }

    /** The CPython flag word: raw flags plus the resolved scope in bits 12-15. */
    int cpythonFlags() { return flags; }

    /** The flags the first pass collected, before analysis (what the CPython view starts from). */
    int rawFlags() { return rawFlags; }

    @Override
    public String toString() {
        return name + " " + kind().dumpName() + " " + SymbolFlag.dump(flags & Def.FLAG_MASK) + " in " + scope;
    }
}
