package dev.graphmend.ir.symbols;

import dev.graphmend.ir.ast.Span;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Pass 2 of the symbol table, a port of the analysis half of CPython 3.13's
 * {@code Python/symtable.c} ({@code analyze_block}, {@code analyze_name},
 * {@code inline_comprehension}, {@code analyze_cells}, {@code drop_class_free},
 * {@code update_symbols}): decides for each name of each block whether it is local, a cell,
 * free, or an explicit or implicit global.
 *
 * <p>With {@code inline} it also does what CPython 3.12+ does with list, set and dict
 * comprehensions (PEP 709): merges each one's names into its parent and splices its child blocks
 * into the parent's children, which is what {@code symtable} then reports. Without it, every
 * comprehension stays its own scope, which is Python's semantics (PEP 709 keeps them) and what
 * {@link SymbolTable} exposes.
 */
final class Analyzer {
    /**
     * One name of a block under analysis. {@link #flags} holds the raw flags of pass 1 until
     * the block is analysed, then the final word (raw flags plus the resolved scope); the
     * {@link SymbolTable}'s blocks hold its {@link Symbol}s themselves, so the analysis writes
     * the final flags straight into them.
     */
    static class Entry {
        final String name;
        /** Pass 1's flags (kept as they were: the CPython view reruns the analysis from them). */
        int rawFlags;
        /** What CPython's block dictionary holds for the name: raw flags, then final ones. */
        int flags;
        /** The scope {@code analyze_name} chose (CPython's {@code scopes} dictionary); 0 for none yet. */
        int analysedScope;

        Entry(String name) {
            this.name = name;
        }
    }

    /** A block under analysis: its raw flags, which this pass turns into final ones in place. */
    static final class Block {
        final ScopeKind kind;
        final String name;
        final int lineno;
        final boolean canSeeClassScope;
        final SymbolMap symbols;
        List<Block> children;
        final Object origin;
        /** When not null, names the analysis adds are (pass-through) symbols of this scope. */
        final Scope scope;
        boolean inlined;
        boolean needsClassClosure;
        boolean needsClassDict;

        Block(ScopeKind kind, String name, int lineno, boolean canSeeClassScope,
              SymbolMap symbols, List<Block> children, Object origin, Scope scope) {
            this.kind = kind;
            this.name = name;
            this.lineno = lineno;
            this.canSeeClassScope = canSeeClassScope;
            this.symbols = symbols;
            this.children = children;
            this.origin = origin;
            this.scope = scope;
        }

        int flags(String name) {
            Entry e = symbols.get(name);
            return e == null ? 0 : e.flags;
        }

        /** Adds a name the block's code does not mention (a pass-through free name, an inlined comprehension's name). */
        Entry add(String name, int flags) {
            Entry e = scope != null ? new Symbol(name, scope, true) : new Entry(name);
            e.flags = flags;
            symbols.add(e);
            return e;
        }
    }

    private final boolean inline;
    private final List<SymbolTable.Problem> problems;

    Analyzer(boolean inline, List<SymbolTable.Problem> problems) {
        this.inline = inline;
        this.problems = problems;
    }

    void analyze(Block top) {
        analyzeBlock(top, null, new HashSet<>(), null);
    }

