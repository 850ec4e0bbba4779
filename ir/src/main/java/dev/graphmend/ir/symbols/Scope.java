package dev.graphmend.ir.symbols;

import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * One namespace of a module: the module, a class body, a function or lambda, a comprehension,
 * or a PEP 695 type scope. Immutable once its {@link SymbolTable} is built.
 *
 * <p>The scopes are the ones CPython 3.13's symtable creates, in the same order, with the same
 * {@link #name()} and {@link #line()}. One difference: every comprehension is its own scope
 * here, as it is in Python's semantics, while CPython's {@code symtable} module merges list, set
 * and dict comprehensions into their parent (PEP 709 inlining, see {@link #isInlined()} and
 * {@link SymtableDump}).
 */
public final class Scope {
    private final ScopeKind kind;
    private final String name;
    private final Node node;
    private final int line;
    private final Scope parent;
    private boolean canSeeClassScope;
    private String privateName;
    private Set<String> mangledOnly;
    private List<Stmt.ImportFrom> starImports = List.of();
    private List<Scope> children = List.of();
    private SymbolMap symbols = new SymbolMap(0);
    private List<Symbol> symbolList = List.of();
    private boolean needsClassCell;
    private boolean needsClassDict;
    /** While a table is built: this scope's number in the function body {@link Collector} is recording ({@link #slotOwner}). */
    int slot;
    Object slotOwner;

    Scope(ScopeKind kind, String name, Node node, int line, Scope parent) {
        this.kind = kind;
        this.name = name;
        this.node = node;
        this.line = line;
        this.parent = parent;
    }

    /** Called once, while the table is built; the scope is immutable afterwards. */
    void freeze(boolean canSeeClassScope, String privateName, Set<String> mangledOnly, List<Stmt.ImportFrom> starImports,
                List<Scope> children, SymbolMap symbols, boolean needsClassCell, boolean needsClassDict) {
        this.canSeeClassScope = canSeeClassScope;
        this.privateName = privateName;
        this.mangledOnly = mangledOnly == null ? null : Set.copyOf(mangledOnly);
        this.starImports = starImports.isEmpty() ? List.of() : List.copyOf(starImports);
        this.children = children.isEmpty() ? List.of() : Collections.unmodifiableList(children);
        this.symbols = symbols;
        this.symbolList = symbols.symbols();
        this.needsClassCell = needsClassCell;
        this.needsClassDict = needsClassDict;
    }

    public ScopeKind kind() { return kind; }

    /**
     * CPython's name for the block: {@code top} for the module, the function's or class's name,
     * {@code lambda}, {@code listcomp}/{@code setcomp}/{@code dictcomp}/{@code genexpr}, the
     * generic's name for a type-parameter scope, the type parameter's name for its bound or
     * default, the alias's name for a type alias value.
     */
    public String name() { return name; }

    /** Its mangled-names set (null: every private name is mangled); for a replay of this scope. */
    Set<String> mangledOnly() { return mangledOnly; }

    /** Its symbols as the map the table built (pass 1's symbols first, then pass-through ones). */
    SymbolMap symbolMap() { return symbols; }

    /**
     * The node that opens the scope: the {@code Module}; the {@code FunctionDef},
     * {@code AsyncFunctionDef} or {@code ClassDef}; the {@code Lambda} or comprehension
     * expression; for {@link ScopeKind#TYPE_PARAMETERS} the generic function, class or
     * {@code TypeAlias} statement; for {@link ScopeKind#TYPE_VARIABLE} the bound, constraints or
     * default expression; for {@link ScopeKind#TYPE_ALIAS} the {@code TypeAlias} statement.
     */
    public Node node() { return node; }

    /** CPython's {@code lineno} of the block (0 for the module). */
    public int line() { return line; }

    /** The enclosing scope; null for the module. */
    public Scope parent() { return parent; }

    /** The nested scopes in the order CPython creates them (evaluation order of the source). */
    public List<Scope> children() { return children; }

    /** The symbols in the order the names first occur. */
    public Collection<Symbol> symbols() { return symbolList; }

    /** The same symbols, indexable: for the table's indexes, which visit every symbol of every scope. */
    List<Symbol> symbolList() { return symbolList; }

    /** The symbol stored under {@code storedName} (already mangled; see {@link #lookupIdentifier}), or null. */
    public Symbol lookup(String storedName) { return (Symbol) symbols.get(storedName); }

    /** The symbol for an identifier as written in this scope's code (mangled first when inside a class), or null. */
    public Symbol lookupIdentifier(String identifier) { return (Symbol) symbols.get(mangle(identifier)); }

    /**
     * The name under which an identifier written in this scope is stored: private names
     * ({@code __x}) inside a class are mangled to {@code _Class__x}, as CPython does.
     */
    public String mangle(String identifier) {
        if (mangledOnly != null && !mangledOnly.contains(identifier)) return identifier;
        return Collector.mangle(privateName, identifier);
    }

    /** The class whose name mangles private names here (the nearest enclosing class), or null. */
    public String privateName() { return privateName; }

    /**
     * A PEP 695 type scope directly inside a class (or nested in such a scope): it sees the
     * class's names through {@code __classdict__}, which a function in a class does not.
     */
    public boolean canSeeClassScope() { return canSeeClassScope; }

    /**
     * A list, set or dict comprehension that CPython 3.12+ compiles inline into its parent
     * (PEP 709); {@code symtable} then reports its names as the parent's. Generator expressions
     * and comprehensions in class-visible type scopes are never inlined.
     */
    public boolean isInlined() {
        return kind.isComprehension() && kind != ScopeKind.GENERATOR_EXPRESSION && !parent.canSeeClassScope;
    }

    /** For a class: some method uses {@code super()} or {@code __class__}, so the class creates a {@code __class__} cell. */
    public boolean needsClassCell() { return needsClassCell; }

    /** For a class: a type scope inside it reads its namespace, so the class keeps a {@code __classdict__} cell. */
    public boolean needsClassDict() { return needsClassDict; }

    /** The {@code from m import *} statements of this scope (legal only in the module). */
    public List<Stmt.ImportFrom> starImports() { return starImports; }

    public boolean hasStarImport() { return !starImports.isEmpty(); }

    /** The nearest enclosing (or this) scope that is not a comprehension or type scope: where a function's or class's locals live. */
    public Scope enclosingDefinitionScope() {
        Scope s = this;
        while (s.parent != null && (s.kind.isComprehension() || s.kind.isTypeScope())) s = s.parent;
        return s;
    }

    /** This scope and all nested ones, depth first in {@link #children()} order. */
    public List<Scope> walk() {
        List<Scope> out = new ArrayList<>();
        walk(this, out);
        return out;
    }

    private static void walk(Scope s, List<Scope> out) {
        out.add(s);
        for (Scope c : s.children) walk(c, out);
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + " " + name + "@" + line;
    }
}
