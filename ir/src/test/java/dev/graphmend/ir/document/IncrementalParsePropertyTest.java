package dev.graphmend.ir.document;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.dump.GmAstDump;
import dev.graphmend.ir.symbols.Binding;
import dev.graphmend.ir.symbols.Resolution;
import dev.graphmend.ir.symbols.Scope;
import dev.graphmend.ir.symbols.ScopeKind;
import dev.graphmend.ir.symbols.Symbol;
import dev.graphmend.ir.symbols.SymbolTable;
import dev.graphmend.ir.symbols.SymtableDump;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The incremental document model against a from-scratch parse: 10,000 random edit sequences on
 * standard-library files and our examples (some as CRLF files). After every edit the incremental
 * tree and errors must equal those of {@link PythonDocument#open} on the same text, and so must
 * the symbol tables and what eight random names resolve to, with the bindings and uses of their variables; after
 * every fifth edit, so does every control-flow graph of the {@link UniIR}, whose graphs of
 * untouched functions are carried over from the previous version.
 *
 * <p>Edits: typing and deleting characters (ASCII, non-ASCII, astral), deleting and duplicating
 * lines, cutting and pasting blocks, breaking the syntax (an open bracket, a stray ':', a half
 * `def`) and repairing it (undoing the previous edit).
 */
@Tag("oracle")
class IncrementalParsePropertyTest {
    static final int SEQUENCES = 10_000;
    static final long SEED = 0x1AC2E3E47L;
    static final String[] TYPED = {"x", "self.", "(", ")", "[", "]", ":", " ", "\n", "\n    ", "    ", "é", "😀",
            "日本", "1", "=", " = 1", "def ", "return ", "'", "\"", "#", "\t", "if x:\n    pass\n", "pass", ",", "f(a, b)",
            "\r\n", "lambda: 0", "@", "class C:\n    y = 1\n", "    def m(self):\n        return 1\n"};

    @Test
    void incrementalTreeEqualsFromScratchAfterEveryEdit() throws IOException {
        List<String> texts = corpus();
        Random rnd = new Random(SEED);
        List<PythonDocument> bases = new ArrayList<>(texts.size());
        for (String t : texts) bases.add(PythonDocument.open(t, 0));
        Map<PythonDocument.Update, Integer> paths = new EnumMap<>(PythonDocument.Update.class);
        int edits = 0;
        int graphsCompared = 0;
        int namesCompared = 0;
        Random pick = new Random(SEED ^ 0x5EEDL); // names to compare, apart from the edits' random stream
        for (int seq = 0; seq < SEQUENCES; seq++) {
            int fileIndex = rnd.nextInt(bases.size());
            PythonDocument doc = bases.get(fileIndex);
            UniIR ir = UniIR.of(doc);
            ir.symbols(); // so that every edit's table is built from the previous version's
            int steps = 1 + rnd.nextInt(6);
            TextChange undo = null;
            StringBuilder history = new StringBuilder();
            for (int step = 0; step < steps; step++) {
                TextChange change;
                if (undo != null && rnd.nextInt(4) == 0) {
                    change = undo; // repair: take the previous edit back
                } else {
                    change = randomChange(doc.text(), rnd);
                }
                undo = inverse(doc.text(), change);
                history.append("\n  ").append(describe(change));
                PythonDocument next = doc.apply(change, doc.version() + 1);
                PythonDocument scratch = PythonDocument.open(next.text(), next.version());
                edits++;
                paths.merge(next.lastUpdate(), 1, Integer::sum);
                String got = GmAstDump.dump(next.module());
                String want = GmAstDump.dump(scratch.module());
                if (!got.equals(want) || !next.errors().equals(scratch.errors())) {
                    fail("sequence " + seq + " on corpus file " + fileIndex + " (" + next.lastUpdate() + "): "
                            + firstDifference(got, want) + "\nerrors ours " + next.errors() + "\nerrors scratch "
                            + scratch.errors() + "\nedits:" + history);
                }
                // the line index carried over the edit (SourceText.edited) is the edited text's
                dev.graphmend.ir.source.LineIndex li = next.source().lines(), lw = scratch.source().lines();
                boolean sameLines = li.toString().equals(lw.toString()) && li.text().equals(lw.text());
                for (int l = 1; sameLines && l <= lw.lineCount(); l++) {
                    sameLines = li.lineStartCodePoint(l) == lw.lineStartCodePoint(l) && li.sameLine(l, lw, l)
                            && li.utf16Column(l, Integer.MAX_VALUE) == lw.utf16Column(l, Integer.MAX_VALUE)
                            && li.utf8Column(l, Integer.MAX_VALUE) == lw.utf8Column(l, Integer.MAX_VALUE);
                }
                if (!sameLines) fail("sequence " + seq + ": line index differs: " + li + " vs " + lw + "\nedits:" + history);
                UniIR nextIr = ir.next(next);
                UniIR scratchIr = UniIR.of(scratch);
                // symbol tables after every edit (built per statement, reusing the previous version's)
                String ours = SymtableDump.dump(nextIr.symbols());
                String theirs = SymtableDump.dump(scratchIr.symbols());
                if (!ours.equals(theirs)) {
                    fail("sequence " + seq + ": symbol tables differ: " + firstDifference(ours, theirs) + "\nedits:" + history);
                }
                String why = compareNames(nextIr.symbols(), scratchIr.symbols(), pick);
                if (why == null) why = compareStructure(nextIr.symbols(), scratchIr.symbols());
                if (why != null) fail("sequence " + seq + ": " + why + "\nedits:" + history);
                namesCompared += 8;
                if (edits % 5 == 0) {
                    List<Node> a = scopes(next.module());
                    List<Node> b = scopes(scratch.module());
                    for (int k = 0; k < a.size(); k++) {
                        String ga = nextIr.cfg(a.get(k)).toString();
                        String gb = scratchIr.cfg(b.get(k)).toString();
                        if (!ga.equals(gb)) {
                            fail("sequence " + seq + ": control-flow graph " + k + " differs: " + firstDifference(ga, gb)
                                    + "\nedits:" + history);
                        }
                    }
                    graphsCompared += a.size();
                }
                ir = nextIr;
                doc = next;
            }
        }
        int incremental = paths.getOrDefault(PythonDocument.Update.TOP_LEVEL, 0) + paths.getOrDefault(PythonDocument.Update.MEMBER, 0);
        System.out.printf("incremental parse property: %d sequences, %d edits on %d files; paths %s; "
                + "symbol tables compared after all %d edits (%d names resolved), %d control-flow graphs compared%n",
                SEQUENCES, edits, texts.size(), paths, edits, namesCompared, graphsCompared);
        // the fast paths must really be exercised, or the property says nothing about them
        assertTrue(incremental >= edits / 5, "too few incremental updates: " + paths);
        assertTrue(paths.getOrDefault(PythonDocument.Update.MEMBER, 0) >= edits / 20, "too few member updates: " + paths);
    }

    /**
     * Eight random {@code Name} nodes of the tree (the same in both tables' trees, by position in
     * tree order): their resolution, and the bindings and uses of the variable each denotes, must
     * be the same, so reused binding and use lists (and the references across statements) are
     * checked, not only the flags the dump shows. Returns the difference, or null.
     */
    static String compareNames(SymbolTable ours, SymbolTable theirs, Random rnd) {
        List<Expr.Name> a = names(ours.ast());
        List<Expr.Name> b = names(theirs.ast());
        if (a.size() != b.size()) return "name counts differ";
        if (a.isEmpty()) return null;
        IdentityHashMap<Node, Integer> indexA = index(ours.ast());
        IdentityHashMap<Node, Integer> indexB = index(theirs.ast());
        for (int i = 0; i < 8; i++) {
            int k = rnd.nextInt(a.size());
            String x = describe(ours, ours.resolve(a.get(k)), indexA);
            String y = describe(theirs, theirs.resolve(b.get(k)), indexB);
            if (!x.equals(y)) return "name " + a.get(k).id() + " at " + a.get(k).span() + " resolves differently:\n  ours    " + x + "\n  scratch " + y;
        }
        return null;
    }

    /**
     * The whole of two tables, beyond what the dump shows: the same scopes in the same order with
     * the same parents and nodes (by position in tree order), each scope's symbols in the same
     * order with the same resolution, every node's scope, every {@code Name}'s symbol and every
     * node's opened scope. Our table must also be self-contained: every scope's parent and every
     * symbol's scope one of its own (never one of an earlier version's table). Returns the
     * difference, or null.
     */
    static String compareStructure(SymbolTable ours, SymbolTable theirs) {
        List<Scope> sa = ours.scopes();
        List<Scope> sb = theirs.scopes();
        if (sa.size() != sb.size()) return "scope counts differ: " + sa.size() + " vs " + sb.size();
        IdentityHashMap<Scope, Integer> ia = new IdentityHashMap<>();
        IdentityHashMap<Scope, Integer> ib = new IdentityHashMap<>();
        for (int k = 0; k < sa.size(); k++) {
            ia.put(sa.get(k), k);
            ib.put(sb.get(k), k);
        }
        List<Node> na = new ArrayList<>();
        List<Node> nb = new ArrayList<>();
        collectAll(ours.ast(), na);
        collectAll(theirs.ast(), nb);
        if (na.size() != nb.size()) return "node counts differ";
        IdentityHashMap<Node, Integer> pa = new IdentityHashMap<>();
        IdentityHashMap<Node, Integer> pb = new IdentityHashMap<>();
        for (int k = 0; k < na.size(); k++) {
            pa.put(na.get(k), k);
            pb.put(nb.get(k), k);
        }
        if (ours.module() != sa.get(0) || sa.get(0).parent() != null) return "module scope is not the root";
        for (int k = 0; k < sa.size(); k++) {
            Scope a = sa.get(k);
            Scope b = sb.get(k);
            if (k > 0 && !ia.containsKey(a.parent())) return "scope " + a + " has a parent outside its table";
            if (k > 0 && !ia.get(a.parent()).equals(ib.get(b.parent()))) return "scope " + a + " has another parent";
            if (!Objects.equals(pa.get(a.node()), pb.get(b.node()))) return "scope " + a + " has another node";
            if (!a.toString().equals(b.toString())) return "scope " + k + " differs: " + a + " vs " + b;
            List<Symbol> xa = new ArrayList<>(a.symbols());
            List<Symbol> xb = new ArrayList<>(b.symbols());
            if (xa.size() != xb.size()) return "scope " + a + " has another number of symbols";
            for (int i = 0; i < xa.size(); i++) {
                Symbol x = xa.get(i);
                Symbol y = xb.get(i);
                if (x.scope() != a) return "symbol " + x + " is not its scope's";
                if (x.resolution().symbol() != x) return "symbol " + x + " has another symbol's resolution";
                if (!x.toString().equals(y.toString()) || x.isPassThrough() != y.isPassThrough()) {
                    return "symbol " + i + " of " + a + " differs: " + x + " vs " + y;
                }
                String rx = describe(x.resolution(), ia);
                String ry = describe(y.resolution(), ib);
                if (!rx.equals(ry)) return "symbol " + x + " resolves differently: " + rx + " vs " + ry;
                if (!bindings(x, pa).equals(bindings(y, pb))) return "symbol " + x + " has other bindings or uses";
            }
        }
        for (int k = 0; k < na.size(); k++) {
            Node a = na.get(k);
            Node b = nb.get(k);
            Scope x = ours.scopeOf(a);
            Scope y = theirs.scopeOf(b);
            if (x != null && !ia.containsKey(x)) return "node " + k + " (" + a.getClass().getSimpleName() + ") maps to a scope outside the table";
            if (!Objects.equals(x == null ? null : ia.get(x), y == null ? null : ib.get(y))) {
                return "node " + k + " (" + a.getClass().getSimpleName() + " at " + a.span() + ") has another scope: " + x + " vs " + y;
            }
            Scope ox = ours.scopeOpenedBy(a);
            Scope oy = theirs.scopeOpenedBy(b);
            if (!Objects.equals(ox == null ? null : ia.get(ox), oy == null ? null : ib.get(oy))) {
                return "node " + k + " opens another scope: " + ox + " vs " + oy;
            }
            if (a instanceof Expr.Name n) {
                Symbol sx = ours.symbolOf(n);
                Symbol sy = theirs.symbolOf((Expr.Name) b);
                String dx = sx == null ? "null" : sx.name() + "@" + ia.get(sx.scope());
                String dy = sy == null ? "null" : sy.name() + "@" + ib.get(sy.scope());
                if (!dx.equals(dy)) return "name " + n.id() + " at " + n.span() + " has another symbol: " + dx + " vs " + dy;
            }
        }
        if (!ours.problems().equals(theirs.problems())) return "problems differ: " + ours.problems() + " vs " + theirs.problems();
        return null;
    }

    private static String describe(Resolution r, IdentityHashMap<Scope, Integer> scopes) {
        if (r == null) return "null";
        Symbol d = r.definition();
        return r.kind() + " in " + scopes.get(r.definingScope()) + " def "
                + (d == null ? "-" : d.name() + "@" + scopes.get(d.scope())) + " star " + r.mayComeFromStarImport();
    }

    private static String bindings(Symbol s, IdentityHashMap<Node, Integer> nodes) {
        StringBuilder sb = new StringBuilder();
        for (Binding b : s.bindings()) sb.append(b.kind()).append('@').append(nodes.get(b.node())).append('/').append(nodes.get(b.construct())).append(' ');
        sb.append('|');
        for (Expr.Name u : s.uses()) sb.append(' ').append(nodes.get(u));
        sb.append(" decl ").append(s.declaration() == null ? "-" : nodes.get(s.declaration()));
        return sb.toString();
    }

    private static void collectAll(Node n, List<Node> out) {
        out.add(n);
        n.forEachChild(c -> collectAll(c, out));
    }

    private static String describe(SymbolTable t, Resolution r, IdentityHashMap<Node, Integer> index) {
        if (r == null) return "null";
        StringBuilder sb = new StringBuilder(r.kind().toString());
        sb.append(" scope ").append(r.definingScope() == null ? "-" : r.definingScope() + "/" + index.get(r.definingScope().node()));
        sb.append(" star ").append(r.mayComeFromStarImport());
        if (r.symbol() != null) sb.append(" sym ").append(r.symbol()).append(" in ").append(index.get(r.symbol().scope().node()));
        if (r.definition() != null) {
            Symbol d = r.definition();
            sb.append(" def ").append(d).append(" refs ").append(t.references(d).size()).append(" bindings");
            for (Binding bd : t.bindingsOf(d)) sb.append(' ').append(bd.kind()).append('@').append(index.get(bd.node())).append('/').append(index.get(bd.construct()));
            sb.append(" uses");
            for (Expr.Name u : t.usesOf(d)) sb.append(' ').append(index.get(u));
            if (t.scopeOf(d.scope().node()) == null && d.scope().kind() != ScopeKind.MODULE) sb.append(" unmapped");
        }
        return sb.toString();
    }

    private static List<Expr.Name> names(Module m) {
        List<Expr.Name> out = new ArrayList<>();
        collectNames(m, out);
        return out;
    }

    private static void collectNames(Node n, List<Expr.Name> out) {
        if (n instanceof Expr.Name) out.add((Expr.Name) n);
        n.forEachChild(c -> collectNames(c, out));
    }

    /** Every node's position in tree order, so nodes of the two trees can be compared. */
    private static IdentityHashMap<Node, Integer> index(Module m) {
        IdentityHashMap<Node, Integer> out = new IdentityHashMap<>();
        indexInto(m, out);
        return out;
    }

    private static void indexInto(Node n, IdentityHashMap<Node, Integer> out) {
        out.put(n, out.size());
        n.forEachChild(c -> indexInto(c, out));
    }

    /** The module and every function, lambda and class in it, in tree order. */
    static List<Node> scopes(Module m) {
        List<Node> out = new ArrayList<>();
        out.add(m);
        collect(m, out);
        return out;
    }

    private static void collect(Node n, List<Node> out) {
        n.forEachChild(c -> {
            if (c instanceof Stmt.FunctionDef || c instanceof Stmt.AsyncFunctionDef || c instanceof Stmt.ClassDef
                    || c instanceof Expr.Lambda) {
                out.add(c);
            }
            collect(c, out);
        });
    }

    static TextChange randomChange(String text, Random rnd) {
        List<String> lines = List.of(text.split("\r\n|\r|\n", -1));
        int line = rnd.nextInt(lines.size());
        int len = lines.get(line).length();
        int ch = rnd.nextInt(len + 3); // past the end too: editors may send it, it clamps
        switch (rnd.nextInt(9)) {
            case 8: { // delete a whole indented block (a method), from its line to the start of the next line as indented
                for (int tries = 0; tries < 20; tries++) {
                    int at = rnd.nextInt(lines.size());
                    String l = lines.get(at);
                    int indent = l.length() - l.stripLeading().length();
                    if (indent == 0 || !(l.stripLeading().startsWith("def ") || l.stripLeading().startsWith("@"))) continue;
                    int end = at + 1;
                    while (end < lines.size()) {
                        String e = lines.get(end);
                        if (!e.isBlank() && e.length() - e.stripLeading().length() <= indent) break;
                        end++;
                    }
                    if (end >= lines.size()) continue;
                    return TextChange.replace(at, 0, end, 0, "");
                }
                return TextChange.replace(line, 0, Math.min(lines.size() - 1, line + 1), 0, "");
            }
            case 0: case 1: case 2: // type something
                return TextChange.replace(line, ch, line, ch, TYPED[rnd.nextInt(TYPED.length)]);
            case 3: { // delete a few characters
                int n = 1 + rnd.nextInt(8);
                return TextChange.replace(line, ch, line, ch + n, "");
            }
            case 4: { // delete whole lines
                int n = 1 + rnd.nextInt(3);
                return TextChange.replace(line, 0, Math.min(lines.size() - 1, line + n), 0, "");
            }
            case 5: { // paste a copy of another line block here
                int from = rnd.nextInt(lines.size());
                int n = 1 + rnd.nextInt(4);
                StringBuilder block = new StringBuilder();
                for (int k = from; k < Math.min(lines.size(), from + n); k++) block.append(lines.get(k)).append('\n');
                return TextChange.replace(line, 0, line, 0, block.toString());
            }
            case 6: { // cut a block spanning lines, from inside one line to inside another
                int end = Math.min(lines.size() - 1, line + rnd.nextInt(12));
                return TextChange.replace(line, ch, end, rnd.nextInt(lines.get(end).length() + 1), "");
            }
            default: { // replace a word-sized span
                int n = rnd.nextInt(6);
                return TextChange.replace(line, ch, line, ch + n, TYPED[rnd.nextInt(TYPED.length)]);
            }
        }
    }

    /** The change that takes {@code change} back, applied to the text after it. */
    static TextChange inverse(String before, TextChange change) {
        int[] starts = PythonDocument.lineStarts(before);
        int start = offset(before, starts, change.range().start());
        int end = Math.max(start, offset(before, starts, change.range().end()));
        String removed = before.substring(start, end);
        String after = before.substring(0, start) + change.text() + before.substring(end);
        int[] afterStarts = PythonDocument.lineStarts(after);
        int insertedEnd = start + change.text().length();
        return new TextChange(new TextChange.Range(position(afterStarts, start), position(afterStarts, insertedEnd)), removed);
    }

    private static int offset(String text, int[] starts, TextChange.Position p) {
        if (p.line() >= starts.length) return text.length();
        int s = starts[p.line()];
        int e = p.line() + 1 < starts.length ? starts[p.line() + 1] : text.length();
        while (e > s && (text.charAt(e - 1) == '\n' || text.charAt(e - 1) == '\r')) e--;
        return s + Math.min(p.character(), e - s);
    }

    private static TextChange.Position position(int[] starts, int offset) {
        int line = 0;
        while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
        return new TextChange.Position(line, offset - starts[line]);
    }

    private static String describe(TextChange c) {
        TextChange.Range r = c.range();
        return r.start().line() + ":" + r.start().character() + "-" + r.end().line() + ":" + r.end().character()
                + " <- " + c.text().replace("\r", "\\r").replace("\n", "\\n");
    }

    private static String firstDifference(String a, String b) {
        String[] x = a.split("\n", -1);
        String[] y = b.split("\n", -1);
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String p = i < x.length ? x[i] : "<none>";
            String q = i < y.length ? y[i] : "<none>";
            if (!p.equals(q)) return "dump line " + (i + 1) + ": incremental [" + p + "] scratch [" + q + "]";
        }
        return "dumps equal, errors differ";
    }

    /** Standard-library files of 40-600 lines (every 12th), our examples, a quarter as CRLF. */
    static List<String> corpus() throws IOException {
        Path stdlib = dev.graphmend.ir.oracle.OracleRequirements.stdlib313("incremental-parse property test (its corpus is CPython 3.13's stdlib)");
        List<String> out = new ArrayList<>();
        if (Files.isDirectory(stdlib)) {
            List<Path> files;
            try (Stream<Path> s = Files.walk(stdlib)) {
                files = s.filter(p -> p.toString().endsWith(".py") && !p.toString().contains("site-packages")
                        && !p.toString().contains("/test/")).sorted().toList();
            }
            for (int i = 0; i < files.size(); i += 12) {
                String t = new String(Files.readAllBytes(files.get(i)), StandardCharsets.UTF_8);
                long n = t.chars().filter(c -> c == '\n').count();
                if (n >= 40 && n <= 600 && !t.contains("\uFFFD")) out.add(out.size() % 4 == 3 ? t.replace("\n", "\r\n") : t);
            }
        }
        Path examples = repoRoot().resolve("examples");
        if (Files.isDirectory(examples)) {
            try (Stream<Path> s = Files.list(examples)) {
                for (Path p : s.filter(p -> p.toString().endsWith(".py")).sorted().toList()) {
                    out.add(Files.readString(p));
                }
            }
        }
        if (out.size() < 20) fail("corpus too small (" + out.size() + " files): is CPython 3.13's stdlib installed?");
        return out;
    }

    static Path repoRoot() {
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("examples")) && Files.isRegularFile(p.resolve("pom.xml"))) return p;
        }
        return Paths.get("").toAbsolutePath();
    }
}
