package dev.graphmend.passes;

import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.analysis.ClassInfo;
import dev.graphmend.passes.analysis.Statements;
import dev.graphmend.passes.analysis.CompileRegions;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.analysis.Val;
import dev.graphmend.passes.analysis.ValueKind;
import dev.graphmend.passes.config.AnalysisConfig;
import java.util.ArrayList;
import dev.graphmend.passes.fix.DeferSideEffect;
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
 * edit replaced function bodies, moved statements by lines or pasted or removed a class's
 * methods, and nothing else: the module's statements, and every changed function's header (name,
 * parameters, decorators), are as they were, and no {@code global} statement is involved ({@link
 * #align}: definitions are matched by their text). Syntax errors do not stop reuse: recovery gives
 * a statement whose text did not change the tree a clean file gives it (half-typed statements
 * are most of a person's keystrokes). A function is then analysed again when it changed, when
 * its class changed (a class whose changed, added or removed methods hold no statement its
 * attributes are read from stands: {@link #sameClassFacts}), when it consulted a changed function
 * or class, when it looked up a method name that a standing class gained or lost, or any name on
 * a changed class ({@link dev.graphmend.passes.analysis.FunctionContext#methodLookups()}), or when a fix proposed in it
 * looked at the module's other compiled functions' calls of a callee (the deferral's registration
 * must be legal for all of them: {@link dev.graphmend.passes.analysis.FunctionContext#moduleReads()})
 * and what it read may differ (the digest it recorded is compared with this version's). The calls
 * discovery followed from each reached function are kept alike ({@link #follows}). Anything
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
    private record PortableVal(ValueKind kind, Ident cls, boolean input, Boolean truth) {}

    /** A compiled function of the focus with its parameters and root. Its hash is computed once: each is put and looked up several times per version. */
    private record Key(Ident def, Map<String, PortableVal> params, boolean root, Diagnostic.Root rootInfo, int hash) {
        Key(Ident def, Map<String, PortableVal> params, boolean root, Diagnostic.Root rootInfo) {
            this(def, params, root, rootInfo, java.util.Objects.hash(def, params, root, rootInfo));
        }

        @Override public int hashCode() { return hash; }

        @Override public boolean equals(Object o) {
            return o instanceof Key k && k.hash == hash && k.def.equals(def) && k.root == root && k.params.equals(params)
                    && Objects.equals(k.rootInfo, rootInfo);
        }
    }

    /**
     * {@code lookups}: the method names looked up on each class; {@code moduleReads}: the callees
     * whose calls in every compiled function a fix proposed here read, each with the digest of what
     * it read ({@code DeferSideEffect.undeferrableDigest}; {@link DeferSideEffect#withoutLines} when
     * no text here names a line); {@code namesALine}: a diagnostic's text names a line of the file,
     * so it is found again after lines move.
     */
    private record Entry(Key key, Ident owner, Set<Node> consulted, Map<Node, Set<String>> lookups, List<Diagnostic> found,
                         Map<String, String> moduleReads, boolean namesALine) {}

    private dev.graphmend.ir.ast.Module module;
    private dev.graphmend.ir.document.UniIR ir;
    private dev.graphmend.ir.symbols.QualifiedNames names; // of the previous version
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

    /** Why the last analysis could or could not reuse results ("3 changed definitions", "more than function bodies changed", ...). */
    public String lastMode() { return mode; }

    /** Decides what of the previous version can be reused for this one. */
    void begin(SourceModule focus, List<SourceModule> othersNow, AnalysisConfig configNow) {
        reused = 0;
        analysed = 0;
        next = new HashMap<>();
        readsNow = new HashMap<>();
        withoutLinesMade = new IdentityHashMap<>();
        dev.graphmend.ir.ast.Module now = focus.ir().module();
        Alignment diff = null;
        if (module == null) mode = "first version";
        else if (!Objects.equals(config, configNow) || !sameIdentities(others, othersNow)) mode = "configuration or other files changed";
        else if ((diff = align(ir, names, focus.ir(), focus.names())) == null) mode = "more than function bodies changed";
        else mode = diff.changed.size() + " changed definitions" + (diff.shifted ? ", others moved" : "");
        // each moved entry's key, for its digest parts (one key object per function: keys equal by identity compare fast)
        Map<Key, Key> movedKeys = new IdentityHashMap<>();
        if (diff == null) entries = new HashMap<>();
        else if (diff.shifted) entries = moved(entries, diff, focus.path(), movedKeys);
        droppedFollows = new ArrayList<>();
        follows = diff == null ? new HashMap<>() : movedFollows(follows, diff, droppedFollows);
        if (diff == null) {
            foreignFollows = new HashMap<>(); // else they stand as they are (see foreignFollows)
            regions = null; // nothing of the previous version's discovery can be vouched for
        }
        nextFollows = new HashMap<>();
        nextForeign = new HashMap<>();
        alignment = diff;
        previousFocus = focusNow;
        focusNow = focus;
        regionsNow = null;
        regionsReplayed = false;
        parts = diff == null ? new HashMap<>() : keptParts(parts, diff, focus.path(), movedKeys);
        nextParts = new HashMap<>();
        changed = diff == null ? Collections.emptySet() : diff.changed;
        module = now;
        ir = focus.ir();
        names = focus.names();
        config = configNow;
        others = List.copyOf(othersNow);
    }

    /**
     * The previous diagnostics of a reached function of the focus module, when still valid; else
     * null. {@code readNow}: the digest of what a module-wide read of a callee sees in this version
     * (asked for every entry that recorded one: any changed function, whatever it spells, may
     * change another function's call of the callee, as a helper whose value is printed does).
     */
    List<Diagnostic> lookup(CompileRegions.Reached r, java.util.function.Function<String, String> readNow) {
        Entry e = entries.get(keyOf(r));
        if (e == null || changed.contains(e.owner.node()) || !Collections.disjoint(e.consulted, changed)
                || !Collections.disjoint(e.lookups.keySet(), changed)) {
            return null;
        }
        // a fix that read every compiled function's calls of a callee (the deferral's registration)
        // stands while what it read is the same: the same digest, the same proposal
        for (Map.Entry<String, String> read : e.moduleReads.entrySet()) {
            if (!readStands(read.getKey(), read.getValue(), e.namesALine, readNow)) return null;
        }
        synchronized (this) {
            next.put(e.key, e);
            reused++;
        }
        return e.found;
    }

    /** What module-wide reads see in this version, and which recorded digests match it: many entries share one. */
    private record ReadNow(String digest, String withoutLines, Map<String, Boolean> stands, Map<String, Boolean> standsWithoutLines) {}

    private Map<String, ReadNow> readsNow = new HashMap<>();

    private boolean readStands(String callee, String recorded, boolean withLines,
                               java.util.function.Function<String, String> readNow) {
        ReadNow now = readsNow.get(callee);
        if (now == null) {
            String digest = readNow.apply(callee);
            now = new ReadNow(digest, DeferSideEffect.withoutLines(digest), new IdentityHashMap<>(), new IdentityHashMap<>());
            readsNow.put(callee, now);
        }
        String seen = withLines ? now.digest() : now.withoutLines();
        return (withLines ? now.stands() : now.standsWithoutLines()).computeIfAbsent(recorded, seen::equals);
    }

    /** Digests without their lines, made once per digest and version (the functions analysed together share one). */
    private Map<String, String> withoutLinesMade = new IdentityHashMap<>();

    private synchronized String withoutLines(String digest) {
        return withoutLinesMade.computeIfAbsent(digest, DeferSideEffect::withoutLines);
    }

    /** Records what the rules found in a function of this version. */
    void store(CompileRegions.Reached r, Set<Node> consulted, Map<Node, Set<String>> lookups, Map<String, String> moduleReads,
               List<Diagnostic> found) {
        ClassInfo owner = r.function().owner();
        boolean namesALine = false;
        for (Diagnostic d : found) namesALine |= namesALine(d);
        Map<String, String> reads = moduleReads;
        if (!namesALine && !reads.isEmpty()) {
            // text that names no line cannot show where the calls read lie: kept without their lines, the
            // entry stands when they move
            reads = new HashMap<>();
            for (Map.Entry<String, String> read : moduleReads.entrySet()) reads.put(read.getKey(), withoutLines(read.getValue()));
        }
        Entry e = new Entry(keyOf(r), new Ident(owner == null ? null : owner.def()), snapshot(consulted), snapshot(lookups),
                List.copyOf(found), Map.copyOf(reads), namesALine);
        synchronized (this) {
            next.put(e.key, e);
            analysed++;
        }
    }

    private Map<CompileRegions.Reached, Key> keys = Map.of(); // this version's compiled functions' keys
    private Set<Key> compiledNow = Set.of();

    /**
     * The focus module's compiled functions in this version (before any lookup). A function's key
     * is its entry's when it has one: the lookups of the version (its entry, each of its digest
     * parts, whether it is still compiled) then find the key itself instead of comparing two equal
     * keys member by member (parameters, root paths and descriptions), several times per function.
     */
    void compiled(List<CompileRegions.Reached> reached) {
        Set<Key> now = new java.util.HashSet<>();
        Map<CompileRegions.Reached, Key> keys = new IdentityHashMap<>();
        for (CompileRegions.Reached r : reached) {
            Key k = key(r);
            Entry known = entries.get(k);
            if (known != null) k = known.key();
            keys.put(r, k);
            now.add(k);
        }
        this.keys = keys; // built before the parallel lookups start, then only read
        compiledNow = now;
    }

    /** Forgets everything: the next analysis starts from scratch (after one that did not finish). */
    void forget() {
        regions = null;
        regionsNow = null;
        follows = new HashMap<>();
        nextFollows = new HashMap<>();
        foreignFollows = new HashMap<>();
        nextForeign = new HashMap<>();
        parts = new HashMap<>();
        nextParts = new HashMap<>();
        module = null;
        ir = null;
        entries = new HashMap<>();
        next = new HashMap<>();
    }

    /** This version's entries become the ones the next version looks up. */
    void end() {
        entries = next;
        next = new HashMap<>();
        follows = nextFollows;
        nextFollows = new HashMap<>();
        foreignFollows = nextForeign;
        nextForeign = new HashMap<>();
        regions = regionsNow;
        regionsNow = null;
        // parts this version did not ask for stand for it too, while their function is still compiled
        for (Map.Entry<Key, Map<String, DigestPart>> e : parts.entrySet()) {
            if (!compiledNow.contains(e.getKey())) continue;
            Map<String, DigestPart> into = nextParts.computeIfAbsent(e.getKey(), x -> new HashMap<>());
            e.getValue().forEach(into::putIfAbsent);
        }
        parts = nextParts;
        nextParts = new HashMap<>();
    }

    // The snapshots live as long as their entries (every function of an open file, kept from
    // version to version): sized to what they hold, and shared when empty, as most are; an
    // IdentityHashMap made with the default size has a 64-slot table (12,000 of them, ~3 MB, after
    // the 5,300-line dense file was opened).
    private static Map<Node, Set<String>> snapshot(Map<Node, Set<String>> lookups) {
        if (lookups.isEmpty()) return Collections.emptyMap();
        Map<Node, Set<String>> m = new IdentityHashMap<>(lookups.size());
        lookups.forEach((k, v) -> m.put(k, Set.copyOf(v)));
        return m;
    }

    private static Set<Node> snapshot(Set<Node> consulted) {
        if (consulted.isEmpty()) return Collections.emptySet();
        Set<Node> s = Collections.newSetFromMap(new IdentityHashMap<>(consulted.size()));
        s.addAll(consulted);
        return s;
    }

    private Key keyOf(CompileRegions.Reached r) {
        Key k = keys.get(r);
        return k != null ? k : key(r);
    }

    private static Key key(CompileRegions.Reached r) {
        Map<String, PortableVal> params = new HashMap<>();
        for (Map.Entry<String, Val> p : r.params().entrySet()) {
            Val v = p.getValue();
            params.put(p.getKey(), portable(v));
        }
        return new Key(new Ident(r.function().def()), params, r.isRoot(), r.root());
    }

    // ---- each compiled function's part of a module-wide read's digest ----

    /**
     * One function's part of {@code DeferSideEffect.undeferrableDigest} for one callee, with what
     * computing it read: it stands, moved with its function ({@link #keptParts}), while none of what
     * it read changed (as a function's diagnostics stand).
     */
    private record DigestPart(String text, Ident owner, Set<Node> consulted, Map<Node, Set<String>> lookups) {}

    private Map<Key, Map<String, DigestPart>> parts = new HashMap<>();
    private Map<Key, Map<String, DigestPart>> nextParts = new HashMap<>();

    /** The kept part of {@code r}'s function in the digest of {@code callee}, or null (to be computed). */
    synchronized String digestPart(CompileRegions.Reached r, String callee) {
        Key k = keyOf(r);
        Map<String, DigestPart> of = parts.get(k);
        DigestPart p = of == null ? null : of.get(callee);
        if (p == null) return null;
        nextParts.computeIfAbsent(k, x -> new HashMap<>()).put(callee, p);
        return p.text();
    }

    /** Keeps a part just computed ({@code consulted}, {@code lookups}: what its function's context read). */
    synchronized void keepDigestPart(CompileRegions.Reached r, String callee, String text, Set<Node> consulted,
                                     Map<Node, Set<String>> lookups) {
        ClassInfo owner = r.function().owner();
        nextParts.computeIfAbsent(keyOf(r), x -> new HashMap<>())
                .put(callee, new DigestPart(text, new Ident(owner == null ? null : owner.def()), snapshot(consulted), snapshot(lookups)));
    }

    /**
     * The parts whose function stands in this version, moved to its new node and key when lines
     * moved (a part counts lines from its function's own), and whose reads stand (its class and
     * what it consulted did not change; they may have moved); the others are computed again.
     */
    private static Map<Key, Map<String, DigestPart>> keptParts(Map<Key, Map<String, DigestPart>> parts, Alignment a, String path,
                                                               Map<Key, Key> movedKeys) {
        Map<Key, Map<String, DigestPart>> out = new HashMap<>(parts.size() * 4 / 3 + 1);
        parts.forEach((k, byCallee) -> {
            // the key its entry moved to; else moved here (an entry dropped or shared), the same when nothing moved
            Key key = movedKeys.get(k);
            if (key == null && a.local && a.stands(k.def().node()) && paramsStand(k.params(), a)) {
                // nothing of it was renamed: what moveKey gives is the key itself, or none when its function or root is gone
                Moved m = a.movedOf(k.def());
                if (m == null || !a.rootStands(k.rootInfo(), path)) return;
                key = k;
            }
            if (key == null) {
                key = moveKey(k, a, path);
                if (key == null) return;
                if (key.equals(k)) key = k;
            }
            if (a.local) {
                // parts that name nothing renamed stand as they are (what the moves below give)
                boolean all = true;
                for (DigestPart p : byCallee.values()) {
                    all &= (p.owner().node() == null || a.stands(p.owner().node())) && allStand(p.consulted(), a)
                            && allStand(p.lookups().keySet(), a);
                }
                if (all && !byCallee.isEmpty()) {
                    out.put(key, byCallee);
                    return;
                }
            }
            Map<String, DigestPart> kept = new HashMap<>();
            byCallee.forEach((callee, p) -> {
                if (a.changed.contains(p.owner().node())) return;
                Ident owner = movedOwner(p.owner(), a);
                if (owner == null) return;
                Set<Node> consulted = movedConsulted(p.consulted(), a);
                Map<Node, Set<String>> lookups = movedLookups(p.lookups(), a);
                if (consulted == null || lookups == null) return;
                boolean same = owner == p.owner() && consulted == p.consulted() && lookups == p.lookups();
                kept.put(callee, same ? p : new DigestPart(p.text(), owner, consulted, lookups));
            });
            if (!kept.isEmpty()) out.put(key, kept);
        });
        return out;
    }

    // ---- the calls discovery followed (CompileRegions.FollowMemo) ----

    /** A function with its parameters, as values that outlive their project. */
    private record FollowKey(Ident def, Map<String, PortableVal> params, int hash) {
        FollowKey(Ident def, Map<String, PortableVal> params) {
            this(def, params, 31 * def.hashCode() + params.hashCode());
        }

        @Override public int hashCode() { return hash; }

        @Override public boolean equals(Object o) {
            return o instanceof FollowKey k && k.hash == hash && k.def.equals(def) && k.params.equals(params);
        }
    }

    /** {@code modes}: the modes the call runs in ({@code CompileRegions.Followed}). */
    private record PortableFollowed(Ident callee, Map<String, PortableVal> params, int modes) {}

    /** {@code owner}: the function's class (null node for a plain function). */
    private record FollowEntry(FollowKey key, Ident owner, Set<Node> consulted, Map<Node, Set<String>> lookups,
                               List<PortableFollowed> followed) {}

    /** Entries that name a definition of the focus module: moved to each version's nodes ({@link #movedFollows}). */
    private Map<FollowKey, FollowEntry> follows = new HashMap<>();
    private Map<FollowKey, FollowEntry> nextFollows = new HashMap<>();
    /**
     * Entries that name no definition of the focus module (a function of another file, reached
     * through it, whose calls, parameters and everything they consulted lie in other files): an
     * edit of the focus module moves none of their nodes and changes nothing they consulted, so
     * they stand without being walked at each keystroke (editing a module that 400 others import
     * replays 11,000 of them). Another file changing clears the memo ({@link #begin}).
     */
    private Map<FollowKey, FollowEntry> foreignFollows = new HashMap<>();
    private Map<FollowKey, FollowEntry> nextForeign = new HashMap<>();
    private SourceModule focusNow; // the focus module of the analysis between begin and end
    private SourceModule previousFocus; // the focus module of the version before
    private Alignment alignment; // how the previous version stands in this one; null when the memo was cleared
    /** The entries {@link #movedFollows} dropped: a replay of the previous discovery follows them again. */
    private List<FollowEntry> droppedFollows = new ArrayList<>();
    private CompileRegions regions; // the previous version's discovery
    private CompileRegions regionsNow; // this version's, kept for the next one at end()
    private boolean regionsReplayed;

    /** Whether the last discovery was the previous version's, moved (nothing it followed had changed). */
    public boolean regionsReplayed() { return regionsReplayed; }
    private int followsReused, foreignReused;

    /** How many functions the last discovery took the followed calls of from the memo. */
    public int followsReused() { return followsReused; }

    /** How many of those named no definition of the focus module (kept without being moved: {@link #foreignFollows}). */
    public int foreignFollowsReused() { return foreignReused; }

    /**
     * The memo discovery reads (functions of every module: a root's callees in other files are
     * followed too, with the same parameters from one keystroke to the next). Valid for the
     * analysis between {@link #begin} and {@link #end}.
     */
    CompileRegions.FollowMemo follows(dev.graphmend.passes.analysis.Project project) {
        followsReused = 0;
        foreignReused = 0;
        return new CompileRegions.FollowMemo() {
            @Override public List<CompileRegions.Followed> lookup(dev.graphmend.passes.analysis.FunctionRef f, Map<String, Val> params) {
                FollowKey key = new FollowKey(new Ident(f.def()), portable(params));
                FollowEntry e = follows.get(key);
                boolean foreign = e == null;
                if (foreign) e = foreignFollows.get(key);
                if (e == null) return null;
                List<CompileRegions.Followed> out = new ArrayList<>(e.followed().size());
                for (PortableFollowed p : e.followed()) {
                    var callee = project.functionOf((Stmt.FunctionDef) p.callee().node());
                    Map<String, Val> values = live(p.params(), project);
                    if (callee == null || values == null) return null; // no longer in the project as it was
                    out.add(new CompileRegions.Followed(callee, values, p.modes()));
                }
                (foreign ? nextForeign : nextFollows).put(key, e);
                followsReused++;
                if (foreign) foreignReused++;
                return out;
            }

            @Override public CompileRegions.Replay replay() {
                if (regions == null || alignment == null) return null;
                return replayOf(regions, project);
            }

            @Override public void keep(CompileRegions r) {
                regionsNow = r;
            }

            @Override public void store(dev.graphmend.passes.analysis.FunctionRef f, Map<String, Val> params, Set<Node> consulted,
                                        Map<Node, Set<String>> lookups, List<CompileRegions.Followed> followed) {
                List<PortableFollowed> out = new ArrayList<>(followed.size());
                for (CompileRegions.Followed x : followed) out.add(new PortableFollowed(new Ident(x.callee().def()), portable(x.params()), x.modes()));
                FollowKey key = new FollowKey(new Ident(f.def()), portable(params));
                ClassInfo owner = f.owner();
                FollowEntry e = new FollowEntry(key, new Ident(owner == null ? null : owner.def()), snapshot(consulted),
                        snapshot(lookups), List.copyOf(out));
                (namesFocus(e, project) ? nextFollows : nextForeign).put(key, e);
            }
        };
    }

    private CompileRegions.Replay replayOf(CompileRegions previous, dev.graphmend.passes.analysis.Project project) {
        Alignment a = alignment;
        return new CompileRegions.Replay() {
            @Override public CompileRegions previous() { return previous; }

            @Override public SourceModule previousFocus() { return previousFocus; }

            @Override public Stmt.FunctionDef movedFunction(Stmt.FunctionDef old) {
                Ident now = movedDef(new Ident(old), a);
                return now != null && now.node() instanceof Stmt.FunctionDef f ? f : null;
            }

            @Override public Stmt.ClassDef movedClass(Stmt.ClassDef old) {
                Ident now = movedDef(new Ident(old), a);
                return now != null && now.node() instanceof Stmt.ClassDef c ? c : null;
            }

            @Override public boolean methodsChanged() {
                return !a.methodsChanged.isEmpty() || !a.addedMethods.isEmpty() || !a.removedMethods.isEmpty();
            }

            @Override public boolean recheck(java.util.function.BiFunction<dev.graphmend.passes.analysis.FunctionRef, Map<String, Val>,
                    List<CompileRegions.Followed>> follow) {
                for (FollowEntry e : droppedFollows) {
                    Ident def = movedDef(e.key().def(), a);
                    Map<String, PortableVal> params = movedParams(e.key().params(), a);
                    if (def == null || params == null || !(def.node() instanceof Stmt.FunctionDef d)) return false;
                    var ref = project.functionOf(d);
                    Map<String, Val> values = live(params, project);
                    if (ref == null || values == null) return false;
                    List<CompileRegions.Followed> now = follow.apply(ref, values);
                    if (now == null || now.size() != e.followed().size()) return false;
                    for (int i = 0; i < now.size(); i++) {
                        PortableFollowed was = e.followed().get(i);
                        Ident callee = movedDef(was.callee(), a);
                        Map<String, PortableVal> ps = movedParams(was.params(), a);
                        if (callee == null || ps == null || now.get(i).callee().def() != callee.node()
                                || !portable(now.get(i).params()).equals(ps)) {
                            return false;
                        }
                    }
                }
                // every entry of the previous version stands for the next one (nothing was looked up)
                follows.forEach(nextFollows::putIfAbsent);
                if (nextForeign.isEmpty()) nextForeign = foreignFollows;
                else foreignFollows.forEach(nextForeign::putIfAbsent);
                followsReused = follows.size() + foreignFollows.size();
                foreignReused = foreignFollows.size();
                regionsReplayed = true;
                return true;
            }
        };
    }

    /**
     * Whether an entry names a definition of the focus module: its function, class, a parameter's
     * class, a callee or a callee's parameter class, or anything it consulted or looked a method up
     * on. A definition the project cannot place counts as the focus module's (moved, never kept blind).
     */
    private boolean namesFocus(FollowEntry e, dev.graphmend.passes.analysis.Project project) {
        if (inFocus(e.key().def().node(), project) || e.owner().node() != null && inFocus(e.owner().node(), project)
                || classesInFocus(e.key().params(), project)) return true;
        for (PortableFollowed f : e.followed()) {
            if (inFocus(f.callee().node(), project) || classesInFocus(f.params(), project)) return true;
        }
        for (Node c : e.consulted()) if (inFocus(c, project)) return true;
        for (Node c : e.lookups().keySet()) if (inFocus(c, project)) return true;
        return false;
    }

    private boolean classesInFocus(Map<String, PortableVal> params, dev.graphmend.passes.analysis.Project project) {
        for (PortableVal v : params.values()) if (v.cls() != null && inFocus(v.cls().node(), project)) return true;
        return false;
    }

    private boolean inFocus(Node n, dev.graphmend.passes.analysis.Project project) {
        if (n instanceof Stmt.FunctionDef f) {
            var ref = project.functionOf(f);
            return ref == null || ref.module() == focusNow;
        }
        if (n instanceof Stmt.ClassDef c) {
            ClassInfo info = project.classInfo(c);
            return info == null || info.module() == focusNow;
        }
        return true;
    }

    private static Map<String, PortableVal> portable(Map<String, Val> params) {
        Map<String, PortableVal> out = new HashMap<>();
        for (Map.Entry<String, Val> p : params.entrySet()) out.put(p.getKey(), portable(p.getValue()));
        return out;
    }

    private static PortableVal portable(Val v) {
        return new PortableVal(v.kind(), v.cls() == null ? null : new Ident(v.cls().def()), v.input(), v.truth());
    }

    /** The values of this project, or null when a class is not (as it was) in it. */
    private static Map<String, Val> live(Map<String, PortableVal> params, dev.graphmend.passes.analysis.Project project) {
        Map<String, Val> out = new HashMap<>();
        for (Map.Entry<String, PortableVal> p : params.entrySet()) {
            PortableVal v = p.getValue();
            ClassInfo c = null;
            if (v.cls() != null) {
                c = project.classInfo((Stmt.ClassDef) v.cls().node());
                if (c == null) return null;
            }
            out.put(p.getKey(), new Val(v.kind(), c, v.input(), v.truth()));
        }
        return out;
    }

    /**
     * The followed calls moved to this version: nodes of the focus module to their counterparts
     * (a changed function's or class's callers reach its new node); an entry of a changed function,
     * of a method of a changed class, or that consulted a changed definition is dropped. Nodes of
     * other modules stand for themselves (another file changing clears the memo).
     */
    private static Map<FollowKey, FollowEntry> movedFollows(Map<FollowKey, FollowEntry> entries, Alignment a, List<FollowEntry> dropped) {
        Map<FollowKey, FollowEntry> out = new HashMap<>(entries.size() * 4 / 3 + 1);
        for (FollowEntry e : entries.values()) {
            if (a.local && followStands(e, a)) {
                out.put(e.key(), e); // what the moves below give for it
                continue;
            }
            Ident def = e.key().def();
            if (a.changed.contains(def.node()) || e.owner().node() != null && a.changed.contains(e.owner().node())) {
                dropped.add(e);
                continue;
            }
            Set<Node> consulted = movedConsulted(e.consulted(), a);
            Map<Node, Set<String>> lookups = movedLookups(e.lookups(), a);
            if (consulted == null || lookups == null) {
                dropped.add(e);
                continue;
            }
            Map<String, PortableVal> params = movedParams(e.key().params(), a);
            Ident now = movedDef(def, a);
            if (params == null || now == null) {
                dropped.add(e);
                continue;
            }
            List<PortableFollowed> followed = new ArrayList<>(e.followed().size());
            for (PortableFollowed f : e.followed()) {
                Ident callee = movedDef(f.callee(), a);
                Map<String, PortableVal> ps = movedParams(f.params(), a);
                if (callee == null || ps == null) {
                    followed = null;
                    break;
                }
                followed.add(callee == f.callee() && ps == f.params() ? f : new PortableFollowed(callee, ps, f.modes()));
            }
            Ident owner = followed == null || e.owner().node() == null ? e.owner() : movedDef(e.owner(), a);
            if (followed == null || owner == null) {
                dropped.add(e);
                continue;
            }
            if (now == def && params == e.key().params() && owner == e.owner() && consulted == e.consulted()
                    && lookups == e.lookups() && sameObjects(followed, e.followed())) {
                out.put(e.key(), e); // nothing of it moved
                continue;
            }
            FollowKey key = new FollowKey(now, params);
            out.put(key, new FollowEntry(key, owner, consulted, lookups, List.copyOf(followed)));
        }
        return out;
    }

    /** In a {@link Alignment#local} alignment: nothing a followed-calls entry names was renamed. */
    private static boolean followStands(FollowEntry e, Alignment a) {
        if (!a.stands(e.key().def().node()) || e.owner().node() != null && !a.stands(e.owner().node())
                || !allStand(e.consulted(), a) || !allStand(e.lookups().keySet(), a) || !paramsStand(e.key().params(), a)) {
            return false;
        }
        for (PortableFollowed f : e.followed()) if (!a.stands(f.callee().node()) || !paramsStand(f.params(), a)) return false;
        return true;
    }

    /** Whether two lists hold the same objects, in order. */
    private static <T> boolean sameObjects(List<T> a, List<T> b) {
        if (a.size() != b.size()) return false;
        for (int i = 0; i < a.size(); i++) if (a.get(i) != b.get(i)) return false;
        return true;
    }

    /** A definition's node in this version: moved, replaced (changed, same header), gone (null), or another module's. */
    private static Ident movedDef(Ident def, Alignment a) {
        Moved m = a.movedOf(def);
        if (m != null) return m.now() == def.node() ? def : new Ident(m.now());
        Node r = a.replaced.get(def);
        if (r != null) return new Ident(r);
        return a.changed.contains(def.node()) ? null : def;
    }

    private static Map<String, PortableVal> movedParams(Map<String, PortableVal> params, Alignment a) {
        boolean remap = false;
        for (PortableVal v : params.values()) {
            if (v.cls() == null) continue;
            Ident c = movedDef(v.cls(), a);
            if (c == null) return null;
            remap |= c != v.cls();
        }
        if (!remap) return params; // entries share the map: none is changed in place
        Map<String, PortableVal> out = new HashMap<>();
        for (Map.Entry<String, PortableVal> p : params.entrySet()) {
            PortableVal v = p.getValue();
            if (v.cls() == null) {
                out.put(p.getKey(), v);
                continue;
            }
            Ident c = movedDef(v.cls(), a);
            if (c == null) return null;
            out.put(p.getKey(), c == v.cls() ? v : new PortableVal(v.kind(), c, v.input(), v.truth()));
        }
        return out;
    }

    private static boolean sameIdentities(List<SourceModule> a, List<SourceModule> b) {
        if (a.size() != b.size()) return false;
        for (int i = 0; i < a.size(); i++) if (a.get(i) != b.get(i)) return false;
        return true;
    }

    /**
     * How the previous version's definitions stand in this one. {@code moved}: each old function or
     * class node whose text is unchanged, to its node now and how many lines it moved (0 when the
     * edit left it in place; the incremental document model may hand a re-parsed or shifted copy).
     * {@code changed}: the old functions whose body changed, the classes around them, and the
     * methods a class lost. {@code lines}: the old line ranges of unchanged statements and how far
     * they moved, for positions outside a function (a root's line).
     */
    static final class Alignment {
        final Map<Ident, Moved> moved = new HashMap<>();
        final Set<Node> changed = Collections.newSetFromMap(new IdentityHashMap<>());
        dev.graphmend.ir.symbols.QualifiedNames namesBefore, namesAfter;
        /**
         * For a class that stands ({@link #moved}) though it gained or lost methods: their names.
         * A lookup of one of them on it now finds another answer.
         */
        final Map<Node, Set<String>> methodsChanged = new IdentityHashMap<>();
        /** The methods a class gained (new nodes) and lost (old nodes) in the block being aligned. */
        final List<Stmt.FunctionDef> addedMethods = new ArrayList<>(), removedMethods = new ArrayList<>();
        /** The changed methods of the class being aligned, old to new (for {@link #sameClassFacts}). */
        final List<Stmt.FunctionDef[]> changedMethods = new ArrayList<>();
        /** Each changed function or class, old node to new (same header, same place): what calls of it now reach. */
        final Map<Ident, Node> replaced = new HashMap<>();
        final List<int[]> lines = new ArrayList<>(); // {first old line, last old line, delta}
        /**
         * The old line ranges of definitions the new version shares (the same node): every
         * definition inside one stands for itself, without an entry in {@link #moved} for each
         * (walking every unchanged class and method of a 540-class file at each keystroke).
         */
        final List<int[]> shared = new ArrayList<>();
        boolean shifted;
        /**
         * No line moved (a keystroke inside a function that adds or removes no line): every
         * definition the versions share is where it was, and what an entry names stands for
         * itself unless it is in {@link #renamed}. Set by {@link #align}.
         */
        boolean local;
        /**
         * In a {@link #local} alignment, the old definitions that are not themselves in this
         * version: moved to another node (a class whose method changed is a new node), replaced
         * or changed. An entry that names none of them stands as it is, without being moved piece
         * by piece (the other 535 functions of a 540-function file at each keystroke).
         */
        Set<Node> renamed = Set.of();

        private boolean sorted, sharedSorted;

        /** In a {@link #local} alignment, whether {@code n} (a non-null node) stands for itself in this version. */
        boolean stands(Node n) {
            return !renamed.contains(n);
        }

        /** Whether a root stands where it was: another file's, or on a line of a statement the versions share. */
        boolean rootStands(Diagnostic.Root r, String path) {
            return r == null || !r.path().equals(path) || line(r.line()) == r.line();
        }

        /** What a definition of the previous version is in this one: moved, itself (shared), or null. */
        Moved movedOf(Ident def) {
            Moved m = moved.get(def);
            if (m != null) return m;
            Node n = def.node();
            if (n == null || !isDefinition(n) || n.span() == null || shared.isEmpty()) return null;
            if (!sharedSorted) {
                shared.sort(java.util.Comparator.comparingInt(r -> r[0])); // disjoint ranges
                sharedSorted = true;
            }
            int line = n.span().line(), lo = 0, hi = shared.size() - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                int[] r = shared.get(mid);
                if (line < r[0]) hi = mid - 1;
                else if (line > r[1]) lo = mid + 1;
                else return new Moved(n, 0);
            }
            return null;
        }

        /** The line an old line of the focus module has now; -1 when it lay in a changed statement. */
        int line(int old) {
            if (!sorted) {
                lines.sort(java.util.Comparator.comparingInt(r -> r[0])); // disjoint ranges
                sorted = true;
            }
            int lo = 0, hi = lines.size() - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                int[] r = lines.get(mid);
                if (old < r[0]) hi = mid - 1;
                else if (old > r[1]) lo = mid + 1;
                else return old + r[2];
            }
            return -1;
        }
    }

    record Moved(Node now, int delta) {}

    /**
     * What of the previous version's module still stands, when the edit changed only function
     * bodies, moved statements by lines, or pasted or removed methods of a class; null when it
     * changed anything else (module-level statements, a header, a {@code global}).
     */
    static Alignment align(dev.graphmend.ir.document.UniIR before, dev.graphmend.ir.symbols.QualifiedNames namesBefore,
                           dev.graphmend.ir.document.UniIR after, dev.graphmend.ir.symbols.QualifiedNames namesAfter) {
        Alignment out = new Alignment();
        out.namesBefore = namesBefore;
        out.namesAfter = namesAfter;
        if (!alignBlock(before, after, before.module().body(), after.module().body(), false, out)) return null;
        out.local = true;
        for (int[] r : out.lines) out.local &= r[2] == 0;
        for (Moved m : out.moved.values()) out.local &= m.delta() == 0;
        if (out.local) {
            Set<Node> renamed = Collections.newSetFromMap(new IdentityHashMap<>());
            out.moved.forEach((old, m) -> {
                if (m.now() != old.node()) renamed.add(old.node());
            });
            for (Ident r : out.replaced.keySet()) renamed.add(r.node());
            renamed.addAll(out.changed);
            out.renamed = renamed;
        }
        return out;
    }

    /** In a {@link Alignment#local} alignment, whether none of the definitions is {@link Alignment#renamed}. */
    private static boolean allStand(java.util.Collection<Node> nodes, Alignment a) {
        for (Node n : nodes) if (!a.stands(n)) return false;
        return true;
    }

    private static boolean paramsStand(Map<String, PortableVal> params, Alignment a) {
        for (PortableVal v : params.values()) if (v.cls() != null && !a.stands(v.cls().node())) return false;
        return true;
    }

    /**
     * Whether an entry stands as it is in a {@link Alignment#local} alignment: its function is one
     * the versions share, and nothing it names (class, what it consulted or looked methods up on,
     * its parameters' classes) was renamed, nor its root or its diagnostics' roots moved. What
     * {@link #moved} would then give for it is the entry itself.
     */
    private static boolean standsAsItIs(Entry e, Alignment a, String path) {
        Node def = e.key().def().node();
        if (!a.stands(def) || e.owner().node() != null && !a.stands(e.owner().node()) || !allStand(e.consulted(), a)
                || !allStand(e.lookups().keySet(), a) || !paramsStand(e.key().params(), a)) {
            return false;
        }
        Moved m = a.movedOf(e.key().def());
        if (m == null || m.now() != def || !a.rootStands(e.key().rootInfo(), path)) return false;
        for (Diagnostic d : e.found()) {
            if (d.root() != e.key().rootInfo() && !a.rootStands(d.root(), path)) return false;
        }
        return true;
    }

    private static boolean alignBlock(dev.graphmend.ir.document.UniIR bIr, dev.graphmend.ir.document.UniIR aIr,
                                      List<Stmt> before, List<Stmt> after, boolean classBody, Alignment out) {
        int n = before.size(), m = after.size();
        if (n == m) {
            for (int i = 0; i < n; i++) if (!alignStmt(bIr, aIr, before.get(i), after.get(i), out)) return false;
            return true;
        }
        // a method pasted into or removed from a class: the same statements before and after it
        if (!classBody) return false;
        int p = 0;
        while (p < n && p < m && Statements.sameText(bIr, aIr, before.get(p), after.get(p))) p++;
        int q = 0;
        while (q < n - p && q < m - p && Statements.sameText(bIr, aIr, before.get(n - 1 - q), after.get(m - 1 - q))) q++;
        for (int i = p; i < n - q; i++) if (!(before.get(i) instanceof Stmt.FunctionDef)) return false;
        for (int i = p; i < m - q; i++) if (!(after.get(i) instanceof Stmt.FunctionDef)) return false;
        for (int i = 0; i < p; i++) alignStmt(bIr, aIr, before.get(i), after.get(i), out);
        for (int i = 0; i < q; i++) alignStmt(bIr, aIr, before.get(n - 1 - i), after.get(m - 1 - i), out);
        for (int i = p; i < n - q; i++) {
            changedWithin(before.get(i), out);
            out.removedMethods.add((Stmt.FunctionDef) before.get(i));
        }
        for (int i = p; i < m - q; i++) {
            out.addedMethods.add((Stmt.FunctionDef) after.get(i));
        }
        return true;
    }

    private static boolean alignStmt(dev.graphmend.ir.document.UniIR bIr, dev.graphmend.ir.document.UniIR aIr,
                                     Stmt b, Stmt a, Alignment out) {
        if (Statements.sameText(bIr, aIr, b, a)) {
            int delta = Statements.firstLine(a) - Statements.firstLine(b);
            if (delta != 0 || a != b) out.shifted = true; // the entries must name the new nodes
            out.lines.add(new int[] {Statements.firstLine(b), b.span().endLine(), delta});
            mapDefinitions(b, a, delta, out);
            return true;
        }
        if (b instanceof Stmt.FunctionDef fb && a instanceof Stmt.FunctionDef fa) {
            if (Statements.firstLine(fb) != Statements.firstLine(fa) || !sameHeader(fb, fa) || Statements.declaresGlobal(fb.body())
                    || Statements.declaresGlobal(fa.body())) {
                return false;
            }
            changedWithin(fb, out);
            out.replaced.put(new Ident(fb), fa);
            out.changedMethods.add(new Stmt.FunctionDef[] {fb, fa});
            return true;
        }
        if (b instanceof Stmt.ClassDef cb && a instanceof Stmt.ClassDef ca) {
            if (Statements.firstLine(cb) != Statements.firstLine(ca) || !cb.name().equals(ca.name()) || !cb.bases().equals(ca.bases())
                    || !cb.keywords().equals(ca.keywords()) || !cb.decoratorList().equals(ca.decoratorList())) {
                return false;
            }
            int methodsBefore = out.changedMethods.size();
            out.addedMethods.clear();
            out.removedMethods.clear();
            if (!alignBlock(bIr, aIr, cb.body(), ca.body(), true, out)) return false;
            List<Stmt.FunctionDef[]> mine = new ArrayList<>(out.changedMethods.subList(methodsBefore, out.changedMethods.size()));
            out.changedMethods.subList(methodsBefore, out.changedMethods.size()).clear();
            List<Stmt.FunctionDef> added = List.copyOf(out.addedMethods), removed = List.copyOf(out.removedMethods);
            out.addedMethods.clear();
            out.removedMethods.clear();
            out.replaced.put(new Ident(cb), ca);
            if (sameClassFacts(bIr, aIr, mine, out) && noClassFacts(bIr, out.namesBefore, removed)
                    && noClassFacts(aIr, out.namesAfter, added)) {
                // only method bodies changed, or methods came or went, and none of what the class's
                // facts are read from: the class stands for itself in the new node (its other methods,
                // and whoever read its attributes, keep their results; a lookup of a method that came
                // or went does not: methodsChanged)
                out.moved.put(new Ident(cb), new Moved(ca, 0));
                out.shifted = true;
                Set<String> names = new java.util.HashSet<>();
                for (Stmt.FunctionDef f : added) names.add(f.name());
                for (Stmt.FunctionDef f : removed) names.add(f.name());
                if (!names.isEmpty()) out.methodsChanged.put(cb, names);
            } else {
                out.changed.add(cb);
            }
            return true;
        }
        return false;
    }

    /**
     * Whether the changed methods of a class left the class's facts as they were: what {@code
     * Project} infers of a class (its attributes, containers, buffers) is read only from the
     * statements of a method that assign to, or call a method on, an attribute of its first
     * parameter ({@code self.x = ...}, {@code self.layers.append(...)}, {@code
     * self.register_buffer(...)}), and from what the names in them resolve to. Same texts in the
     * same order, and every name resolving alike: the same facts.
     */
    private static boolean sameClassFacts(dev.graphmend.ir.document.UniIR bIr, dev.graphmend.ir.document.UniIR aIr,
                                          List<Stmt.FunctionDef[]> methods, Alignment out) {
        if (out.namesBefore == null || out.namesAfter == null) return false;
        for (Stmt.FunctionDef[] pair : methods) {
            if (!classFacts(bIr, out.namesBefore, pair[0]).equals(classFacts(aIr, out.namesAfter, pair[1]))) return false;
        }
        return true;
    }

    /** Whether none of the methods holds a statement the class's facts are read from. */
    private static boolean noClassFacts(dev.graphmend.ir.document.UniIR ir, dev.graphmend.ir.symbols.QualifiedNames names,
                                        List<Stmt.FunctionDef> methods) {
        if (names == null) return methods.isEmpty();
        for (Stmt.FunctionDef f : methods) if (!classFacts(ir, names, f).isEmpty()) return false;
        return true;
    }

    private static List<String> classFacts(dev.graphmend.ir.document.UniIR ir, dev.graphmend.ir.symbols.QualifiedNames names,
                                           Stmt.FunctionDef f) {
        List<String> out = new ArrayList<>();
        String self = f.args().args().isEmpty() ? null : f.args().args().get(0).arg();
        if (self == null) return out;
        List<Stmt> body = dev.graphmend.passes.analysis.Statements.of(f.body());
        // `self.head = head` reads the local's assignments too (`if head is None: head = Head()`)
        // and `super().__init__(backbone, rpn)` binds a base's attributes (Project.moduleBoundBySubclass)
        java.util.Set<String> feeding = new java.util.HashSet<>();
        for (Stmt s : body) {
            if (s instanceof Stmt.Assign a && mentions(a.targets(), self) && a.value() instanceof dev.graphmend.ir.ast.Expr.Name v) {
                feeding.add(v.id());
            }
            if (isInitCall(s)) {
                dev.graphmend.ir.ast.Expr.Call c = (dev.graphmend.ir.ast.Expr.Call) ((Stmt.Expr) s).value();
                for (dev.graphmend.ir.ast.Expr x : c.args()) if (x instanceof dev.graphmend.ir.ast.Expr.Name v) feeding.add(v.id());
                for (var k : c.keywords()) if (k.value() instanceof dev.graphmend.ir.ast.Expr.Name v) feeding.add(v.id());
            }
        }
        for (Stmt s : body) {
            List<dev.graphmend.ir.ast.Expr> onSelf = s instanceof Stmt.Assign a ? a.targets()
                    : s instanceof Stmt.AnnAssign a ? List.of(a.target())
                    : s instanceof Stmt.AugAssign a ? List.of(a.target())
                    : s instanceof Stmt.Expr e && e.value() instanceof dev.graphmend.ir.ast.Expr.Call c ? List.of(c.func())
                    : List.of();
            boolean feeds = s instanceof Stmt.Assign a && a.targets().size() == 1
                    && a.targets().get(0) instanceof dev.graphmend.ir.ast.Expr.Name t && feeding.contains(t.id());
            if (!feeds && !isInitCall(s) && !mentions(onSelf, self)) continue;
            StringBuilder b = new StringBuilder();
            for (int l = s.span().line(); l <= s.span().endLine(); l++) b.append(ir.lines().lineText(l)).append('\n');
            List<Node> todo = new ArrayList<>(List.of(s));
            while (!todo.isEmpty()) {
                Node n = todo.remove(todo.size() - 1);
                if (n instanceof dev.graphmend.ir.ast.Expr.Name name) {
                    dev.graphmend.ir.symbols.Target t = names.resolve(name);
                    b.append(name.id()).append('=').append(t.getClass().getSimpleName()).append(':').append(t.qualifiedName()).append(';');
                }
                n.forEachChild(todo::add);
            }
            out.add(b.toString());
        }
        return out;
    }

    /** {@code super().__init__(...)} or {@code Base.__init__(self, ...)}: a statement that binds a base's attributes. */
    private static boolean isInitCall(Stmt s) {
        return s instanceof Stmt.Expr e && e.value() instanceof dev.graphmend.ir.ast.Expr.Call c
                && c.func() instanceof dev.graphmend.ir.ast.Expr.Attribute f && f.attr().equals("__init__");
    }

    private static boolean mentions(List<dev.graphmend.ir.ast.Expr> exprs, String name) {
        List<Node> todo = new ArrayList<>(exprs);
        while (!todo.isEmpty()) {
            Node n = todo.remove(todo.size() - 1);
            if (n instanceof dev.graphmend.ir.ast.Expr.Name x && x.id().equals(name)) return true;
            n.forEachChild(todo::add);
        }
        return false;
    }

    private static boolean isDefinition(Node n) {
        return n instanceof Stmt.FunctionDef || n instanceof Stmt.ClassDef || n instanceof Stmt.AsyncFunctionDef;
    }

    private static boolean holdsStatements(Node n) {
        return n instanceof Stmt || n instanceof dev.graphmend.ir.ast.ExceptHandler || n instanceof dev.graphmend.ir.ast.MatchCase;
    }

    /**
     * Maps every function and class node of an unchanged statement to its counterpart (same text:
     * same shape). A definition the new version shares stands, with all inside it, for itself
     * ({@link Alignment#movedOf}); the only entries in a module are those of the definitions that moved.
     */
    private static void mapDefinitions(Stmt b, Stmt a, int delta, Alignment out) {
        if (a == b) {
            if (isDefinition(b)) out.shared.add(new int[] {b.span().line(), b.span().endLine()});
            return;
        }
        // the same text has the same definitions in the same order; only statement blocks are
        // walked (a shifted half of a 5,000-line file, expressions included, took part of each Enter)
        List<Stmt> bs = new ArrayList<>(), as = new ArrayList<>();
        Statements.everywhere(b, s -> {
            if (isDefinition(s)) bs.add(s);
        });
        Statements.everywhere(a, s -> {
            if (isDefinition(s)) as.add(s);
        });
        if (isDefinition(b)) out.moved.put(new Ident(b), new Moved(a, delta));
        if (bs.size() != as.size()) return; // cannot happen for the same text; then nothing below is mapped
        for (int i = 0; i < bs.size(); i++) out.moved.put(new Ident(bs.get(i)), new Moved(as.get(i), delta));
    }

    /** A changed statement: it and every function and class inside it. */
    private static void changedWithin(Node n, Alignment out) {
        if (isDefinition(n)) out.changed.add(n);
        n.forEachChild(c -> {
            if (holdsStatements(c)) changedWithin(c, out);
        });
    }

    /** The entries with their nodes, positions and roots moved to this version; those that cannot be moved dropped. */
    private static Map<Key, Entry> moved(Map<Key, Entry> entries, Alignment a, String path, Map<Key, Key> movedKeys) {
        Map<Key, Entry> out = new HashMap<>(entries.size() * 4 / 3 + 1);
        for (Entry e : entries.values()) {
            if (e.namesALine()) continue; // a line its text names may have moved
            if (a.local && standsAsItIs(e, a, path)) {
                out.put(e.key(), e);
                continue;
            }
            Moved def = a.movedOf(e.key().def());
            if (def == null) continue; // changed, or gone
            Ident owner = movedOwner(e.owner(), a);
            if (owner == null) continue;
            Set<Node> consulted = movedConsulted(e.consulted(), a);
            Map<Node, Set<String>> lookups = movedLookups(e.lookups(), a);
            if (consulted == null || lookups == null) continue;
            boolean ok = true;
            Map<String, PortableVal> params = movedClasses(e.key().params(), a);
            Diagnostic.Root root = moveRoot(e.key().rootInfo(), a, path);
            if (e.key().rootInfo() != null && root == null) continue;
            List<Diagnostic> found = new ArrayList<>();
            for (Diagnostic d : e.found()) {
                Diagnostic moved = moveDiagnostic(d, def.delta(), a, path);
                if (moved == null) {
                    ok = false;
                    break;
                }
                found.add(moved);
            }
            if (!ok) continue;
            if (def.now() == e.key().def().node() && owner == e.owner() && consulted == e.consulted() && lookups == e.lookups()
                    && params == e.key().params() && root == e.key().rootInfo() && sameObjects(found, e.found())) {
                out.put(e.key(), e); // nothing of it moved (an edit elsewhere that rebuilt another class's node)
                continue;
            }
            Key key = new Key(new Ident(def.now()), params, e.key().root(), root);
            movedKeys.put(e.key(), key);
            out.put(key, new Entry(key, owner, consulted, lookups, List.copyOf(found), e.moduleReads(), false));
        }
        return out;
    }

    /** A function's class as its node in this version (the same when none, or not moved); null when it is gone. */
    private static Ident movedOwner(Ident owner, Alignment a) {
        if (owner.node() == null) return owner;
        Moved o = a.movedOf(owner);
        if (o == null) return null;
        return o.now() == owner.node() ? owner : new Ident(o.now());
    }

    /**
     * The consulted definitions as nodes of this version; null when one changed. The same set when
     * none moved to another node (most of what is consulted lies in other files).
     */
    private static Set<Node> movedConsulted(Set<Node> consulted, Alignment a) {
        boolean remap = false;
        for (Node c : consulted) {
            if (a.changed.contains(c)) return null;
            Moved mc = a.movedOf(new Ident(c));
            remap |= mc != null && mc.now() != c;
        }
        if (!remap) return consulted;
        Set<Node> out = Collections.newSetFromMap(new IdentityHashMap<>(consulted.size()));
        for (Node c : consulted) {
            Moved mc = a.movedOf(new Ident(c));
            out.add(mc == null ? c : mc.now()); // not in the focus module: as it was
        }
        return out;
    }

    /**
     * The method lookups as nodes of this version; null when a class on a lookup's path changed
     * (it may have gained the method with its facts, and a lookup that found nothing did not
     * consult it) or gained or lost a method of the name looked up ({@link Alignment#methodsChanged}).
     * The same map when no class moved to another node.
     */
    private static Map<Node, Set<String>> movedLookups(Map<Node, Set<String>> lookups, Alignment a) {
        boolean remap = false;
        for (Map.Entry<Node, Set<String>> l : lookups.entrySet()) {
            if (a.changed.contains(l.getKey())) return null;
            Set<String> names = a.methodsChanged.get(l.getKey());
            if (names != null && !Collections.disjoint(names, l.getValue())) return null;
            Moved mc = a.movedOf(new Ident(l.getKey()));
            remap |= mc != null && mc.now() != l.getKey();
        }
        if (!remap) return lookups;
        Map<Node, Set<String>> out = new IdentityHashMap<>(lookups.size());
        for (Map.Entry<Node, Set<String>> l : lookups.entrySet()) {
            Moved mc = a.movedOf(new Ident(l.getKey()));
            out.put(mc == null ? l.getKey() : mc.now(), l.getValue());
        }
        return out;
    }

    /**
     * Parameters whose classes moved to their new nodes (a class not moved stands as it was); the
     * same map when none moved to another node.
     */
    private static Map<String, PortableVal> movedClasses(Map<String, PortableVal> params, Alignment a) {
        boolean remap = false;
        for (PortableVal v : params.values()) {
            Moved mc = v.cls() == null ? null : a.movedOf(v.cls());
            remap |= mc != null && mc.now() != v.cls().node();
        }
        if (!remap) return params;
        Map<String, PortableVal> out = new HashMap<>();
        for (Map.Entry<String, PortableVal> p : params.entrySet()) {
            PortableVal v = p.getValue();
            Moved mc = v.cls() == null ? null : a.movedOf(v.cls());
            out.put(p.getKey(), mc == null ? v : new PortableVal(v.kind(), new Ident(mc.now()), v.input(), v.truth()));
        }
        return out;
    }

    /** A key moved to the new version's nodes and lines; null when its function or root did not survive. */
    private static Key moveKey(Key k, Alignment a, String path) {
        Moved def = a.movedOf(k.def());
        if (def == null) return null;
        Map<String, PortableVal> params = movedClasses(k.params(), a);
        Diagnostic.Root root = moveRoot(k.rootInfo(), a, path);
        if (k.rootInfo() != null && root == null) return null;
        return new Key(new Ident(def.now()), params, k.root(), root);
    }

    private static Diagnostic.Root moveRoot(Diagnostic.Root r, Alignment a, String path) {
        if (r == null || !r.path().equals(path)) return r;
        int line = a.line(r.line());
        return line < 0 ? null : line == r.line() ? r : new Diagnostic.Root(r.path(), line, r.description());
    }

    /** "on line 394": a message that names a line of the file, which an edit above it moves. */
    private static final java.util.regex.Pattern NAMES_A_LINE = java.util.regex.Pattern.compile("\\blines? \\d");

    /** Whether a diagnostic's text names a line: it may lie in another function, moved by another delta. */
    private static boolean namesALine(Diagnostic d) {
        return NAMES_A_LINE.matcher(d.message()).find() || d.noFixReason() != null && NAMES_A_LINE.matcher(d.noFixReason()).find();
    }

    /** A diagnostic moved by the lines its function moved (its entry's text names no line); null when its root is gone. */
    private static Diagnostic moveDiagnostic(Diagnostic d, int delta, Alignment a, String path) {
        Diagnostic.Root root = moveRoot(d.root(), a, path);
        if (d.root() != null && root == null) return null;
        if (delta == 0 && root == d.root()) return d;
        dev.graphmend.ir.ast.Span s = d.span();
        return new Diagnostic(d.rule(), d.severity(), new dev.graphmend.ir.ast.Span(s.line() + delta, s.col(),
                s.endLine() + delta, s.endCol()), d.message(), d.dynamoIds(), root, d.fixes(), d.noFixReason());
    }

    private static boolean sameHeader(Stmt.FunctionDef b, Stmt.FunctionDef a) {
        return b.name().equals(a.name()) && b.args().equals(a.args()) && b.decoratorList().equals(a.decoratorList())
                && Objects.equals(b.returns(), a.returns());
    }
}
