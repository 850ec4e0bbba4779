package dev.graphmend.ir.symbols;

import dev.graphmend.ir.symbols.Analyzer.Block;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code gm-symtable-v1} dump: the symbol tables exactly as CPython 3.13's {@code symtable}
 * module reports them, in the format {@code tools/symtable_dump.py} prints (see that script).
 *
 * <p>The one thing that differs from {@link SymbolTable}'s own view is PEP 709: CPython inlines
 * every list, set and dict comprehension into its parent, so {@code symtable} reports the
 * comprehension's names as the parent's (iteration variables become the parent's locals, a
 * comprehension's cells the parent's cells, flagged {@code comp_cell}) and lists the
 * comprehension's nested scopes as the parent's children. This class reruns the analysis on the
 * table's raw flags with that inlining, so the dump can be compared with CPython's line for line.
 */
public final class SymtableDump {
    private SymtableDump() {}

    /**
     * One scope of the dump.
     *
     * @param header {@code DEPTH TYPE NAME LINENO}
     * @param symbols the symbol lines, sorted by name: {@code "  IDENT SCOPE FLAGS"}
     */
    public record DumpedScope(int depth, String header, List<String> symbols) {
        public String text() {
            StringBuilder sb = new StringBuilder(header).append('\n');
            for (String s : symbols) sb.append(s).append('\n');
            return sb.toString();
        }
    }

    /** The scopes as CPython's symtable reports them, depth first. */
    public static List<DumpedScope> scopes(SymbolTable table) {
        Block top = toBlock(table.module());
        new Analyzer(true, null).analyze(top);
        List<DumpedScope> out = new ArrayList<>();
        dump(top, 0, out);
        return out;
    }

    /**
     * The scopes of {@link SymbolTable}'s own view, every comprehension a scope of its own: what
     * CPython 3.11 and earlier (before PEP 709) report for the same program, in the same format.
     */
    public static List<DumpedScope> scopesWithoutInlining(SymbolTable table) {
        Block top = toBlock(table.module());
        new Analyzer(false, null).analyze(top);
        List<DumpedScope> out = new ArrayList<>();
        dump(top, 0, out);
        return out;
    }

    /** The whole dump of one table, without the {@code == PATH} line. */
    public static String dump(SymbolTable table) {
        StringBuilder sb = new StringBuilder();
        for (DumpedScope s : scopes(table)) sb.append(s.text());
        return sb.toString();
    }

    private static Block toBlock(Scope s) {
        SymbolMap symbols = new SymbolMap(s.symbols().size());
        for (Symbol sym : s.symbols()) {
            if (sym.isPassThrough()) continue;
            Analyzer.Entry e = new Analyzer.Entry(sym.name());
            e.rawFlags = sym.rawFlags();
            e.flags = sym.rawFlags();
            symbols.add(e);
        }
        List<Block> children = new ArrayList<>(s.children().size());
        for (Scope c : s.children()) children.add(toBlock(c));
        return new Block(s.kind(), s.name(), s.line(), s.canSeeClassScope(), symbols, children, s, null);
    }

    private static void dump(Block b, int depth, List<DumpedScope> out) {
        String header = depth + " " + b.kind.cpythonType().replace(' ', '_') + " " + b.name + " " + b.lineno;
        List<Analyzer.Entry> entries = new ArrayList<>(b.symbols.size());
        for (int i = 0; i < b.symbols.size(); i++) entries.add(b.symbols.at(i));
        entries.sort((x, y) -> compareCodePoints(x.name, y.name));
        List<String> lines = new ArrayList<>(entries.size());
        for (Analyzer.Entry e : entries) {
            int flags = e.flags;
            lines.add("  " + e.name + " " + SymbolKind.fromCPython(Def.scopeOf(flags)).dumpName()
                    + " " + SymbolFlag.dump(flags & Def.FLAG_MASK));
        }
        out.add(new DumpedScope(depth, header, List.copyOf(lines)));
        for (Block c : b.children) dump(c, depth + 1, out);
    }

    /** Python's str ordering: by code point (Java's compareTo orders UTF-16 units). */
    static int compareCodePoints(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i), cb = b.codePointAt(j);
            if (ca != cb) return Integer.compare(ca, cb);
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
