package dev.graphmend.ir.symbols;

import dev.graphmend.ir.ast.Alias;
import dev.graphmend.ir.ast.Arg;
import dev.graphmend.ir.ast.Arguments;
import dev.graphmend.ir.ast.Comprehension;
import dev.graphmend.ir.ast.ExceptHandler;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.ExprContext;
import dev.graphmend.ir.ast.Keyword;
import dev.graphmend.ir.ast.MatchCase;
import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Pattern;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.TypeParam;
import dev.graphmend.ir.ast.WithItem;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pass 1 of the symbol table, a port of the visitor half of CPython 3.13's
 * {@code Python/symtable.c}: walks the AST in exactly CPython's order, opens the same blocks,
 * records the same raw flags under the same (mangled) names, and besides remembers which nodes
 * bind and use each name and which scope every node is evaluated in.
 *
 * <p>Never throws on a well-formed tree, whatever the program's errors: where CPython raises a
 * {@code SyntaxError} this records a {@link SymbolTable.Problem} and carries on.
 */
final class Collector {
    /** The scope of every node visited and the symbol of every Name (frozen by {@link SymbolTable}). */
    final NodeIndex nodes;
    final IdentityHashMap<Node, Scope> openers;
    final List<SymbolTable.Problem> problems = new ArrayList<>();
    final RawScope module;
    final boolean futureAnnotations;

    private final List<RawScope> stack = new ArrayList<>();
    private RawScope cur;
    /** CPython's st_private: the class whose body (or methods) we are in, for name mangling. */
    private String privateName;
    /** How a Store/Del Name visited now binds, and by which construct. */
    private Binding.Kind bindKind = Binding.Kind.ASSIGNMENT;
    private Node bindConstruct;

    // ---------------------------------------------------------------------------------------
    // reuse of function bodies between versions of a document

    /**
     * What pass 1 did inside one function body that is not nested in another function (a
     * module-level function or a method): the scopes it opened, with their symbols, the node
     * index entries it made, its problems, and the {@code global} declarations it added to the
     * module. Given the same node and the same context, pass 1 does exactly this again, so a
     * later version whose tree still holds the node (an edit elsewhere) replays it instead of
     * walking the body. The context is what the body's pass 1 reads from outside: the class
     * name private names are mangled with, whether annotations are evaluated, and nothing else
     * (the scope around it has no mangled-names set, and no binding construct is open; a generic
     * function's body qualifies, its type-parameter scope is visited as usual); everything else it
     * touches is its own scopes, which are closed when it ends, and the module's symbols of its
     * {@code global} names, which are recorded. A body that did anything else is not recorded.
     *
     * <p>The scope and symbol templates are a finished table's objects (read only): their kind,
     * name, node, line and pass-1 symbols (the leading, non-pass-through ones) are pass 1's.
     */
    static final class Recorded {
        final String privateName;
        final boolean futureAnnotations;
        /** The body's scopes in pre-order (the function's own first), of the table that holds this record. */
        final Scope[] scopes;
        /** Each scope's parent as an index into {@link #scopes}; -1 for the function's own. */
        final int[] parents;
        /** How many of each scope's symbols pass 1 made (they come first in its map). */
        final int[] pass1;
        final int symbolCount;
        /** Node index entries: {@code codes[i] >= 0} a scope's index, else {@code ~} a symbol's (in scope order). */
        final Node[] nodes;
        final int[] codes;
        /** An identity table over {@link #nodes} (see {@link NodeIndex#identityTable}). */
        final int[] table;
        /** The least and greatest first line of the entries' nodes (those with a position). */
        final int minLine;
        final int maxLine;
        /** The entries whose node has no position. */
        final int[] spanless;
        final List<SymbolTable.Problem> problems;
        /** {@code global} names (mangled) and flags added to the module's symbols, in order. */
        final String[] moduleNames;
        final int[] moduleFlags;

        Recorded(String privateName, boolean futureAnnotations, Scope[] scopes, int[] parents, int[] pass1,
                 int symbolCount, Node[] nodes, int[] codes, int[] table, int minLine, int maxLine, int[] spanless,
                 List<SymbolTable.Problem> problems, String[] moduleNames, int[] moduleFlags) {
            this.privateName = privateName;
            this.futureAnnotations = futureAnnotations;
            this.scopes = scopes;
            this.parents = parents;
            this.pass1 = pass1;
            this.symbolCount = symbolCount;
            this.nodes = nodes;
            this.codes = codes;
            this.table = table;
            this.minLine = minLine;
            this.maxLine = maxLine;
            this.spanless = spanless;
            this.problems = problems;
            this.moduleNames = moduleNames;
            this.moduleFlags = moduleFlags;
        }

        /** The same record over another table's copies of the scopes. */
        Recorded over(Scope[] copies) {
            return new Recorded(privateName, futureAnnotations, copies, parents, pass1, symbolCount, nodes, codes, table,
                    minLine, maxLine, spanless, problems, moduleNames, moduleFlags);
        }
    }

    /** The records of the previous version's table (nodes by identity); empty for a build from scratch. */
    private final Map<Node, Recorded> previous;
    /** This table's records, for the next version. */
    final IdentityHashMap<Node, Recorded> recorded = new IdentityHashMap<>();
    /** The scope of the function body being recorded, or null. */
    private RawScope recording;
    /** Whether the body being recorded did only what a record can replay. */
    private boolean recordable;
    private final List<String> moduleOpNames = new ArrayList<>();
    private final List<Integer> moduleOpFlags = new ArrayList<>();