    /*
     * CPython also passes down a 'global' set (the names a parent declared global) that
     * analyze_name consults only to choose GLOBAL_IMPLICIT, the scope it chooses anyway when the
     * name is in neither set: it decides nothing, so it is not kept here.
     */
    private void analyzeBlock(Block ste, Set<String> bound, Set<String> free, Block classEntry) {
        Set<String> newFree = new HashSet<>();
        Set<String> newBound = new HashSet<>();
        // only inlining makes cells of a comprehension's names
        Set<String> inlinedCells = inline ? new HashSet<>() : Collections.emptySet();
        // CPython's 'local' set only feeds newbound, and only in a function-like block: collect
        // the locals straight into newBound there (bound sets are only ever queried, never
        // iterated, so the order they are filled in does not matter)
        Set<String> local = ste.kind.isFunctionLike() ? newBound : null;

        // Class namespaces are invisible to nested functions: children see what the class saw.
        // (Empty sets are not added: addAll iterates, and this runs for every block of a file at each keystroke.)
        if (ste.kind == ScopeKind.CLASS) {
            if (bound != null && !bound.isEmpty()) newBound.addAll(bound);
        }
        SymbolMap symbols = ste.symbols;
        for (int i = 0, n = symbols.size(); i < n; i++) {
            analyzeName(ste, symbols.at(i), bound, local, free, classEntry);
        }
        if (ste.kind != ScopeKind.CLASS) {
            // (a function-like block's locals are in newBound already)
            if (bound != null && !bound.isEmpty()) newBound.addAll(bound);
        } else {
            newBound.add("__class__");
            newBound.add("__classdict__");
        }

        boolean anyInlined = false;
        for (Block child : ste.children) {
            Block newClassEntry = null;
            if (child.canSeeClassScope) {
                if (ste.kind == ScopeKind.CLASS) newClassEntry = ste;
                else if (classEntry != null) newClassEntry = classEntry;
            }
            boolean inlineComp = inline && child.kind.isComprehension()
                    && child.kind != ScopeKind.GENERATOR_EXPRESSION && !ste.canSeeClassScope;
            // Each child gets its own copy of what this block knows only where it may change it: its
            // analysis adds to 'free' (which this block then takes in whole, unless the inlining
            // removes some again) and changes 'bound' only for a name it declares global.
            Set<String> childBound = declaresGlobal(child) ? new HashSet<>(newBound) : newBound;
            if (inlineComp) {
                Set<String> childFree = new HashSet<>(newFree);
                analyzeBlock(child, childBound, childFree, newClassEntry);
                inlineComprehension(ste, child, childFree, inlinedCells);
                child.inlined = true;
                anyInlined = true;
                newFree.addAll(childFree);
            } else {
                analyzeBlock(child, childBound, newFree, newClassEntry);
            }
        }
        if (anyInlined) {
            List<Block> spliced = new ArrayList<>(ste.children.size());
            for (Block child : ste.children) {
                if (child.inlined) spliced.addAll(child.children);
                else spliced.add(child);
            }
            ste.children = spliced;
        }

        if (ste.kind.isFunctionLike()) {
            analyzeCells(ste.symbols, newFree, inlinedCells);
        } else if (ste.kind == ScopeKind.CLASS) {
            if (newFree.remove("__class__")) ste.needsClassClosure = true;
            if (newFree.remove("__classdict__")) ste.needsClassDict = true;
        }
        updateSymbols(ste, bound, newFree, inlinedCells,
                ste.kind == ScopeKind.CLASS || ste.canSeeClassScope);
        if (!newFree.isEmpty()) free.addAll(newFree);
    }

    /** Whether a name of the block was declared {@code global} in it (the only case its analysis changes 'bound'). */
    private static boolean declaresGlobal(Block block) {
        SymbolMap symbols = block.symbols;
        for (int i = 0, n = symbols.size(); i < n; i++) {
            if ((symbols.at(i).flags & Def.GLOBAL) != 0) return true;
        }
        return false;
    }

    private void analyzeName(Block ste, Entry entry, Set<String> bound,
                             Set<String> local, Set<String> free, Block classEntry) {
        String name = entry.name;
        int flags = entry.flags;
        if ((flags & Def.GLOBAL) != 0) {
            if ((flags & Def.NONLOCAL) != 0) problem(ste, name, "name '" + name + "' is nonlocal and global");
            entry.analysedScope = Def.S_GLOBAL_EXPLICIT;
            if (bound != null) bound.remove(name);
            return;
        }
        if ((flags & Def.NONLOCAL) != 0) {
            if (bound == null) {
                problem(ste, name, "nonlocal declaration not allowed at module level");
            } else if (!bound.contains(name)) {
                problem(ste, name, "no binding for nonlocal '" + name + "' found");
            } else {
                entry.analysedScope = Def.S_FREE;
                free.add(name);
                return;
            }
            // CPython stops here; we go on as if the declaration were absent.
        }
        if ((flags & Def.BOUND) != 0) {
            entry.analysedScope = Def.S_LOCAL;
            if (local != null) local.add(name);
            return;
        }
        // A class-visible type scope sees the class namespace first (through __classdict__).
        if (classEntry != null) {
            int classFlags = classEntry.flags(name);
            if ((classFlags & Def.GLOBAL) != 0) {
                entry.analysedScope = Def.S_GLOBAL_EXPLICIT;
                return;
            } else if ((classFlags & Def.BOUND) != 0 && (classFlags & Def.NONLOCAL) == 0) {
                entry.analysedScope = Def.S_GLOBAL_IMPLICIT;
                return;
            }
        }
        if (bound != null && bound.contains(name)) {
            entry.analysedScope = Def.S_FREE;
            free.add(name);
            return;
        }
        entry.analysedScope = Def.S_GLOBAL_IMPLICIT;
    }

