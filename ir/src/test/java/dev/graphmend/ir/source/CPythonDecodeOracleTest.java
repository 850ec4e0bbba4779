package dev.graphmend.ir.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Decoding checked against CPython 3.13 itself: its standard library (and the other pyenv
 * libraries present), a differential fuzz of coding declarations through {@code ast.parse(bytes)},
 * UTF-8 replacement through {@code bytes.decode}, and the codec registry and tables.
 *
 * <p>The interpreter at {@link #PYTHON} ({@code /root/.pyenv/versions/3.13.0/bin/python3}) is required:
 * when it is missing the tests fail, unless
 * {@code GRAPHMEND_ALLOW_MISSING_ORACLE=1}, which aborts (skips) them with a message instead.
 */
@Tag("oracle")
class CPythonDecodeOracleTest {
    static final Path PYENV = dev.graphmend.ir.oracle.OracleRequirements.pyenvVersions();
    /** The reference interpreter; {@code -Dgraphmend.oracle.python=...} points elsewhere. */
    static final Path PYTHON = Path.of(System.getProperty("graphmend.oracle.python",
            PYENV.resolve("3.13.0/bin/python3").toString()));
    static final Path STDLIB = PYENV.resolve("3.13.0/lib/python3.13");
    static final int SHOWN = 25;

    // ---- the standard library ----

    /**
     * Per file: whether {@code ast.parse(bytes)} accepts it, and the text that
     * {@code tokenize.detect_encoding} + {@code bytes.decode} give (for the 3.13 library these agree
     * with what {@code compile} decodes: for all 2133 files it accepts, {@code ast.parse} of that text
     * gives the same tree, positions included, as {@code ast.parse} of the bytes).
     */
    static final String STDLIB_SCRIPT = """
            import ast, codecs, hashlib, io, os, sys, tokenize, warnings
            warnings.simplefilter('ignore')
            root, parse = sys.argv[1], sys.argv[2] == 'parse'
            for dp, dn, fn in os.walk(root):
                dn[:] = sorted(d for d in dn if d != 'site-packages')
                for f in sorted(fn):
                    if not f.endswith('.py'):
                        continue
                    p = os.path.join(dp, f)
                    if os.path.islink(p) or '\\t' in p or '\\n' in p:
                        continue
                    try:
                        b = open(p, 'rb').read()
                    except OSError:
                        continue
                    status = '-'
                    if parse:
                        try:
                            ast.parse(b)
                            status = 'OK'
                        except SyntaxError:
                            status = 'SYNTAX'
                        except Exception as e:
                            status = 'ERR:' + type(e).__name__
                    try:
                        if b'\\0' in b:
                            raise ValueError('source code cannot contain null bytes')
                        enc, _ = tokenize.detect_encoding(io.BytesIO(b).readline)
                        text = b.decode(enc)
                        name = codecs.lookup(enc).name
                        if name == 'utf-8-sig':
                            name = 'utf-8'
                        norm = text.replace('\\r\\n', '\\n').replace('\\r', '\\n')
                        sha = hashlib.sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()
                        fields = [p, status, 'DECODED', name, sha, str(len(text)), str(norm.count('\\n') + 1)]
                    except Exception as e:
                        msg = (type(e).__name__ + ': ' + str(e)).replace('\\t', ' ').replace('\\n', ' ')
                        fields = [p, status, 'UNDECODABLE', msg]
                    print('\\t'.join(fields))
            """;

    @Test
    void stdlib313DecodesAsCPythonDoes() {
        Path python = python();
        assertTrue(Files.isDirectory(STDLIB), "missing " + STDLIB);
        Summary s = checkLibrary(python, STDLIB, true);
        System.out.println("[decode-oracle] " + STDLIB + ": " + s);
        assertTrue(s.files >= 1500, "too few files: " + s);
        assertTrue(s.undecodable >= 3, "expected CPython's deliberately bad test files: " + s);
        assertTrue(s.nonUtf8 >= 3, "expected files in other encodings: " + s);
        assertEquals(List.of(), s.mismatches.subList(0, Math.min(SHOWN, s.mismatches.size())),
                s.mismatches.size() + " of " + s.files + " files disagree");
    }

    /** The other libraries pyenv holds (2.7, 3.6-3.12), decoded under 3.13's rules: more odd files. */
    @Test
    void otherPyenvLibrariesDecodeAsCPython313Does() throws IOException {
        Path python = python();
        List<Path> libs = new ArrayList<>();
        try (Stream<Path> versions = Files.list(PYENV)) {
            for (Path v : versions.sorted().toList()) {
                if (v.getFileName().toString().startsWith("3.13")) {
                    continue;
                }
                try (Stream<Path> libDirs = Files.list(v.resolve("lib"))) {
                    libDirs.filter(d -> d.getFileName().toString().startsWith("python") && Files.isDirectory(d))
                            .forEach(libs::add);
                } catch (IOException e) {
                    // no lib directory: nothing to check
                }
            }
        }
        Assumptions.assumeFalse(libs.isEmpty(), "no other pyenv libraries");
        List<String> all = new ArrayList<>();
        for (Path lib : libs) {
            Summary s = checkLibrary(python, lib, false);
            System.out.println("[decode-oracle] " + lib + ": " + s);
            all.addAll(s.mismatches);
        }
        assertEquals(List.of(), all.subList(0, Math.min(SHOWN, all.size())), all.size() + " files disagree");
    }

    static final class Summary {
        int files;
        int undecodable;
        int nonUtf8;
        final List<String> mismatches = new ArrayList<>();

        @Override
        public String toString() {
            return files + " files, " + undecodable + " undecodable, " + nonUtf8 + " not UTF-8, "
                    + mismatches.size() + " disagreeing";
        }
    }

    static Summary checkLibrary(Path python, Path lib, boolean parse) {
        List<String> lines = runPython(python, STDLIB_SCRIPT, List.of(lib.toString(), parse ? "parse" : "noparse"), "", 600);
        Summary s = new Summary();
        for (String line : lines) {
            String[] f = line.split("\t");
            Path path = Path.of(f[0]);
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(path);
            } catch (IOException e) {
                continue;
            }
            s.files++;
            SourceText ours = SourceText.decode(bytes);
            String rel = lib.relativize(path).toString();
            if (f[2].equals("UNDECODABLE")) {
                s.undecodable++;
                if (f[1].equals("OK")) {
                    s.mismatches.add(rel + ": oracle inconsistent, ast.parse accepts but " + f[3]);
                } else if (ours.problems().isEmpty()) {
                    s.mismatches.add(rel + ": CPython cannot decode it (" + f[3] + ") but we report no problem");
                }
                continue;
            }
            if (!f[3].equals("utf-8")) {
                s.nonUtf8++;
            }
            if (!ours.problems().isEmpty()) {
                s.mismatches.add(rel + ": CPython decodes it as " + f[3] + " but we report " + ours.problems());
                continue;
            }
            String text = ours.text();
            List<String> diffs = new ArrayList<>();
            if (!ours.encoding().equals(f[3])) {
                diffs.add("encoding " + ours.encoding() + " vs " + f[3]);
            }
            if (!sha256(text).equals(f[4])) {
                diffs.add("text differs");
            }
            if (text.codePointCount(0, text.length()) != Integer.parseInt(f[5])) {
                diffs.add("length " + text.codePointCount(0, text.length()) + " vs " + f[5]);
            }
            if (ours.lines().lineCount() != Integer.parseInt(f[6])) {
                diffs.add("lines " + ours.lines().lineCount() + " vs " + f[6]);
            }
            if (!diffs.isEmpty()) {
                s.mismatches.add(rel + ": " + String.join(", ", diffs));
            }
        }
        return s;
    }

    // ---- coding declarations, differentially ----

    static final String PARSE_SCRIPT = """
            import ast, sys, warnings
            warnings.simplefilter('ignore')
            for line in sys.stdin:
                b = bytes.fromhex(line.strip())
                try:
                    t = ast.parse(b)
                    print('OK ' + t.body[-1].value.value.encode('utf-8', 'surrogatepass').hex())
                except SyntaxError as e:
                    print('ERR ' + str(e.msg).replace('\\n', ' '))
                except Exception as e:
                    print('EXC ' + type(e).__name__ + ' ' + str(e).replace('\\n', ' '))
            """;

    static final String[] LINE1 = {"", "#!/usr/bin/env python", "# comment", "   ", "\t# x", "x = 1", "\f", "\f# y"};
    static final String[] LINE2 = {"", "# hi", "pass", "  "};
    static final String[] FORMS = {
        "# -*- coding: %s -*-", "# coding=%s", "#coding:%s", "# vim: set fileencoding=%s :", "# coding : %s",
        "# CODING: %s", "  # coding:\t%s  ", "x = 1 # coding: %s", "# coding: %s # coding: utf-8", "# codingcoding: %s",
        "#coding:   %s", "# coding:: %s", "\t#   encoding=%s", "# coding: %s.", "# coding: %s-", "#coding=%s\f",
    };
    static final String[] NAMES = {
        "latin-1", "Latin_1", "latin1", "LATIN1", "iso-8859-1", "ISO_8859-1-unix", "iso-latin-1", "iso_latin_1", "l1", "8859",
        "latin", "cp819", "cp1252", "windows-1252", "1252", "utf-8", "UTF8", "utf_8", "utf-8-unix", "utf8-sig", "utf-8-sig",
        "utf_8_sig", "u8", "utf", "cp65001", "ascii", "us-ascii", "646", "ANSI_X3.4-1968", "koi8-r", "koi8_u", "iso8859-15",
        "latin9", "L9", "iso8859_2", "cp1251", "cp437", "mac-roman", "macintosh", "euc-jp", "eucjp", "ujis", "shift_jis",
        "sjis", "cp932", "gbk", "gb2312", "big5", "euc_kr", "foobar", "uft-8", "cp-1252", "utf--8", ".utf-8", "utf-8.x",
        "rot13", "hex", "base64", "undefined", "mbcs",
    };
    static final String[] LITERALS = {"abc", "\u00e9", "\u00c3\u00a9", "\u0080", "\u00a4\u00a2", "\u0082\u00a0", "\u00e2\u0082\u00ac", "\u00ff", "\u00b0C"};
    static final String[] EOLS = {"\n", "\r\n", "\r"};

    @Test
    void codingDeclarationsAgreeWithAstParse() {
        Path python = python();
        Random rnd = new Random(3131);
        List<byte[]> cases = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            String eol = EOLS[rnd.nextInt(EOLS.length)];
            String cookie = String.format(FORMS[rnd.nextInt(FORMS.length)], NAMES[rnd.nextInt(NAMES.length)]);
            String l1 = LINE1[rnd.nextInt(LINE1.length)];
            String l2 = LINE2[rnd.nextInt(LINE2.length)];
            StringBuilder sb = new StringBuilder();
            if (rnd.nextInt(10) == 0) {
                sb.append("\u00ef\u00bb\u00bf");
            }
            switch (rnd.nextInt(4)) {
                case 0 -> sb.append(cookie).append(eol);
                case 1 -> sb.append(l1).append(eol).append(cookie).append(eol);
                case 2 -> sb.append(l1).append(eol).append(l2).append(eol).append(cookie).append(eol);
                default -> sb.append(l1).append(eol).append(cookie).append(eol).append(l2).append(eol);
            }
            sb.append("x = '").append(LITERALS[rnd.nextInt(LITERALS.length)]).append("'");
            if (rnd.nextInt(4) != 0) {
                sb.append(eol);
            }
            cases.add(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
        }
        String input = cases.stream().map(c -> HexFormat.of().formatHex(c)).collect(Collectors.joining("\n", "", "\n"));
        List<String> results = runPython(python, PARSE_SCRIPT, List.of(), input, 300);
        assertEquals(cases.size(), results.size());
        List<String> mismatches = new ArrayList<>();
        Map<String, Integer> outcomes = new TreeMap<>();
        for (int i = 0; i < cases.size(); i++) {
            byte[] c = cases.get(i);
            String r = results.get(i);
            SourceText ours = SourceText.decode(c);
            String shown = new String(c, StandardCharsets.ISO_8859_1).replace("\r", "\\r").replace("\n", "\\n");
            if (r.startsWith("OK ")) {
                outcomes.merge("ok", 1, Integer::sum);
                String expected = new String(HexFormat.of().parseHex(r.substring(3)), StandardCharsets.UTF_8);
                String norm = ours.normalized();
                int q = norm.lastIndexOf("x = '");
                String got = q < 0 ? "<no literal>" : norm.substring(q + 5, Math.max(q + 5, norm.lastIndexOf('\'')));
                if (!ours.problems().isEmpty() || !got.equals(expected)) {
                    mismatches.add(shown + " -> CPython " + expected + ", ours " + got + " " + ours.problems());
                }
            } else {
                outcomes.merge(r.startsWith("ERR ") ? r.substring(4).replaceAll("[0-9]+", "N").replaceAll("'.*' codec", "X codec") : r, 1, Integer::sum);
                if (ours.problems().isEmpty()) {
                    mismatches.add(shown + " -> CPython " + r + ", ours no problem (" + ours.encoding() + ")");
                }
            }
        }
        System.out.println("[decode-oracle] declarations: " + outcomes);
        assertTrue(outcomes.getOrDefault("ok", 0) > 1000, outcomes.toString());
        assertEquals(List.of(), mismatches.subList(0, Math.min(SHOWN, mismatches.size())),
                mismatches.size() + " of " + cases.size() + " disagree");
    }

    // ---- UTF-8 replacement ----

    static final String REPLACE_SCRIPT = """
            import sys
            for line in sys.stdin:
                print(bytes.fromhex(line.strip()).decode('utf-8', 'replace').encode('utf-8', 'surrogatepass').hex())
            """;

    @Test
    void utf8ReplacementAgreesWithBytesDecode() {
        Path python = python();
        Random rnd = new Random(8);
        int[] pool = {0x0A, 0x0D, 0x20, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
                      0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFE, 0xFF};
        List<byte[]> cases = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            byte[] b = new byte[1 + rnd.nextInt(30)];
            b[0] = 'x';
            for (int k = 1; k < b.length; k++) {
                b[k] = (byte) (rnd.nextInt(5) == 0 ? rnd.nextInt(256) : pool[rnd.nextInt(pool.length)]);
            }
            cases.add(b);
        }
        String input = cases.stream().map(c -> HexFormat.of().formatHex(c)).collect(Collectors.joining("\n", "", "\n"));
        List<String> results = runPython(python, REPLACE_SCRIPT, List.of(), input, 120);
        assertEquals(cases.size(), results.size());
        List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            String expected = new String(HexFormat.of().parseHex(results.get(i)), StandardCharsets.UTF_8);
            SourceText ours = SourceText.decode(cases.get(i));
            if (!ours.text().equals(expected)) {
                mismatches.add(HexFormat.of().formatHex(cases.get(i)));
            }
            boolean valid = isValidUtf8(cases.get(i));
            boolean hasNul = HexFormat.of().formatHex(cases.get(i)).matches("(..)*00.*");
            if (valid == (ours.problems().size() > (hasNul ? 1 : 0))) {
                mismatches.add("problems " + HexFormat.of().formatHex(cases.get(i)) + " " + ours.problems());
            }
        }
        assertEquals(List.of(), mismatches.subList(0, Math.min(SHOWN, mismatches.size())), mismatches.size() + " disagree");
    }

    static boolean isValidUtf8(byte[] b) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(b));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    // ---- the codec registry ----

    static final String LOOKUP_SCRIPT = """
            import codecs, sys
            for line in sys.stdin:
                name = line.rstrip('\\n')
                try:
                    ci = codecs.lookup(name)
                    print(ci.name + '\\t' + str(getattr(ci, '_is_text_encoding', True)))
                except LookupError:
                    print('-\\t-')
            """;

    @Test
    void codecLookupAgreesWithCPython() {
        Path python = python();
        List<String> names = new ArrayList<>();
        for (String n : PythonCodecs.registryNames()) {
            names.add(n);
            names.add(n.toUpperCase(java.util.Locale.ROOT));
            names.add(n.replace('_', '-'));
            names.add(n.replace("_", ""));
            names.add("-" + n + "-");
            names.add(n + ".");
            names.add(n.replace('_', '.'));
        }
        for (String n : NAMES) {
            names.add(n);
        }
        names.addAll(List.of("utf-8-sig", "UTF8_SIG", "x", "", "utf_8..", "l_1", "la tin", "ISO8859.1", "iso8859.1", "1", "x-mac-japanese"));
        String input = String.join("\n", names) + "\n";
        List<String> results = runPython(python, LOOKUP_SCRIPT, List.of(), input, 120);
        assertEquals(names.size(), results.size());
        List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String[] r = results.get(i).split("\t");
            PythonCodecs.Codec c = PythonCodecs.lookup(names.get(i));
            String ours = c == null ? "-\t-" : c.name() + "\t" + (c.kind() == PythonCodecs.Kind.NOT_TEXT ? "False" : "True");
            if (!ours.equals(r[0] + "\t" + r[1])) {
                mismatches.add("'" + names.get(i) + "': CPython " + results.get(i) + ", ours " + ours);
            }
        }
        assertEquals(List.of(), mismatches.subList(0, Math.min(SHOWN, mismatches.size())), mismatches.size() + " disagree");
    }

    static final String TABLE_SCRIPT = """
            import sys
            for line in sys.stdin:
                name = line.strip()
                out = []
                for i in range(256):
                    try:
                        s = bytes([i]).decode(name)
                        out.append('%04x' % ord(s) if len(s) == 1 else 'xxxx')
                    except UnicodeDecodeError:
                        out.append('fffe')
                print(''.join(out))
            """;

    @Test
    void singleByteTablesAgreeWithCPython() {
        Path python = python();
        List<String> names = new ArrayList<>(PythonCodecs.tableCodecNames());
        names.add("charmap");
        names.add("latin-1");
        List<String> results = runPython(python, TABLE_SCRIPT, List.of(), String.join("\n", names) + "\n", 120);
        assertEquals(names.size(), results.size());
        List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            char[] table = PythonCodecs.lookup(names.get(i)).table();
            StringBuilder ours = new StringBuilder();
            for (char ch : table) {
                ours.append(String.format("%04x", (int) ch));
            }
            if (!ours.toString().equals(results.get(i))) {
                mismatches.add(names.get(i));
            }
        }
        assertEquals(List.of(), mismatches);
    }

    /**
     * The multi-byte codecs come from the JDK (with two fix-ups), whose tables differ from CPython's in
     * a few code points. Over every character CPython round-trips, this counts the ones we decode to a
     * different character ("silent") or to U+FFFD ("rejected"), prints them, and fails when a count
     * exceeds the one measured with JDK 17 (so a change shows up; fewer is fine).
     */
    static final Map<String, int[]> KNOWN_DIFFERENCES = new LinkedHashMap<>();

    static {
        // codec -> {silent, rejected}, measured with OpenJDK 17.0.15 and CPython 3.13.0
        KNOWN_DIFFERENCES.put("big5", new int[] {1, 2});
        KNOWN_DIFFERENCES.put("big5hkscs", new int[] {1, 2});
        KNOWN_DIFFERENCES.put("cp932", new int[] {0, 0});
        KNOWN_DIFFERENCES.put("cp949", new int[] {0, 0});
        KNOWN_DIFFERENCES.put("cp950", new int[] {249, 0});
        KNOWN_DIFFERENCES.put("euc_jp", new int[] {0, 0});
        KNOWN_DIFFERENCES.put("euc_kr", new int[] {8822, 0}); // make-up sequences: CPython composes a syllable, the JDK gives 4 jamo
        KNOWN_DIFFERENCES.put("gb18030", new int[] {38, 0});
        KNOWN_DIFFERENCES.put("gb2312", new int[] {0, 0});
        KNOWN_DIFFERENCES.put("gbk", new int[] {1, 0});
        KNOWN_DIFFERENCES.put("iso2022_jp", new int[] {0, 0});
        KNOWN_DIFFERENCES.put("iso2022_jp_2", new int[] {0, 5653}); // the JDK lacks its Korean and G2 sets
        KNOWN_DIFFERENCES.put("iso2022_kr", new int[] {0, 0});
        KNOWN_DIFFERENCES.put("johab", new int[] {0, 0});
        KNOWN_DIFFERENCES.put("shift_jis", new int[] {0, 0});
    }

    static final String MULTIBYTE_SCRIPT = """
            import sys
            for line in sys.stdin:
                name = line.strip()
                out = []
                for cp in list(range(0x80, 0xD800)) + list(range(0xE000, 0x10000)) + list(range(0x20000, 0x20100)):
                    ch = chr(cp)
                    try:
                        b = ch.encode(name)
                        if b.decode(name) != ch:
                            continue
                    except (UnicodeError, LookupError):
                        continue
                    out.append('%x:%s' % (cp, b.hex()))
                print(' '.join(out))
            """;

    @Test
    void multiByteCodecsAgreeWithCPythonButForKnownCodePoints() {
        Path python = python();
        List<String> names = new ArrayList<>(KNOWN_DIFFERENCES.keySet());
        List<String> results = runPython(python, MULTIBYTE_SCRIPT, List.of(), String.join("\n", names) + "\n", 300);
        assertEquals(names.size(), results.size());
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            PythonCodecs.Codec codec = PythonCodecs.lookup(name);
            assertEquals(PythonCodecs.Kind.JAVA, codec.kind(), name);
            int total = 0;
            int silent = 0;
            int rejected = 0;
            List<String> examples = new ArrayList<>();
            for (String item : results.get(i).split(" ")) {
                if (item.isEmpty()) {
                    continue;
                }
                int colon = item.indexOf(':');
                int cp = Integer.parseInt(item.substring(0, colon), 16);
                String got = SourceDecoder.decodeWith(codec, HexFormat.of().parseHex(item.substring(colon + 1)));
                total++;
                if (!got.equals(Character.toString(cp))) {
                    if (got.indexOf('\uFFFD') >= 0) {
                        rejected++;
                    } else {
                        silent++;
                    }
                    if (examples.size() < 3) {
                        examples.add(String.format("%s->U+%04X (ours %s)", item.substring(colon + 1), cp,
                                got.codePoints().mapToObj(x -> String.format("U+%04X", x)).collect(Collectors.joining(","))));
                    }
                }
            }
            System.out.println("[decode-oracle] " + name + ": " + total + " characters, " + silent + " silently different, "
                    + rejected + " rejected " + examples);
            int[] known = KNOWN_DIFFERENCES.get(name);
            if (total < 1000 || silent > known[0] || rejected > known[1]) {
                failures.add(name + ": " + silent + " silent (known " + known[0] + "), " + rejected + " rejected (known "
                        + known[1] + ") of " + total + " " + examples);
            }
        }
        assertEquals(List.of(), failures);
        for (String unsupported : List.of("shift_jisx0213", "shift_jis_2004", "euc_jis_2004", "hz", "utf-7")) {
            assertEquals(PythonCodecs.Kind.UNSUPPORTED, PythonCodecs.lookup(unsupported).kind(), unsupported);
        }
    }

    // ---- running CPython ----

    static Path python() {
        if (Files.isExecutable(PYTHON)) return PYTHON;
        dev.graphmend.ir.oracle.OracleRequirements.notRun("decoding oracle (source decoding against CPython 3.13)",
                "CPython 3.13 is missing (" + PYTHON + ")", dev.graphmend.ir.oracle.OracleRequirements.HOW_PYENV);
        return null;
    }

    /** Runs a script with the given stdin, returns stdout's lines; fails on a non-zero exit or a timeout. */
    static List<String> runPython(Path python, String script, List<String> args, String stdin, int timeoutSeconds) {
        try {
            Path file = Files.createTempFile("gm-decode-oracle", ".py");
            Path err = Files.createTempFile("gm-decode-oracle", ".err");
            try {
                Files.writeString(file, script);
                List<String> cmd = new ArrayList<>(List.of(python.toString(), "-X", "utf8", "-I", file.toString()));
                cmd.addAll(args);
                Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
                Thread feeder = new Thread(() -> {
                    try (OutputStream os = p.getOutputStream()) {
                        os.write(stdin.getBytes(StandardCharsets.UTF_8));
                    } catch (IOException e) {
                        // the process died; its exit status tells
                    }
                });
                feeder.start();
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                Thread reader = new Thread(() -> {
                    try (InputStream is = p.getInputStream()) {
                        is.transferTo(out);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                reader.start();
                if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    fail("CPython oracle timed out after " + timeoutSeconds + " s");
                }
                reader.join();
                feeder.join();
                if (p.exitValue() != 0) {
                    String e = Files.readString(err);
                    fail("CPython oracle exited with " + p.exitValue() + ": " + e.substring(Math.max(0, e.length() - 3000)));
                }
                String text = out.toString(StandardCharsets.UTF_8);
                return text.isEmpty() ? List.of() : List.of(text.split("\n", -1)).subList(0, text.split("\n", -1).length - 1);
            } finally {
                Files.deleteIfExists(file);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