    /** Whether function bodies are recorded for a later version's replay (not for a module that has none). */
    private final boolean keepRecords;

    Collector(Module mod) {
        this(mod, null, 4096, 64);
    }

    /** A collector for a module that has no later version: nothing is recorded for replay. */
    static Collector withoutRecords(Module mod) {
        return new Collector(mod, null, 4096, 64, false);
    }

    /**
     * @param previous the records of an earlier version's table, or null
     * @param expectedNodes, expectedOpeners sizes to start the node index and the openers map
     *     with (an earlier version's: most edits change them little)
     */
    Collector(Module mod, Map<Node, Recorded> previous, int expectedNodes, int expectedOpeners) {
        this(mod, previous, expectedNodes, expectedOpeners, true);
    }

    private Collector(Module mod, Map<Node, Recorded> previous, int expectedNodes, int expectedOpeners, boolean keepRecords) {
        this.keepRecords = keepRecords;
        this.previous = previous == null ? Map.of() : previous;
        nodes = new NodeIndex(expectedNodes);
        openers = new IdentityHashMap<>(expectedOpeners);
        futureAnnotations = hasFutureAnnotations(mod);
        module = new RawScope(ScopeKind.MODULE, "top", mod, 0, null, null);
        stack.add(module);
        cur = module;
        openers.put(mod, module.scope);
        for (Stmt s : mod.body()) visitStmt(s);
    }

    /** The function's body: replayed from the previous version's record when there is one, else visited (and recorded). */
    private void visitFunctionBody(Stmt s, String name, Arguments args, List<Stmt> body) {
        boolean candidate = keepRecords && recording == null && cur.mangledNames == null && bindKind == Binding.Kind.ASSIGNMENT
                && bindConstruct == null;
        if (candidate) {
            Recorded r = previous.get(s);
            if (r != null && r.futureAnnotations == futureAnnotations && java.util.Objects.equals(r.privateName, privateName)) {
                replay(r);
                return;
            }
        }
        RawScope fn = enterBlock(ScopeKind.FUNCTION, name, s, line(s));
        int nodeStart = nodes.size();
        int problemStart = problems.size();
        if (candidate) {
            recording = fn;
            recordable = true;
            moduleOpNames.clear();
            moduleOpFlags.clear();
        }
        visitParameters(args, s);
        visitStmts(body);
        if (candidate) {
            recording = null;
            if (recordable) {
                Recorded r = record(fn, nodeStart, problemStart);
                if (r != null) recorded.put(s, r);
            }
        }
        exitBlock();
    }

    /** The record of a body just visited, or null if it made an entry a record cannot replay. */
    private Recorded record(RawScope fn, int nodeStart, int problemStart) {
        List<RawScope> raws = new ArrayList<>();
        preOrder(fn, raws);
        int n = raws.size();
        Scope[] scopes = new Scope[n];
        int[] parents = new int[n];
        int[] pass1 = new int[n];
        Object owner = new Object();
        int symbols = 0;
        for (int k = 0; k < n; k++) {
            RawScope raw = raws.get(k);
            Scope sc = raw.scope;
            scopes[k] = sc;
            sc.slot = k;
            sc.slotOwner = owner;
            parents[k] = k == 0 ? -1 : raw.parent.scope.slot;
            SymbolMap map = raw.symbols;
            pass1[k] = map.size();
            for (int i = 0, m = map.size(); i < m; i++) ((Symbol) map.at(i)).slot = symbols++;
        }
        int count = nodes.size() - nodeStart;
        Node[] ns = new Node[count];
        int[] codes = new int[count];
        int minLine = Integer.MAX_VALUE;
        int maxLine = Integer.MIN_VALUE;
        int spanless = 0;
        for (int i = 0; i < count; i++) {
            int e = nodeStart + i;
            Object v = nodes.valueAt(e);
            if (v instanceof Symbol) {
                Symbol sym = (Symbol) v;
                if (sym.scope().slotOwner != owner) return null;
                codes[i] = ~sym.slot;
            } else if (v instanceof Scope) {
                if (((Scope) v).slotOwner != owner) return null;
                codes[i] = ((Scope) v).slot;
            } else {
                return null;
            }
            Node node = nodes.nodeAt(e);
            ns[i] = node;
            dev.graphmend.ir.ast.Span sp = node.span();
            if (sp == null) {
                spanless++;
            } else {
                minLine = Math.min(minLine, sp.line());
                maxLine = Math.max(maxLine, sp.line());
            }
        }
        int[] table = NodeIndex.identityTable(ns);
        if (table == null) return null;
        int[] noSpan = new int[spanless];
        for (int i = 0, k = 0; k < spanless; i++) if (ns[i].span() == null) noSpan[k++] = i;
        List<SymbolTable.Problem> ps = problems.size() == problemStart ? List.of()
                : List.copyOf(problems.subList(problemStart, problems.size()));
        int[] flags = new int[moduleOpFlags.size()];
        for (int i = 0; i < flags.length; i++) flags[i] = moduleOpFlags.get(i);
        return new Recorded(privateName, futureAnnotations, scopes, parents, pass1, symbols, ns, codes, table, minLine,
                maxLine, noSpan, ps, moduleOpNames.toArray(new String[0]), flags);
    }

    private static void preOrder(RawScope s, List<RawScope> out) {
        out.add(s);
        for (RawScope c : s.children) preOrder(c, out);
    }

