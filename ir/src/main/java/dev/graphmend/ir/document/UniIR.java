package dev.graphmend.ir.document;

import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.cfg.ControlFlowGraph;
import dev.graphmend.ir.cfg.DefUse;
import dev.graphmend.ir.parse.SyntaxError;
import dev.graphmend.ir.source.LineIndex;
import dev.graphmend.ir.symbols.SymbolTable;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The unified IR of one document version, as passes see it: the syntax tree, the line index,
 * the syntax errors, the symbol tables and a control-flow graph per function, class body and
 * module. Immutable; symbol tables and graphs are built on first use.
 *
 * <p>Graphs are cached by the identity of the node they are built from (records compare by
 * value, and hashing a whole subtree would cost what building the graph costs). The incremental
 * document model reuses the nodes of every chunk an edit does not touch, so the graphs of
 * untouched functions carry over to the next version ({@link #next}); only the graphs the
 * previous version used are carried, so old trees are not retained for long.
 */
public final class UniIR {
    private final PythonDocument document;
    private final Map<Node, ControlFlowGraph> graphs = new IdentityHashMap<>();
    private final Map<Node, ControlFlowGraph> inherited; // the previous version's graphs
    private final Map<Node, DefUse> chains = new IdentityHashMap<>();
    private final Map<Node, DefUse> inheritedChains;
    private volatile SymbolTable symbols;
    /** The latest earlier version's table, which {@link #symbols()} builds from; dropped once used. */
    private SymbolTable previousSymbols;

    /** Whether a later version may follow (an editor's document): then the symbol table keeps replay records. */
    private final boolean editable;

    private UniIR(PythonDocument document, Map<Node, ControlFlowGraph> inherited, Map<Node, DefUse> inheritedChains,
                  SymbolTable previousSymbols, boolean editable) {
        this.editable = editable;
        this.document = document;
        this.inherited = inherited;
        this.inheritedChains = inheritedChains;
        this.previousSymbols = previousSymbols;
    }

    public static UniIR of(PythonDocument document) {
        return new UniIR(document, Map.of(), Map.of(), null, true);
    }

    /**
     * The IR of a document that will not be edited (a file read for {@code check}, {@code fix}
     * or the workspace index): its symbol table records nothing for a later version.
     */
    public static UniIR ofUnedited(PythonDocument document) {
        return new UniIR(document, Map.of(), Map.of(), null, false);
    }

    /**
     * The IR of a later version of the same document, reusing the graphs of reused nodes and,
     * through {@link SymbolTable#build(Module, SymbolTable)}, the first symbol-table pass over
     * reused function bodies (from this version's table, or if this version never built one,
     * the latest earlier one). Only one earlier table is kept, and only until the later version
     * builds its own.
     */
    public UniIR next(PythonDocument later) {
        SymbolTable previous;
        synchronized (this) {
            previous = symbols != null ? symbols : previousSymbols;
        }
        synchronized (graphs) {
            // the graphs this version used; those of nodes the later version no longer has are
            // dropped with this map once nothing looks at this version
            return new UniIR(later, new IdentityHashMap<>(graphs), new IdentityHashMap<>(chains), previous, true);
        }
    }

    public PythonDocument document() { return document; }
    public Module module() { return document.module(); }
    public LineIndex lines() { return document.source().lines(); }
    public List<SyntaxError> errors() { return document.errors(); }

    /** The symbol tables of the whole module (built on first use, from the previous version's where there is one). */
    public SymbolTable symbols() {
        SymbolTable s = symbols;
        if (s == null) {
            synchronized (this) {
                if (symbols == null) {
                    symbols = editable ? SymbolTable.build(module(), previousSymbols) : SymbolTable.buildOnce(module());
                    previousSymbols = null;
                }
                s = symbols;
            }
        }
        return s;
    }

    /** The control-flow graph of a function, lambda, class body, or (given the module) the module. */
    public ControlFlowGraph cfg(Node scope) {
        synchronized (graphs) {
            ControlFlowGraph g = graphs.get(scope);
            if (g == null) {
                g = inherited.get(scope);
                if (g == null) g = ControlFlowGraph.ofScope(scope);
                graphs.put(scope, g);
            }
            return g;
        }
    }

    /** The def-use chains of a scope's graph ({@link #cfg}); carried to later versions with the graph. */
    public DefUse defUse(Node scope) {
        DefUse d;
        synchronized (graphs) {
            d = chains.get(scope);
            if (d == null && (d = inheritedChains.get(scope)) != null) chains.put(scope, d);
        }
        if (d != null) return d;
        d = DefUse.of(cfg(scope)); // outside the lock: other threads build other functions' chains meanwhile
        synchronized (graphs) {
            DefUse raced = chains.putIfAbsent(scope, d);
            return raced != null ? raced : d;
        }
    }
}
