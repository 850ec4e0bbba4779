package dev.graphmend.ir.symbols;

import dev.graphmend.ir.ast.Span;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    /** A block under analysis: its raw flags, which this pass turns into final ones in place. */
    static final class Block {
        final ScopeKind kind;
        final String name;
        final int lineno;
        final boolean canSeeClassScope;
        final LinkedHashMap<String, Integer> symbols;
        List<Block> children;
        final Object origin;
        boolean inlined;
        boolean needsClassClosure;
        boolean needsClassDict;

        Block(ScopeKind kind, String name, int lineno, boolean canSeeClassScope,
              LinkedHashMap<String, Integer> symbols, List<Block> children, Object origin) {
            this.kind = kind;
            this.name = name;
            this.lineno = lineno;
            this.canSeeClassScope = canSeeClassScope;
            this.symbols = symbols;
            this.children = children;
            this.origin = origin;
        }

        int flags(String name) {
            Integer v = symbols.get(name);
            return v == null ? 0 : v;
        }
    }

    private final boolean inline;
    private final List<SymbolTable.Problem> problems;

    Analyzer(boolean inline, List<SymbolTable.Problem> problems) {
        this.inline = inline;
        this.problems = problems;
    }

    void analyze(Block top) {
        analyzeBlock(top, null, new HashSet<>(), new HashSet<>(), null);
    }

    private void analyzeBlock(Block ste, Set<String> bound, Set<String> free, Set<String> global, Block classEntry) {
        Set<String> local = new HashSet<>();
        Map<String, Integer> scopes = new HashMap<>();
        Set<String> newGlobal = new HashSet<>();
        Set<String> newFree = new HashSet<>();
        Set<String> newBound = new HashSet<>();
        Set<String> inlinedCells = new HashSet<>();

        // Class namespaces are invisible to nested functions: children see what the class saw.
        if (ste.kind == ScopeKind.CLASS) {
            newGlobal.addAll(global);
            if (bound != null) newBound.addAll(bound);
        }
        for (Map.Entry<String, Integer> e : ste.symbols.entrySet()) {
            analyzeName(ste, scopes, e.getKey(), e.getValue(), bound, local, free, global, classEntry);
        }
        if (ste.kind != ScopeKind.CLASS) {
            if (ste.kind.isFunctionLike()) newBound.addAll(local);
            if (bound != null) newBound.addAll(bound);
            newGlobal.addAll(global);
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
            Set<String> childFree = new HashSet<>(newFree);
            analyzeBlock(child, new HashSet<>(newBound), childFree, new HashSet<>(newGlobal), newClassEntry);
            if (inlineComp) {
                inlineComprehension(ste, child, scopes, childFree, inlinedCells);
                child.inlined = true;
                anyInlined = true;
            }
            newFree.addAll(childFree);
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
            analyzeCells(scopes, newFree, inlinedCells);
        } else if (ste.kind == ScopeKind.CLASS) {
            if (newFree.remove("__class__")) ste.needsClassClosure = true;
            if (newFree.remove("__classdict__")) ste.needsClassDict = true;
        }
        updateSymbols(ste, scopes, bound, newFree, inlinedCells,
                ste.kind == ScopeKind.CLASS || ste.canSeeClassScope);
        free.addAll(newFree);
    }

    private void analyzeName(Block ste, Map<String, Integer> scopes, String name, int flags, Set<String> bound,
                             Set<String> local, Set<String> free, Set<String> global, Block classEntry) {
        if ((flags & Def.GLOBAL) != 0) {
            if ((flags & Def.NONLOCAL) != 0) problem(ste, name, "name '" + name + "' is nonlocal and global");
            scopes.put(name, Def.S_GLOBAL_EXPLICIT);
            global.add(name);
            if (bound != null) bound.remove(name);
            return;
        }
        if ((flags & Def.NONLOCAL) != 0) {
            if (bound == null) {
                problem(ste, name, "nonlocal declaration not allowed at module level");
            } else if (!bound.contains(name)) {
                problem(ste, name, "no binding for nonlocal '" + name + "' found");
            } else {
                scopes.put(name, Def.S_FREE);
                free.add(name);
                return;
            }
            // CPython stops here; we go on as if the declaration were absent.
        }
        if ((flags & Def.BOUND) != 0) {
            scopes.put(name, Def.S_LOCAL);
            local.add(name);
            global.remove(name);
            return;
        }
        // A class-visible type scope sees the class namespace first (through __classdict__).
        if (classEntry != null) {
            int classFlags = classEntry.flags(name);
            if ((classFlags & Def.GLOBAL) != 0) {
                scopes.put(name, Def.S_GLOBAL_EXPLICIT);
                return;
            } else if ((classFlags & Def.BOUND) != 0 && (classFlags & Def.NONLOCAL) == 0) {
                scopes.put(name, Def.S_GLOBAL_IMPLICIT);
                return;
            }
        }
        if (bound != null && bound.contains(name)) {
            scopes.put(name, Def.S_FREE);
            free.add(name);
            return;
        }
        scopes.put(name, Def.S_GLOBAL_IMPLICIT);
    }

    private static void inlineComprehension(Block ste, Block comp, Map<String, Integer> scopes,
                                            Set<String> compFree, Set<String> inlinedCells) {
        boolean removeDunderClass = false;
        for (Map.Entry<String, Integer> e : comp.symbols.entrySet()) {
            String k = e.getKey();
            int compFlags = e.getValue();
            if ((compFlags & Def.PARAM) != 0) continue; // the implicit .0 argument
            int scope = Def.scopeOf(compFlags);
            int onlyFlags = compFlags & Def.FLAG_MASK;
            if (scope == Def.S_CELL || (onlyFlags & Def.COMP_CELL) != 0) inlinedCells.add(k);
            Integer existing = ste.symbols.get(k);
            // __class__ is never free through a class scope (see drop_class_free)
            if (scope == Def.S_FREE && ste.kind == ScopeKind.CLASS && k.equals("__class__")) {
                scope = Def.S_GLOBAL_IMPLICIT;
                compFree.remove(k);
                removeDunderClass = true;
            }
            if (existing == null) {
                ste.symbols.put(k, onlyFlags);
                scopes.put(k, scope);
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
            Integer v = child.symbols.get(key);
            if (v != null && Def.scopeOf(v) == Def.S_FREE) return true;
        }
        return false;
    }

    private static void analyzeCells(Map<String, Integer> scopes, Set<String> free, Set<String> inlinedCells) {
        for (Map.Entry<String, Integer> e : scopes.entrySet()) {
            if (e.getValue() != Def.S_LOCAL) continue;
            String name = e.getKey();
            if (!free.contains(name) && !inlinedCells.contains(name)) continue;
            e.setValue(Def.S_CELL);
            free.remove(name);
        }
    }

    private static void updateSymbols(Block ste, Map<String, Integer> scopes, Set<String> bound, Set<String> free,
                                      Set<String> inlinedCells, boolean classFlag) {
        for (Map.Entry<String, Integer> e : ste.symbols.entrySet()) {
            int flags = e.getValue();
            if (inlinedCells.contains(e.getKey())) flags |= Def.COMP_CELL;
            Integer scope = scopes.get(e.getKey());
            flags |= (scope == null ? Def.S_GLOBAL_IMPLICIT : scope) << Def.SCOPE_OFFSET;
            e.setValue(flags);
        }
        // record free variables of children that pass through this block
        for (String name : free) {
            Integer v = ste.symbols.get(name);
            if (v != null) {
                // a class (or class-visible) name that is also free in a child
                if (classFlag) ste.symbols.put(name, v | Def.FREE_CLASS);
                continue;
            }
            if (bound != null && !bound.contains(name)) continue; // a global
            ste.symbols.put(name, Def.S_FREE << Def.SCOPE_OFFSET);
        }
    }

    /** A problem at the {@code global}/{@code nonlocal} statement that declared the name, where known. */
    private void problem(Block ste, String name, String message) {
        if (problems == null) return;
        Span span = null;
        if (ste.origin instanceof RawScope) {
            RawScope.RawSymbol rs = ((RawScope) ste.origin).symbols.get(name);
            if (rs != null && rs.declaration != null) span = rs.declaration.span();
        }
        problems.add(new SymbolTable.Problem(message, span));
    }
}