    /** Does again what the recorded body's pass 1 did, with new scopes and symbols under the current scope. */
    private void replay(Recorded r) {
        int n = r.scopes.length;
        RawScope[] raws = new RawScope[n];
        Scope[] copies = new Scope[n];
        Symbol[] symbols = new Symbol[r.symbolCount];
        int next = 0;
        for (int k = 0; k < n; k++) {
            Scope t = r.scopes[k];
            RawScope parent = k == 0 ? cur : raws[r.parents[k]];
            int count = r.pass1[k];
            RawScope raw = new RawScope(t.kind(), t.name(), t.node(), t.line(), parent, t.privateName(), count);
            raw.canSeeClassScope = t.canSeeClassScope();
            raw.mangledNames = t.mangledOnly();
            if (t.hasStarImport()) raw.starImports = new ArrayList<>(t.starImports());
            SymbolMap from = t.symbolMap();
            for (int i = 0; i < count; i++) {
                Symbol sym = new Symbol((Symbol) from.at(i), raw.scope);
                raw.symbols.add(sym);
                symbols[next++] = sym;
            }
            parent.children.add(raw);
            raws[k] = raw;
            copies[k] = raw.scope;
        }
        nodes.addSegment(r, copies, symbols);
        for (int k = 0; k < n; k++) openers.putIfAbsent(r.scopes[k].node(), copies[k]);
        problems.addAll(r.problems);
        for (int i = 0; i < r.moduleNames.length; i++) addToModule(r.moduleNames[i], r.moduleFlags[i]);
        recorded.put(r.scopes[0].node(), r.over(copies));
    }

    /** A {@code global} declaration's mark on the module's symbol. */
    private void addToModule(String mangled, int flag) {
        Symbol m = module.symbol(mangled);
        m.rawFlags |= flag;
        m.flags = m.rawFlags;
    }