    private static void inlineComprehension(Block ste, Block comp, Set<String> compFree, Set<String> inlinedCells) {
        boolean removeDunderClass = false;
        for (int i = 0, n = comp.symbols.size(); i < n; i++) {
            Entry e = comp.symbols.at(i);
            String k = e.name;
            int compFlags = e.flags;
            if ((compFlags & Def.PARAM) != 0) continue; // the implicit .0 argument
            int scope = Def.scopeOf(compFlags);
            int onlyFlags = compFlags & Def.FLAG_MASK;
            if (scope == Def.S_CELL || (onlyFlags & Def.COMP_CELL) != 0) inlinedCells.add(k);
            Entry existingEntry = ste.symbols.get(k);
            Integer existing = existingEntry == null ? null : existingEntry.flags;
            // __class__ is never free through a class scope (see drop_class_free)
            if (scope == Def.S_FREE && ste.kind == ScopeKind.CLASS && k.equals("__class__")) {
                scope = Def.S_GLOBAL_IMPLICIT;
                compFree.remove(k);
                removeDunderClass = true;
            }
            if (existing == null) {
                ste.add(k, onlyFlags).analysedScope = scope;
            } else if ((existing & Def.BOUND) != 0 && ste.kind != ScopeKind.CLASS) {
                // free in the comprehension, local here: simply local, unless a child of the
                // comprehension needs it free
                if (!isFreeInAnyChild(comp, k)) compFree.remove(k);
            }
        }
        if (removeDunderClass) comp.symbols.remove("__class__");
    }

    private static boolean isFreeInAnyChild(Block entry, String key) {
        for (Block child : entry.children) {
            Entry v = child.symbols.get(key);
            if (v != null && Def.scopeOf(v.flags) == Def.S_FREE) return true;
        }
        return false;
    }

    /** Over CPython's {@code scopes} dictionary: the entries {@code analyze_name} (or the inlining) gave a scope. */
    private static void analyzeCells(SymbolMap symbols, Set<String> free, Set<String> inlinedCells) {
        if (free.isEmpty() && inlinedCells.isEmpty()) return;
        for (int i = 0, n = symbols.size(); i < n; i++) {
            Entry e = symbols.at(i);
            if (e.analysedScope != Def.S_LOCAL) continue;
            String name = e.name;
            if (!free.contains(name) && !inlinedCells.contains(name)) continue;
            e.analysedScope = Def.S_CELL;
            free.remove(name);
        }
    }

    private static void updateSymbols(Block ste, Set<String> bound, Set<String> free,
                                      Set<String> inlinedCells, boolean classFlag) {
        SymbolMap symbols = ste.symbols;
        boolean anyInlinedCells = !inlinedCells.isEmpty();
        for (int i = 0, n = symbols.size(); i < n; i++) {
            Entry e = symbols.at(i);
            int flags = e.flags;
            if (anyInlinedCells && inlinedCells.contains(e.name)) flags |= Def.COMP_CELL;
            int scope = e.analysedScope;
            flags |= (scope == 0 ? Def.S_GLOBAL_IMPLICIT : scope) << Def.SCOPE_OFFSET;
            e.flags = flags;
        }
        // record free variables of children that pass through this block
        if (free.isEmpty()) return;
        for (String name : free) {
            Entry v = symbols.get(name);
            if (v != null) {
                // a class (or class-visible) name that is also free in a child
                if (classFlag) v.flags |= Def.FREE_CLASS;
                continue;
            }
            if (bound != null && !bound.contains(name)) continue; // a global
            ste.add(name, Def.S_FREE << Def.SCOPE_OFFSET);
        }
    }

    /** A problem at the {@code global}/{@code nonlocal} statement that declared the name, where known. */
    private void problem(Block ste, String name, String message) {
        if (problems == null) return;
        Span span = null;
        if (ste.origin instanceof RawScope) {
            Entry e = ((RawScope) ste.origin).symbols.get(name);
            if (e instanceof Symbol && ((Symbol) e).declaration() != null) span = ((Symbol) e).declaration().span();
        }
        problems.add(new SymbolTable.Problem(message, span));
    }
}
