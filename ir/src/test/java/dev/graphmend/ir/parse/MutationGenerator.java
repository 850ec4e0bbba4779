package dev.graphmend.ir.parse;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.TreeSet;

/** Makes one mutation of a file from (kind, seed) alone, so any input can be rebuilt from its report line. */
final class MutationGenerator {
    private MutationGenerator() {}

    /** Tokens that INSERT_TOKEN inserts (no quotes and no backslashes: see the containment rules). */
    static final String[] TOKENS = {
        // keywords
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
        "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
        "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
        // soft keywords
        "match", "case", "type", "_",
        // operators and delimiters
        "+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^", "~", ":=", "<", ">", "<=",
        ">=", "==", "!=", "->", ".", "...", ";", "+=", "-=", "*=", "/=", "//=", "%=", "**=", ">>=",
        "<<=", "&=", "^=", "|=", "@=", "!", ":", ",", "=",
        "(", ")", "[", "]", "{", "}",
        // names, numbers and characters that are never valid
        "foo", "self", "x1", "_private", "__init__", "print", "λ",
        "0", "1", "42", "3.14", "0x1F", "1e10", "1_000", "1j", "0o17", "0b101", "07", "1__0", "1.", ".5",
        "$", "?", "`",
    };

    static Mutation generate(byte[] src, MutationLex lex, MutationKind kind, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = src.length;
        switch (kind) {
            case TRUNCATE: {
                int cut = n == 0 ? 0 : r.nextInt(n);
                return new Mutation(kind, seed, cut, n, new byte[0],
                        "truncate at byte " + cut + " (line " + lex.lineOf(cut) + ")");
            }
            case DELETE_LINES: {
                int lines = contentLines(lex);
                int first = 1 + r.nextInt(Math.max(1, lines));
                int count = 1 + r.nextInt(3);
                int last = Math.min(lines, first + count - 1);
                int a = lex.lineStart(first), b = lex.lineStart(last + 1);
                return new Mutation(kind, seed, a, Math.max(a, b), new byte[0],
                        "delete lines " + first + "-" + last);
            }
            case FLIP_BYTES: {
                if (n == 0) return insert(kind, seed, 0, "x", lex);
                int flips = 1 + r.nextInt(3);
                TreeSet<Integer> at = new TreeSet<>();
                int p0 = r.nextInt(n);
                at.add(p0);
                while (at.size() < Math.min(flips, n)) {
                    at.add(Math.max(0, Math.min(n - 1, p0 + r.nextInt(65) - 32)));
                }
                int a = at.first(), b = at.last() + 1;
                byte[] rep = new byte[b - a];
                System.arraycopy(src, a, rep, 0, rep.length);
                StringBuilder d = new StringBuilder("flip");
                for (int p : at) {
                    int old = src[p] & 0xFF;
                    int v = (old + 1 + r.nextInt(255)) & 0xFF;
                    rep[p - a] = (byte) v;
                    d.append(String.format(" @%d(line %d) 0x%02x->0x%02x", p, lex.lineOf(p), old, v));
                }
                return new Mutation(kind, seed, a, b, rep, d.toString());
            }
            case DELETE_CLOSER: {
                int p = -1;
                if (!lex.codeClosers.isEmpty()) {
                    p = lex.codeClosers.get(r.nextInt(lex.codeClosers.size()));
                } else {
                    for (int i = 0, seen = 0; i < n; i++) {
                        if (src[i] == ')' || src[i] == ']' || src[i] == '}') {
                            if (r.nextInt(++seen) == 0) p = i; // reservoir sampling
                        }
                    }
                }
                if (p < 0) return insert(kind, seed, r.nextInt(n + 1), ")", lex); // no bracket at all
                return new Mutation(kind, seed, p, p + 1, new byte[0],
                        "delete '" + (char) src[p] + "' at byte " + p + " (line " + lex.lineOf(p) + ")");
            }
            case INSERT_TOKEN: {
                int p = r.nextInt(n + 1);
                // a position between characters: not inside a UTF-8 sequence, not inside a \r\n
                while (p > 0 && p < n && ((src[p] & 0xC0) == 0x80 || (src[p] == '\n' && src[p - 1] == '\r'))) p--;
                String tok = TOKENS[r.nextInt(TOKENS.length)];
                switch (r.nextInt(4)) {
                    case 1: tok = " " + tok; break;
                    case 2: tok = tok + " "; break;
                    case 3: tok = " " + tok + " "; break;
                    default: break;
                }
                return insert(kind, seed, p, tok, lex);
            }
            default:
                throw new AssertionError(kind);
        }
    }

    private static Mutation insert(MutationKind kind, long seed, int p, String tok, MutationLex lex) {
        return new Mutation(kind, seed, p, p, tok.getBytes(StandardCharsets.UTF_8),
                "insert '" + tok + "' at byte " + p + " (line " + lex.lineOf(p) + ")");
    }

    /** Lines that hold bytes (a final line break does not start another line here). */
    private static int contentLines(MutationLex lex) {
        int lines = lex.lineCount();
        if (lines > 1 && lex.lineStart(lines) == lex.src.length) lines--;
        return lines;
    }

    /** A 64-bit mix (SplitMix64's finaliser), to derive per-input seeds. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
