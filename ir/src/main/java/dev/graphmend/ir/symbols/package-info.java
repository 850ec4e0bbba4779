/**
 * Symbol tables with Python's scoping rules, and what names and dotted expressions denote.
 *
 * <h2>Symbol tables</h2>
 *
 * <p>{@link dev.graphmend.ir.symbols.SymbolTable#build SymbolTable.build(module)} gives the
 * {@link dev.graphmend.ir.symbols.Scope} tree of a module: the module, classes, functions,
 * lambdas, comprehensions (list, set, dict, generator) and the PEP 695 type scopes (the
 * type-parameter scope of a generic function, class or alias, the lazy scope of a type
 * parameter's bound or default, the lazy value of a {@code type} alias). Each scope maps names
 * to {@link dev.graphmend.ir.symbols.Symbol}s; each symbol has
 * <ul>
 *   <li>a {@link dev.graphmend.ir.symbols.SymbolKind kind}: local, cell, free, global explicit
 *       or global implicit, as CPython resolves it;</li>
 *   <li>CPython's {@link dev.graphmend.ir.symbols.SymbolFlag flags}: parameter, assigned,
 *       referenced, imported, annotated, declared global or nonlocal, comprehension target,
 *       type parameter, ...;</li>
 *   <li>its {@link dev.graphmend.ir.symbols.Binding bindings} (the nodes of the scope's own code
 *       that bind it, each with its kind and construct) and {@code uses} (the {@code Name} nodes
 *       that read it);</li>
 *   <li>its {@link dev.graphmend.ir.symbols.Resolution resolution}: the symbol and scope that
 *       own the variable (itself, an enclosing function's cell, the class's {@code __class__}
 *       cell, the class namespace for a type scope, a module global, or builtin/unbound).</li>
 * </ul>
 * {@code SymbolTable} maps nodes back: {@code scopeOf(node)} (where a node is evaluated:
 * decorators, defaults, annotations and bases in the scope around a definition, a
 * comprehension's first iterable outside it), {@code scopeOpenedBy(node)},
 * {@code resolve(Name)}, and per variable {@code references}, {@code bindingsOf},
 * {@code usesOf} across every scope that shares it ({@code nonlocal}, closures, {@code global},
 * walrus targets in comprehensions). Star imports are recorded per scope and make unresolved
 * names {@code mayComeFromStarImport()}. Everything is immutable once built and nodes are
 * matched by identity, never by (structural) record equality.
 *
 * <h2>How it is built, and how we know it is right</h2>
 *
 * <p>The builder is a port of CPython 3.13's {@code Python/symtable.c}: {@code Collector}
 * walks the tree in CPython's order and records the same raw flags under the same mangled names
 * ({@code __x} in class {@code C} is stored as {@code _C__x}), {@code Analyzer} runs
 * CPython's {@code analyze_block}. Where CPython raises {@code SyntaxError} (a {@code nonlocal}
 * without binding, {@code import *} in a function, ...) we record a
 * {@link dev.graphmend.ir.symbols.SymbolTable.Problem} and go on; building never throws.
 *
 * <p>One deliberate difference: CPython 3.12+ inlines list, set and dict comprehensions into
 * their parent (PEP 709), and its {@code symtable} module then reports the comprehension's
 * names as the parent's and no scope for it. Python's semantics did not change (the iteration
 * variable is still invisible outside), so {@code SymbolTable} keeps every comprehension as a
 * scope, and {@link dev.graphmend.ir.symbols.Scope#isInlined()} says which ones CPython
 * inlines. {@link dev.graphmend.ir.symbols.SymtableDump} reruns the analysis with CPython's
 * inlining and prints the {@code gm-symtable-v1} dump that {@code tools/symtable_dump.py}
 * prints from CPython; {@code SymtableOracleTest} compares the two on the whole 3.13 standard
 * library, and our own view with CPython 3.11's (the last symtable before PEP 709).
 *
 * <p>Versions of an edited document: {@code SymbolTable.build(module, previous)} gives the same
 * table as {@code build(module)}, faster when the new tree reuses nodes of the previous one (the
 * incremental document model keeps every chunk an edit does not touch): the first pass over a
 * function body that is still the same node, in the same context, is replayed from a record the
 * previous table kept (see {@code Collector.Recorded}) into new scopes and symbols; the analysis
 * and the resolutions run again over the whole module. {@code IncrementalParsePropertyTest}
 * compares such tables with from-scratch ones after every edit, scope by scope and node by node.
 *
 * <h2>Imports and qualified names</h2>
 *
 * <p>{@link dev.graphmend.ir.symbols.Imports} lists what each import binds, as absolute dotted
 * names (relative imports resolved from the module's own name and whether it is a package's
 * {@code __init__}). {@link dev.graphmend.ir.symbols.QualifiedNames} maps an expression to the
 * {@link dev.graphmend.ir.symbols.Target} it names: {@code F.relu} after
 * {@code import torch.nn.functional as F} is {@code torch.nn.functional.relu}, {@code w} after
 * {@code from torch import where as w} is {@code torch.where}, {@code self.proj} in a method is
 * attribute {@code proj} of the class. {@link dev.graphmend.ir.symbols.Workspace} resolves
 * qualified names across the modules of a workspace ({@code from .sibling import f} to
 * {@code f}'s definition in {@code sibling}).
 *
 * <p>This package knows Python only: nothing of torch, nor of the language server.
 */
package dev.graphmend.ir.symbols;
