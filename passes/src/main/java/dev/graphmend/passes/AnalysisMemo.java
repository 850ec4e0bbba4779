package dev.graphmend.passes;

import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.analysis.ClassInfo;
import dev.graphmend.passes.analysis.CompileRegions;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.analysis.Val;
import dev.graphmend.passes.analysis.ValueKind;
import dev.graphmend.passes.config.AnalysisConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the rules found in each function of one document's previous version, so that the next
 * version's analysis runs them again only where the edit can have changed something (the
 * language server keeps one per open document; {@link Analyzer#analyze(dev.graphmend.passes.analysis.Project,
 * SourceModule, AnalysisMemo)}).
 *
 * <p>The incremental document model hands the next version the very same node objects for every
 * member an edit does not touch. A function's diagnostics are a function of its own tree (same
 * node: same text, same positions), its parameters' values and whether it is a root (from the
 * new version's discovery, which always runs), the bindings of names, and the bodies of the
 * callees and classes its values were read from ({@link
 * dev.graphmend.passes.analysis.FunctionContext#consulted()}). Results are reused only when the
 * edit replaced function bodies and nothing else: the module's statements, the classes'
 * statements and every changed function's header (name, parameters, decorators) are as they
 * were, no {@code global} statement is involved, and neither version has syntax errors. A
 * function is then analysed again when it changed, when it belongs to a class with a changed
 * member (its attributes may have changed), when it consulted a changed function or class, or
 * when a fix proposed in it looked at the module's other compiled functions (the deferral's
 * registration must be legal for all of them: {@link
 * dev.graphmend.passes.analysis.FunctionContext#readWholeModule()}). Anything
 * else (other files, the configuration) changing clears the memo. Not thread-safe: one analysis
 * at a time.
 */
public final class AnalysisMemo {
    /** Node identity, for keys and sets (records hash and compare whole subtrees). */
    private record Ident(Node node) {
        @Override public boolean equals(Object o) { return o instanceof Ident i && i.node == node; }
        @Override public int hashCode() { return System.identityHashCode(node); }
    }

    /** A parameter value that outlives its project: the class as its definition node. */
    private record PortableVal(ValueKind kind, Ident cls) {}

    private record Key(Ident def, Map<String, PortableVal> params, boolean root, Diagnostic.Root rootInfo) {}

    private record Entry(Key key, Ident owner, Set<Node> consulted, List<Diagnostic> found, boolean moduleWide) {}

    private dev.graphmend.ir.ast.Module module;
    private boolean hadErrors;
    private AnalysisConfig config;
    private List<SourceModule> others = List.of();
    private Map<Key, Entry> entries = new HashMap<>();
    private Map<Key, Entry> next = new HashMap<>();
    private Set<Node> changed = Collections.emptySet();
    private int reused;
    private String mode = "";
    private int analysed;

    /** How many functions the last analysis took from the memo, and how many it analysed. */
    public int reused() { return reused; }
    public int analysed() { return analysed; }

    /** Why the last analysis could or could not reuse results ("3 changed definitions", "syntax errors", ...). */
    public String lastMode() { return mode; }

    /** Decides what of the previous version can be reused for this one. */
    void begin(SourceModule focus, List<SourceModule> othersNow, AnalysisConfig configNow) {
        reused = 0;
        analysed = 0;
        next = new HashMap<>();
        dev.graphmend.ir.ast.Module now = focus.ir().module();
        boolean errors = !focus.ir().errors().isEmpty();
        Set<Node> diff = null;
        if (module == null) mode = "first version";
        else if (errors || hadErrors) mode = "syntax errors";
        else if (!Objects.equals(config, configNow) || !sameIdentities(others, othersNow)) mode = "configuration or other files changed";
        else if ((diff = bodyChanges(module, now)) == null) mode = "more than function bodies changed";
        else mode = diff.size() + " changed definitions";
        if (diff == null) entries = new HashMap<>();
        changed = diff == null ? Collections.emptySet() : diff;
        module = now;
        hadErrors = errors;
        config = configNow;
        others = List.copyOf(othersNow);
    }

    /** The previous diagnostics of a reached function of the focus module, when still valid; else null. */
    List<Diagnostic> lookup(CompileRegions.Reached r) {
        Entry e = entries.get(key(r));
        if (e == null || e.moduleWide || changed.contains(e.owner.node()) || !Collections.disjoint(e.consulted, changed)) {
            return null;
        }
        synchronized (this) {
            next.put(e.key, e);
            reused++;
        }
        return e.found;
    }

    /** Records what the rules found in a function of this version. */
    void store(CompileRegions.Reached r, Set<Node> consulted, boolean moduleWide, List<Diagnostic> found) {
        ClassInfo owner = r.function().owner();
        Entry e = new Entry(key(r), new Ident(owner == null ? null : owner.def()), snapshot(consulted), List.copyOf(found),
                moduleWide);
        synchronized (this) {
            next.put(e.key, e);
            analysed++;
        }
    }

    /** Forgets everything: the next analysis starts from scratch (after one that did not finish). */
    void forget() {
        module = null;
        entries = new HashMap<>();
        next = new HashMap<>();
    }

    /** This version's entries become the ones the next version looks up. */
    void end() {
        entries = next;
        next = new HashMap<>();
    }

    private static Set<Node> snapshot(Set<Node> consulted) {
        Set<Node> s = Collections.newSetFromMap(new IdentityHashMap<>());
        s.addAll(consulted);
        return s;
    }

    private static Key key(CompileRegions.Reached r) {
        Map<String, PortableVal> params = new HashMap<>();
        for (Map.Entry<String, Val> p : r.params().entrySet()) {
            Val v = p.getValue();
            params.put(p.getKey(), new PortableVal(v.kind(), v.cls() == null ? null : new Ident(v.cls().def())));
        }
        return new Key(new Ident(r.function().def()), params, r.isRoot(), r.root());
    }

    private static boolean sameIdentities(List<SourceModule> a, List<SourceModule> b) {
        if (a.size() != b.size()) return false;
        for (int i = 0; i < a.size(); i++) if (a.get(i) != b.get(i)) return false;
        return true;
    }

    /**
     * The old nodes an edit replaced when it changed only function bodies: each changed function
     * and every class around it. Null when anything else changed.
     */
    static Set<Node> bodyChanges(dev.graphmend.ir.ast.Module before, dev.graphmend.ir.ast.Module after) {
        Set<Node> out = Collections.newSetFromMap(new IdentityHashMap<>());
        return sameBlock(before.body(), after.body(), out) ? out : null;
    }

    private static boolean sameBlock(List<Stmt> before, List<Stmt> after, Set<Node> changed) {
        if (before.size() != after.size()) return false;
        for (int i = 0; i < before.size(); i++) {
            Stmt b = before.get(i), a = after.get(i);
            if (a == b) continue;
            if (b instanceof Stmt.FunctionDef fb && a instanceof Stmt.FunctionDef fa) {
                if (!sameHeader(fb, fa) || hasGlobal(fb.body()) || hasGlobal(fa.body())) return false;
                changed.add(fb);
            } else if (b instanceof Stmt.ClassDef cb && a instanceof Stmt.ClassDef ca) {
                if (!cb.name().equals(ca.name()) || !cb.bases().equals(ca.bases()) || !cb.keywords().equals(ca.keywords())
                        || !cb.decoratorList().equals(ca.decoratorList()) || !sameStart(cb, ca)) {
                    return false;
                }
                if (!sameBlock(cb.body(), ca.body(), changed)) return false;
                changed.add(cb);
            } else {
                return false;
            }
        }
        return true;
    }

    private static boolean sameHeader(Stmt.FunctionDef b, Stmt.FunctionDef a) {
        return b.name().equals(a.name()) && b.args().equals(a.args()) && b.decoratorList().equals(a.decoratorList())
                && Objects.equals(b.returns(), a.returns()) && sameStart(b, a);
    }

    /** Whether a body (nested functions included) declares a name global, which rebinds a module-level name. */
    private static boolean hasGlobal(List<Stmt> body) {
        List<Node> todo = new ArrayList<>(body);
        while (!todo.isEmpty()) {
            Node n = todo.remove(todo.size() - 1);
            if (n instanceof Stmt.Global) return true;
            n.forEachChild(todo::add);
        }
        return false;
    }

    /** Same start: nodes after an edit that moved them are new objects anyway, and then not the same block. */
    private static boolean sameStart(Node b, Node a) {
        return b.span() != null && a.span() != null && b.span().line() == a.span().line() && b.span().col() == a.span().col();
    }
}