    /** CPython's future-feature scan: a docstring, then {@code from __future__ import ...} statements. */
    static boolean hasFutureAnnotations(Module mod) {
        boolean docstring = false;
        for (Stmt s : mod.body()) {
            if (s instanceof Stmt.ImportFrom) {
                Stmt.ImportFrom f = (Stmt.ImportFrom) s;
                if (!"__future__".equals(f.module()) || f.level() != 0) return false;
                for (Alias a : f.names()) if ("annotations".equals(a.name())) return true;
            } else if (!docstring && s instanceof Stmt.Expr && ((Stmt.Expr) s).value() instanceof Expr.Constant
                    && ((Expr.Constant) ((Stmt.Expr) s).value()).value() instanceof String) {
                docstring = true;
            } else {
                return false;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------------------------------
    // blocks

    private RawScope enterBlock(ScopeKind kind, String name, Node node, int lineno) {
        RawScope ste = new RawScope(kind, name, node, lineno, cur, privateName);
        if (cur.mangledNames != null && kind != ScopeKind.CLASS) ste.mangledNames = cur.mangledNames;
        cur.children.add(ste);
        stack.add(ste);
        cur = ste;
        openers.putIfAbsent(node, ste.scope);
        return ste;
    }

    private void exitBlock() {
        stack.remove(stack.size() - 1);
        cur = stack.get(stack.size() - 1);
    }

    // ---------------------------------------------------------------------------------------
    // names

    private String mangle(RawScope ste, String name) {
        if (ste.mangledNames != null && !ste.mangledNames.contains(name)) return name;
        return mangle(privateName, name);
    }

    /** CPython's {@code _Py_Mangle}: {@code __x} in class {@code _C} becomes {@code _C__x}. */
    static String mangle(String privateName, String ident) {
        if (privateName == null || ident.length() < 2 || ident.charAt(0) != '_' || ident.charAt(1) != '_') return ident;
        int n = ident.length();
        if ((ident.charAt(n - 1) == '_' && ident.charAt(n - 2) == '_') || ident.indexOf('.') >= 0) return ident;
        int i = 0;
        while (i < privateName.length() && privateName.charAt(i) == '_') i++;
        if (i == privateName.length()) return ident;
        return "_" + privateName.substring(i) + ident;
    }

    /** symtable_add_def: adds {@code flag} to {@code name} in the current block. */
    private Symbol addDef(String name, int flag) {
        if ((flag & Def.TYPE_PARAM) != 0 && cur.mangledNames != null) cur.mangledNames.add(name);
        return addDefHelper(name, flag, cur);
    }

    /** symtable_add_def_helper: adds {@code flag} to {@code name} in {@code ste} (mangled for the current block). */
    private Symbol addDefHelper(String name, int flag, RawScope ste) {
        String mangled = mangle(cur, name);
        // a recorded body may change its own scopes only (and the module's, through 'global')
        if (recording != null && ste.depth < recording.depth) recordable = false;
        Symbol sym = ste.symbol(mangled);
        int val = sym.rawFlags | flag;
        if (ste.compIterTarget) val |= Def.COMP_ITER;
        sym.rawFlags = val;
        sym.flags = val; // what the analysis starts from
        if ((flag & Def.PARAM) == 0 && (flag & Def.GLOBAL) != 0) {
            addToModule(mangled, flag);
            if (recording != null) {
                moduleOpNames.add(mangled);
                moduleOpFlags.add(flag);
            }
        }
        return sym;
    }

    private long lookup(RawScope ste, String name) {
        return ste.flags(mangle(cur, name));
    }

    private void problem(String message, Node at) {
        problems.add(new SymbolTable.Problem(message, at == null ? null : at.span()));
    }

    private void bind(String name, Binding.Kind kind, Node node, Node construct) {
        addDef(name, Def.LOCAL).addBinding(new Binding(kind, node, construct));
    }

    // ---------------------------------------------------------------------------------------
    // statements

    private void visitStmts(List<Stmt> body) {
        for (Stmt s : body) visitStmt(s);
    }

    private void visitStmt(Stmt s) {
        nodes.put(s, cur.scope);
        if (s instanceof Stmt.Expr) {
            visitExpr(((Stmt.Expr) s).value());
        } else if (s instanceof Stmt.Assign) {
            Stmt.Assign a = (Stmt.Assign) s;
            for (Expr t : a.targets()) visitTarget(t, Binding.Kind.ASSIGNMENT, s);
            visitExpr(a.value());
        } else if (s instanceof Stmt.If) {
            Stmt.If i = (Stmt.If) s;
            visitExpr(i.test());
            visitStmts(i.body());
            visitStmts(i.orelse());
        } else if (s instanceof Stmt.Return) {
            Expr v = ((Stmt.Return) s).value();
            if (v != null) visitExpr(v);
        } else if (s instanceof Stmt.FunctionDef) {
            Stmt.FunctionDef f = (Stmt.FunctionDef) s;
            visitFunction(s, f.name(), f.args(), f.body(), f.decoratorList(), f.returns(), f.typeParams());
        } else if (s instanceof Stmt.AsyncFunctionDef) {
            Stmt.AsyncFunctionDef f = (Stmt.AsyncFunctionDef) s;
            visitFunction(s, f.name(), f.args(), f.body(), f.decoratorList(), f.returns(), f.typeParams());
        } else if (s instanceof Stmt.ClassDef) {
            visitClass((Stmt.ClassDef) s);
        } else if (s instanceof Stmt.For) {
            Stmt.For f = (Stmt.For) s;
            visitTarget(f.target(), Binding.Kind.FOR_TARGET, s);
            visitExpr(f.iter());
            visitStmts(f.body());
            visitStmts(f.orelse());
        } else if (s instanceof Stmt.AsyncFor) {
            Stmt.AsyncFor f = (Stmt.AsyncFor) s;
            visitTarget(f.target(), Binding.Kind.FOR_TARGET, s);
            visitExpr(f.iter());
            visitStmts(f.body());
            visitStmts(f.orelse());
        } else if (s instanceof Stmt.While) {
            Stmt.While w = (Stmt.While) s;
            visitExpr(w.test());
            visitStmts(w.body());
            visitStmts(w.orelse());
        } else if (s instanceof Stmt.AugAssign) {
            Stmt.AugAssign a = (Stmt.AugAssign) s;
            visitTarget(a.target(), Binding.Kind.AUGMENTED_ASSIGNMENT, s);
            visitExpr(a.value());
        } else if (s instanceof Stmt.AnnAssign) {
            visitAnnAssign((Stmt.AnnAssign) s);
        } else if (s instanceof Stmt.Import) {
            for (Alias a : ((Stmt.Import) s).names()) visitAlias(a, s);
        } else if (s instanceof Stmt.ImportFrom) {
            for (Alias a : ((Stmt.ImportFrom) s).names()) visitAlias(a, s);
        } else if (s instanceof Stmt.Try) {
            Stmt.Try t = (Stmt.Try) s;
            visitTry(t.body(), t.handlers(), t.orelse(), t.finalbody());
        } else if (s instanceof Stmt.TryStar) {
            Stmt.TryStar t = (Stmt.TryStar) s;
            visitTry(t.body(), t.handlers(), t.orelse(), t.finalbody());
        } else if (s instanceof Stmt.With) {
            Stmt.With w = (Stmt.With) s;
            for (WithItem item : w.items()) visitWithItem(item, s);
            visitStmts(w.body());
        } else if (s instanceof Stmt.AsyncWith) {
            Stmt.AsyncWith w = (Stmt.AsyncWith) s;
            for (WithItem item : w.items()) visitWithItem(item, s);
            visitStmts(w.body());
        } else if (s instanceof Stmt.Raise) {
            Stmt.Raise r = (Stmt.Raise) s;
            if (r.exc() != null) {
                visitExpr(r.exc());
                if (r.cause() != null) visitExpr(r.cause());
            }
        } else if (s instanceof Stmt.Delete) {
            for (Expr t : ((Stmt.Delete) s).targets()) visitTarget(t, Binding.Kind.DELETION, s);
        } else if (s instanceof Stmt.Assert) {
            Stmt.Assert a = (Stmt.Assert) s;
            visitExpr(a.test());
            if (a.msg() != null) visitExpr(a.msg());
        } else if (s instanceof Stmt.Global) {
            visitGlobal((Stmt.Global) s);
        } else if (s instanceof Stmt.Nonlocal) {
            visitNonlocal((Stmt.Nonlocal) s);
        } else if (s instanceof Stmt.Match) {
            Stmt.Match m = (Stmt.Match) s;
            visitExpr(m.subject());
            for (MatchCase c : m.cases()) {
                nodes.put(c, cur.scope);
                visitPattern(c.pattern(), c);
                if (c.guard() != null) visitExpr(c.guard());
                visitStmts(c.body());
            }
        } else if (s instanceof Stmt.TypeAlias) {
            visitTypeAlias((Stmt.TypeAlias) s);
        }
        // Pass, Break, Continue: nothing
    }

    private void visitFunction(Stmt s, String name, Arguments args, List<Stmt> body, List<Expr> decorators,
                               Expr returns, List<TypeParam> typeParams) {
        bind(name, Binding.Kind.FUNCTION_DEFINITION, s, s);
        nodes.put(args, cur.scope);
        for (Expr d : args.defaults()) visitExpr(d);
        boolean kwDefaults = false;
        for (Expr d : args.kwDefaults()) {
            if (d != null) {
                visitExpr(d);
                kwDefaults = true;
            }
        }
        for (Expr d : decorators) visitExpr(d);
        boolean generic = !typeParams.isEmpty();
        if (generic) {
            // CPython tests args->defaults != NULL, which is true even for an empty list.
            enterTypeParamBlock(name, s, true, kwDefaults, false, line(s));
            for (TypeParam tp : typeParams) visitTypeParam(tp);
        }
        visitAnnotations(args, returns);
        visitFunctionBody(s, name, args, body);
        if (generic) exitBlock();
    }

    private void visitClass(Stmt.ClassDef c) {
        bind(c.name(), Binding.Kind.CLASS_DEFINITION, c, c);
        for (Expr d : c.decoratorList()) visitExpr(d);
        String outerPrivate = privateName;
        boolean generic = !c.typeParams().isEmpty();
        if (generic) {
            enterTypeParamBlock(c.name(), c, false, false, true, line(c));
            privateName = c.name();
            cur.privateName = privateName;
            cur.mangledNames = new HashSet<>();
            for (TypeParam tp : c.typeParams()) visitTypeParam(tp);
        }
        for (Expr b : c.bases()) visitExpr(b);
        for (Keyword k : c.keywords()) {
            nodes.put(k, cur.scope);
            visitExpr(k.value());
        }
        privateName = c.name();
        enterBlock(ScopeKind.CLASS, c.name(), c, line(c));
        if (generic) {
            addDef("__type_params__", Def.LOCAL);
            addDef(".type_params", Def.USE);
        }
        visitStmts(c.body());
        exitBlock();
        if (generic) exitBlock();
        privateName = outerPrivate;
    }

    private void visitTypeAlias(Stmt.TypeAlias t) {
        visitTarget(t.name(), Binding.Kind.TYPE_ALIAS, t);
        String name = t.name() instanceof Expr.Name ? ((Expr.Name) t.name()).id() : "?";
        boolean inClass = cur.kind == ScopeKind.CLASS;
        boolean generic = !t.typeParams().isEmpty();
        if (generic) {
            enterTypeParamBlock(name, t, false, false, false, line(t));
            for (TypeParam tp : t.typeParams()) visitTypeParam(tp);
        }
        enterBlock(ScopeKind.TYPE_ALIAS, name, t, line(t));
        cur.canSeeClassScope = inClass;
        if (inClass) addDef("__classdict__", Def.USE);
        visitExpr(t.value());
        exitBlock();
        if (generic) exitBlock();
    }

    private void enterTypeParamBlock(String name, Stmt s, boolean defaults, boolean kwDefaults, boolean isClass, int lineno) {
        ScopeKind outer = cur.kind;
        enterBlock(ScopeKind.TYPE_PARAMETERS, name, s, lineno);
        if (outer == ScopeKind.CLASS) {
            cur.canSeeClassScope = true;
            addDef("__classdict__", Def.USE);
        }
        if (isClass) {
            addDef(".type_params", Def.LOCAL);
            addDef(".type_params", Def.USE);
            addDef(".generic_base", Def.LOCAL);
            addDef(".generic_base", Def.USE);
        }
        if (defaults) addDef(".defaults", Def.PARAM);
        if (kwDefaults) addDef(".kwdefaults", Def.PARAM);
    }

    private void visitTypeParam(TypeParam tp) {
        nodes.put(tp, cur.scope);
        if (tp instanceof TypeParam.TypeVar) {
            TypeParam.TypeVar v = (TypeParam.TypeVar) tp;
            addTypeParam(v.name(), tp);
            visitBoundOrDefault(v.bound(), v.name());
            visitBoundOrDefault(v.defaultValue(), v.name());
        } else if (tp instanceof TypeParam.TypeVarTuple) {
            TypeParam.TypeVarTuple v = (TypeParam.TypeVarTuple) tp;
            addTypeParam(v.name(), tp);
            visitBoundOrDefault(v.defaultValue(), v.name());
        } else if (tp instanceof TypeParam.ParamSpec) {
            TypeParam.ParamSpec v = (TypeParam.ParamSpec) tp;
            addTypeParam(v.name(), tp);
            visitBoundOrDefault(v.defaultValue(), v.name());
        }
    }

    private void addTypeParam(String name, TypeParam tp) {
        addDef(name, Def.TYPE_PARAM | Def.LOCAL).addBinding(new Binding(Binding.Kind.TYPE_PARAMETER, tp, tp));
    }

    private void visitBoundOrDefault(Expr e, String name) {
        if (e == null) return;
        boolean inClass = cur.canSeeClassScope;
        enterBlock(ScopeKind.TYPE_VARIABLE, name, e, line(e));
        cur.canSeeClassScope = inClass;
        if (inClass) addDef("__classdict__", Def.USE);
        visitExpr(e);
        exitBlock();
    }

    private void visitAnnAssign(Stmt.AnnAssign s) {
        if (s.target() instanceof Expr.Name) {
            Expr.Name n = (Expr.Name) s.target();
            nodes.put(n, cur.scope);
            long prior = lookup(cur, n.id());
            if ((prior & (Def.GLOBAL | Def.NONLOCAL)) != 0 && cur != module && s.simple() != 0) {
                problem("annotated name '" + n.id() + "' can't be " + ((prior & Def.GLOBAL) != 0 ? "global" : "nonlocal"), s);
            }
            Binding.Kind kind = s.value() == null ? Binding.Kind.ANNOTATION : Binding.Kind.ANNOTATED_ASSIGNMENT;
            Symbol sym = null;
            if (s.simple() != 0) {
                sym = addDef(n.id(), Def.ANNOT | Def.LOCAL);
            } else if (s.value() != null) {
                sym = addDef(n.id(), Def.LOCAL);
            }
            if (sym != null) {
                sym.addBinding(new Binding(kind, n, s));
                nodes.putSymbol(n, sym);
            }
        } else {
            visitTarget(s.target(), Binding.Kind.ANNOTATED_ASSIGNMENT, s);
        }
        visitAnnotation(s.annotation());
        if (s.value() != null) visitExpr(s.value());
    }

    private void visitTry(List<Stmt> body, List<ExceptHandler> handlers, List<Stmt> orelse, List<Stmt> finalbody) {
        visitStmts(body);
        for (ExceptHandler h : handlers) {
            nodes.put(h, cur.scope);
            if (h.type() != null) visitExpr(h.type());
            if (h.name() != null) bind(h.name(), Binding.Kind.EXCEPT_HANDLER, h, h);
            visitStmts(h.body());
        }
        visitStmts(orelse);
        visitStmts(finalbody);
    }

    private void visitWithItem(WithItem item, Stmt s) {
        nodes.put(item, cur.scope);
        visitExpr(item.contextExpr());
        if (item.optionalVars() != null) visitTarget(item.optionalVars(), Binding.Kind.WITH_TARGET, s);
    }

    private void visitAlias(Alias a, Stmt s) {
        nodes.put(a, cur.scope);
        String name = a.asname() != null ? a.asname() : a.name();
        if ("*".equals(name)) {
            if (cur.kind != ScopeKind.MODULE) problem("import * only allowed at module level", a);
            cur.addStarImport((Stmt.ImportFrom) s);
            return;
        }
        int dot = name.indexOf('.');
        String store = dot >= 0 ? name.substring(0, dot) : name;
        addDef(store, Def.IMPORT).addBinding(new Binding(Binding.Kind.IMPORT, a, s));
    }

    private void visitGlobal(Stmt.Global s) {
        for (String name : s.names()) {
            long prior = lookup(cur, name);
            if ((prior & (Def.PARAM | Def.LOCAL | Def.USE | Def.ANNOT)) != 0) {
                problem(directiveMessage("global", name, prior), s);
            }
            Symbol sym = addDef(name, Def.GLOBAL);
            sym.declare(s);
        }
    }

    private void visitNonlocal(Stmt.Nonlocal s) {
        for (String name : s.names()) {
            long prior = lookup(cur, name);
            if ((prior & (Def.PARAM | Def.LOCAL | Def.USE | Def.ANNOT)) != 0) {
                problem(directiveMessage("nonlocal", name, prior), s);
            }
            Symbol sym = addDef(name, Def.NONLOCAL);
            sym.declare(s);
        }
    }

    private static String directiveMessage(String what, String name, long prior) {
        if ((prior & Def.PARAM) != 0) return "name '" + name + "' is parameter and " + what;
        if ((prior & Def.USE) != 0) return "name '" + name + "' is used prior to " + what + " declaration";
        if ((prior & Def.ANNOT) != 0) return "annotated name '" + name + "' can't be " + what;
        return "name '" + name + "' is assigned to before " + what + " declaration";
    }

    // ---------------------------------------------------------------------------------------
    // parameters and annotations

    private void visitParameters(Arguments a, Node owner) {
        for (Arg arg : a.posonlyargs()) visitParameter(arg, owner);
        for (Arg arg : a.args()) visitParameter(arg, owner);
        for (Arg arg : a.kwonlyargs()) visitParameter(arg, owner);
        if (a.vararg() != null) visitParameter(a.vararg(), owner);
        if (a.kwarg() != null) visitParameter(a.kwarg(), owner);
    }

    private void visitParameter(Arg arg, Node owner) {
        nodes.put(arg, cur.scope);
        addDef(arg.arg(), Def.PARAM).addBinding(new Binding(Binding.Kind.PARAMETER, arg, owner));
    }

    private void visitAnnotations(Arguments a, Expr returns) {
        for (Arg arg : a.posonlyargs()) visitAnnotation(arg.annotation());
        for (Arg arg : a.args()) visitAnnotation(arg.annotation());
        if (a.vararg() != null) visitAnnotation(a.vararg().annotation());
        if (a.kwarg() != null) visitAnnotation(a.kwarg().annotation());
        for (Arg arg : a.kwonlyargs()) visitAnnotation(arg.annotation());
        visitAnnotation(returns);
    }

    /**
     * An annotation. CPython 3.13 evaluates it in the current scope; under
     * {@code from __future__ import annotations} it visits it in a block that it never attaches to
     * the table, so it leaves no trace. We still map its nodes to the scope they would be
     * evaluated in, so that a name in a (stringified) annotation can be resolved.
     */
    private void visitAnnotation(Expr annotation) {
        if (annotation == null) return;
        if (!futureAnnotations) {
            visitExpr(annotation);
        } else {
            mapUnevaluated(annotation);
        }
    }

    private void mapUnevaluated(Node n) {
        nodes.put(n, cur.scope);
        n.forEachChild(this::mapUnevaluated);
    }

    // ---------------------------------------------------------------------------------------
    // expressions

    private void visitTarget(Expr target, Binding.Kind kind, Node construct) {
        Binding.Kind outerKind = bindKind;
        Node outerConstruct = bindConstruct;
        bindKind = kind;
        bindConstruct = construct;
        visitExpr(target);
        bindKind = outerKind;
        bindConstruct = outerConstruct;
    }

    private void visitExprs(List<Expr> exprs) {
        for (Expr e : exprs) visitExpr(e);
    }

    private void visitExpr(Expr e) {
        nodes.put(e, cur.scope);
        if (e instanceof Expr.Name) {
            visitName((Expr.Name) e);
        } else if (e instanceof Expr.Attribute) {
            visitExpr(((Expr.Attribute) e).value());
        } else if (e instanceof Expr.Constant) {
            // nothing
        } else if (e instanceof Expr.Call) {
            Expr.Call c = (Expr.Call) e;
            visitExpr(c.func());
            visitExprs(c.args());
            for (Keyword k : c.keywords()) {
                nodes.put(k, cur.scope);
                visitExpr(k.value());
            }
        } else if (e instanceof Expr.Subscript) {
            Expr.Subscript s = (Expr.Subscript) e;
            visitExpr(s.value());
            visitExpr(s.slice());
        } else if (e instanceof Expr.Tuple) {
            visitExprs(((Expr.Tuple) e).elts());
        } else if (e instanceof Expr.List) {
            visitExprs(((Expr.List) e).elts());
        } else if (e instanceof Expr.Starred) {
            visitExpr(((Expr.Starred) e).value());
        } else if (e instanceof Expr.BinOp) {
            Expr.BinOp b = (Expr.BinOp) e;
            visitExpr(b.left());
            visitExpr(b.right());
        } else if (e instanceof Expr.Compare) {
            Expr.Compare c = (Expr.Compare) e;
            visitExpr(c.left());
            visitExprs(c.comparators());
        } else if (e instanceof Expr.BoolOp) {
            visitExprs(((Expr.BoolOp) e).values());
        } else if (e instanceof Expr.UnaryOp) {
            visitExpr(((Expr.UnaryOp) e).operand());
        } else if (e instanceof Expr.JoinedStr) {
            visitExprs(((Expr.JoinedStr) e).values());
        } else if (e instanceof Expr.FormattedValue) {
            Expr.FormattedValue f = (Expr.FormattedValue) e;
            visitExpr(f.value());
            if (f.formatSpec() != null) visitExpr(f.formatSpec());
        } else if (e instanceof Expr.Dict) {
            Expr.Dict d = (Expr.Dict) e;
            for (Expr k : d.keys()) if (k != null) visitExpr(k);
            visitExprs(d.values());
        } else if (e instanceof Expr.IfExp) {
            Expr.IfExp i = (Expr.IfExp) e;
            visitExpr(i.test());
            visitExpr(i.body());
            visitExpr(i.orelse());
        } else if (e instanceof Expr.Lambda) {
            visitLambda((Expr.Lambda) e);
        } else if (e instanceof Expr.ListComp) {
            Expr.ListComp c = (Expr.ListComp) e;
            visitComprehension(e, ScopeKind.LIST_COMPREHENSION, "listcomp", c.generators(), c.elt(), null);
        } else if (e instanceof Expr.GeneratorExp) {
            Expr.GeneratorExp c = (Expr.GeneratorExp) e;
            visitComprehension(e, ScopeKind.GENERATOR_EXPRESSION, "genexpr", c.generators(), c.elt(), null);
        } else if (e instanceof Expr.SetComp) {
            Expr.SetComp c = (Expr.SetComp) e;
            visitComprehension(e, ScopeKind.SET_COMPREHENSION, "setcomp", c.generators(), c.elt(), null);
        } else if (e instanceof Expr.DictComp) {
            Expr.DictComp c = (Expr.DictComp) e;
            visitComprehension(e, ScopeKind.DICT_COMPREHENSION, "dictcomp", c.generators(), c.key(), c.value());
        } else if (e instanceof Expr.Set) {
            visitExprs(((Expr.Set) e).elts());
        } else if (e instanceof Expr.Slice) {
            Expr.Slice s = (Expr.Slice) e;
            if (s.lower() != null) visitExpr(s.lower());
            if (s.upper() != null) visitExpr(s.upper());
            if (s.step() != null) visitExpr(s.step());
        } else if (e instanceof Expr.NamedExpr) {
            visitNamedExpr((Expr.NamedExpr) e);
        } else if (e instanceof Expr.Await) {
            visitExpr(((Expr.Await) e).value());
        } else if (e instanceof Expr.Yield) {
            Expr v = ((Expr.Yield) e).value();
            if (v != null) visitExpr(v);
        } else if (e instanceof Expr.YieldFrom) {
            visitExpr(((Expr.YieldFrom) e).value());
        }
    }

    private void visitName(Expr.Name n) {
        if (n.ctx() == ExprContext.Load) {
            Symbol sym = addDef(n.id(), Def.USE);
            sym.addUse(n);
            nodes.putSymbol(n, sym);
            if (cur.kind.isFunctionLike() && "super".equals(n.id())) addDef("__class__", Def.USE);
        } else {
            Symbol sym = addDef(n.id(), Def.LOCAL);
            Binding.Kind kind = n.ctx() == ExprContext.Del ? Binding.Kind.DELETION : bindKind;
            sym.addBinding(new Binding(kind, n, bindConstruct));
            if (kind == Binding.Kind.AUGMENTED_ASSIGNMENT) sym.addUse(n);
            nodes.putSymbol(n, sym);
        }
    }

    private void visitLambda(Expr.Lambda l) {
        Arguments a = l.args();
        nodes.put(a, cur.scope);
        visitExprs(a.defaults());
        for (Expr d : a.kwDefaults()) if (d != null) visitExpr(d);
        enterBlock(ScopeKind.LAMBDA, "lambda", l, line(l));
        visitParameters(a, l);
        visitExpr(l.body());
        exitBlock();
    }

    private void visitComprehension(Expr e, ScopeKind kind, String name, List<Comprehension> generators, Expr elt, Expr value) {
        if (generators.isEmpty()) return; // not a comprehension CPython could parse
        Comprehension outermost = generators.get(0);
        nodes.put(outermost, cur.scope);
        visitExpr(outermost.iter());
        enterBlock(kind, name, e, line(e));
        addDef(".0", Def.PARAM);
        cur.compIterTarget = true;
        visitTarget(outermost.target(), Binding.Kind.COMPREHENSION_TARGET, outermost);
        cur.compIterTarget = false;
        visitExprs(outermost.ifs());
        for (int i = 1; i < generators.size(); i++) {
            Comprehension g = generators.get(i);
            nodes.put(g, cur.scope);
            cur.compIterTarget = true;
            visitTarget(g.target(), Binding.Kind.COMPREHENSION_TARGET, g);
            cur.compIterTarget = false;
            visitExpr(g.iter());
            visitExprs(g.ifs());
        }
        if (value != null) visitExpr(value);
        visitExpr(elt);
        exitBlock();
    }

    private void visitNamedExpr(Expr.NamedExpr e) {
        if (cur.kind.isComprehension() && e.target() instanceof Expr.Name) {
            extendNamedExprScope((Expr.Name) e.target());
        }
        visitExpr(e.value());
        visitTarget(e.target(), Binding.Kind.NAMED_EXPRESSION, e);
    }

    /** symtable_extend_namedexpr_scope: a walrus in a comprehension binds in the nearest function or module. */
    private void extendNamedExprScope(Expr.Name target) {
        String name = target.id();
        for (int i = stack.size() - 1; i >= 0; i--) {
            RawScope ste = stack.get(i);
            if (ste.kind.isComprehension()) {
                long inScope = lookup(ste, name);
                if ((inScope & Def.COMP_ITER) != 0 && (inScope & Def.LOCAL) != 0) {
                    problem("assignment expression cannot rebind comprehension iteration variable '" + name + "'", target);
                    return;
                }
                continue;
            }
            if (ste.kind == ScopeKind.FUNCTION || ste.kind == ScopeKind.LAMBDA) {
                long inScope = lookup(ste, name);
                addDef(name, (inScope & Def.GLOBAL) != 0 ? Def.GLOBAL : Def.NONLOCAL);
                addDefHelper(name, Def.LOCAL, ste);
                return;
            }
            if (ste.kind == ScopeKind.MODULE) {
                addDef(name, Def.GLOBAL);
                addDefHelper(name, Def.GLOBAL, ste);
                return;
            }
            if (ste.kind == ScopeKind.CLASS || ste.kind.isTypeScope()) {
                problem("assignment expression within a comprehension cannot be used in a "
                        + (ste.kind == ScopeKind.CLASS ? "class body" : "type scope"), target);
                return;
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // patterns

    private void visitPattern(Pattern p, Node matchCase) {
        nodes.put(p, cur.scope);
        if (p instanceof Pattern.MatchValue) {
            visitExpr(((Pattern.MatchValue) p).value());
        } else if (p instanceof Pattern.MatchSequence) {
            for (Pattern q : ((Pattern.MatchSequence) p).patterns()) visitPattern(q, matchCase);
        } else if (p instanceof Pattern.MatchStar) {
            String name = ((Pattern.MatchStar) p).name();
            if (name != null) bind(name, Binding.Kind.MATCH_CAPTURE, p, matchCase);
        } else if (p instanceof Pattern.MatchMapping) {
            Pattern.MatchMapping m = (Pattern.MatchMapping) p;
            visitExprs(m.keys());
            for (Pattern q : m.patterns()) visitPattern(q, matchCase);
            if (m.rest() != null) bind(m.rest(), Binding.Kind.MATCH_CAPTURE, p, matchCase);
        } else if (p instanceof Pattern.MatchClass) {
            Pattern.MatchClass m = (Pattern.MatchClass) p;
            visitExpr(m.cls());
            for (Pattern q : m.patterns()) visitPattern(q, matchCase);
            for (Pattern q : m.kwdPatterns()) visitPattern(q, matchCase);
        } else if (p instanceof Pattern.MatchAs) {
            Pattern.MatchAs m = (Pattern.MatchAs) p;
            if (m.pattern() != null) visitPattern(m.pattern(), matchCase);
            if (m.name() != null) bind(m.name(), Binding.Kind.MATCH_CAPTURE, p, matchCase);
        } else if (p instanceof Pattern.MatchOr) {
            for (Pattern q : ((Pattern.MatchOr) p).patterns()) visitPattern(q, matchCase);
        }
        // MatchSingleton: nothing
    }

    /** CPython's lineno of a node; 0 for a node without a position (never from the parser, but cheap to allow). */
    private static int line(Node n) {
        Span s = n.span();
        return s == null ? 0 : s.line();
    }
}
