package dev.graphmend.ir.parse;

import dev.graphmend.ir.ast.PyConstant;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;

/** Values of Python literals: numbers and the escape sequences of string and bytes literals. */
final class Literals {
    private Literals() {}

    /**
     * CPython's limit on the digits of a decimal integer it converts ({@code sys.int_info.default_max_str_digits}):
     * a longer decimal literal is a syntax error, since the conversion is quadratic.
     */
    static final int MAX_DECIMAL_DIGITS = 4300;

    /** A decimal integer literal longer than {@link #MAX_DECIMAL_DIGITS}: CPython's message. */
    record TooManyDigits(int digits) {
        String message() {
            return "Exceeds the limit (" + MAX_DECIMAL_DIGITS + " digits) for integer string conversion: value has "
                    + digits + " digits; use sys.set_int_max_str_digits() to increase the limit - Consider hexadecimal"
                    + " for huge integer literals to avoid decimal conversion limits.";
        }
    }

    /**
     * The value of a NUMBER token: BigInteger, Double or Complex; a {@link TooManyDigits} for a decimal
     * integer CPython refuses to convert; null if malformed. Linear in the token's length: hexadecimal,
     * octal and binary digits are packed into bits ({@code new BigInteger(s, 16)} is quadratic).
     */
    static Object number(String text) {
        String t = text.indexOf('_') >= 0 ? text.replace("_", "") : text;
        try {
            char last = t.charAt(t.length() - 1);
            if (last == 'j' || last == 'J') {
                return new PyConstant.Complex(0.0, Double.parseDouble(t.substring(0, t.length() - 1)));
            }
            if (t.length() > 1 && t.charAt(0) == '0') {
                char b = t.charAt(1);
                if (b == 'x' || b == 'X') return powerOfTwoRadix(t, 4);
                if (b == 'o' || b == 'O') return powerOfTwoRadix(t, 3);
                if (b == 'b' || b == 'B') return powerOfTwoRadix(t, 1);
            }
            for (int i = 0; i < t.length(); i++) {
                char c = t.charAt(i);
                if (c == '.' || c == 'e' || c == 'E') return Double.parseDouble(t);
            }
            int significant = t.length();
            for (int i = 0; i < t.length() - 1 && t.charAt(i) == '0'; i++) significant--;
            if (significant > MAX_DECIMAL_DIGITS) return new TooManyDigits(significant);
            return new BigInteger(t);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The digits after the 2-character prefix of {@code t}, each {@code bits} wide, as a non-negative BigInteger. */
    private static BigInteger powerOfTwoRadix(String t, int bits) {
        int digits = t.length() - 2;
        if (digits <= 0) throw new NumberFormatException("no digits");
        long totalBits = (long) digits * bits;
        byte[] magnitude = new byte[(int) ((totalBits + 7) / 8)];
        long bit = 0; // bit position from the least significant end
        for (int i = t.length() - 1; i >= 2; i--) {
            int d = Character.digit(t.charAt(i), 1 << bits);
            if (d < 0) throw new NumberFormatException("bad digit");
            for (int k = 0; k < bits; k++, bit++) {
                if ((d >>> k & 1) != 0) {
                    magnitude[magnitude.length - 1 - (int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
                }
            }
        }
        return new BigInteger(1, magnitude);
    }

    /** Length of a string token's prefix (letters before the quote). */
    static int prefixLength(String token) {
        int i = 0;
        while (i < token.length() && token.charAt(i) != '\'' && token.charAt(i) != '"') i++;
        return i;
    }

    static boolean hasPrefix(String token, int prefixLen, char lower) {
        for (int i = 0; i < prefixLen; i++) {
            if (Character.toLowerCase(token.charAt(i)) == lower) return true;
        }
        return false;
    }

    /** Receives escape problems (invalid \x, \N{...}, non-ASCII in bytes) as messages. */
    interface Problems {
        void report(String message);
    }

    /** Decodes the body of a str literal (escapes unless raw). */
    static String decodeStr(String body, boolean raw, Problems problems) {
        if (raw || body.indexOf('\\') < 0) return body;
        StringBuilder sb = new StringBuilder(body.length());
        int n = body.length();
        for (int i = 0; i < n; i++) {
            char c = body.charAt(i);
            if (c != '\\' || i + 1 >= n) {
                sb.append(c);
                continue;
            }
            char e = body.charAt(++i);
            switch (e) {
                case '\n' -> { }
                case '\\' -> sb.append('\\');
                case '\'' -> sb.append('\'');
                case '"' -> sb.append('"');
                case 'a' -> sb.append('\u0007');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'v' -> sb.append('\u000b');
                case 'x', 'u', 'U' -> {
                    int len = e == 'x' ? 2 : e == 'u' ? 4 : 8;
                    int cp = hex(body, i + 1, len);
                    if (cp < 0 || cp > 0x10FFFF) {
                        problems.report("(unicode error) 'unicodeescape' codec can't decode bytes: truncated \\"
                                + e + " escape");
                        sb.append('\\').append(e);
                    } else {
                        sb.appendCodePoint(cp);
                        i += len;
                    }
                }
                case 'N' -> {
                    int close = body.indexOf('}', i);
                    if (i + 1 < n && body.charAt(i + 1) == '{' && close > 0) {
                        String name = body.substring(i + 2, close);
                        int cp = -1;
                        try {
                            cp = Character.codePointOf(name);
                        } catch (IllegalArgumentException ex) {
                            cp = -1;
                        }
                        if (cp < 0) {
                            problems.report("(unicode error) 'unicodeescape' codec can't decode bytes: unknown Unicode character name");
                        } else {
                            sb.appendCodePoint(cp);
                        }
                        i = close;
                    } else {
                        problems.report("(unicode error) 'unicodeescape' codec can't decode bytes: malformed \\N character escape");
                        sb.append('\\').append(e);
                    }
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        int v = e - '0';
                        int k = 1;
                        while (k < 3 && i + 1 < n && body.charAt(i + 1) >= '0' && body.charAt(i + 1) <= '7') {
                            v = v * 8 + (body.charAt(++i) - '0');
                            k++;
                        }
                        sb.appendCodePoint(v);
                    } else {
                        // an unknown escape keeps its backslash (a SyntaxWarning, not an error)
                        sb.append('\\').append(e);
                    }
                }
            }
        }
        return sb.toString();
    }

    /** Decodes the body of a bytes literal; non-ASCII characters are an error. */
    static byte[] decodeBytes(String body, boolean raw, Problems problems) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length());
        int n = body.length();
        for (int i = 0; i < n; i++) {
            char c = body.charAt(i);
            if (c > 0x7f) {
                problems.report("bytes can only contain ASCII literal characters");
                return out.toByteArray();
            }
            if (raw || c != '\\' || i + 1 >= n) {
                out.write(c);
                continue;
            }
            char e = body.charAt(++i);
            switch (e) {
                case '\n' -> { }
                case '\\' -> out.write('\\');
                case '\'' -> out.write('\'');
                case '"' -> out.write('"');
                case 'a' -> out.write(7);
                case 'b' -> out.write(8);
                case 'f' -> out.write(12);
                case 'n' -> out.write('\n');
                case 'r' -> out.write('\r');
                case 't' -> out.write('\t');
                case 'v' -> out.write(11);
                case 'x' -> {
                    int v = hex(body, i + 1, 2);
                    if (v < 0) {
                        problems.report("(value error) invalid \\x escape at position " + (i - 1));
                        out.write('\\');
                        out.write(e);
                    } else {
                        out.write(v);
                        i += 2;
                    }
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        int v = e - '0';
                        int k = 1;
                        while (k < 3 && i + 1 < n && body.charAt(i + 1) >= '0' && body.charAt(i + 1) <= '7') {
                            v = v * 8 + (body.charAt(++i) - '0');
                            k++;
                        }
                        out.write(v & 0xff);
                    } else {
                        out.write('\\');
                        if (e > 0x7f) {
                            problems.report("bytes can only contain ASCII literal characters");
                            return out.toByteArray();
                        }
                        out.write(e);
                    }
                }
            }
        }
        return out.toByteArray();
    }

    private static int hex(String s, int from, int len) {
        if (from + len > s.length()) return -1;
        int v = 0;
        for (int i = from; i < from + len; i++) {
            int d = Character.digit(s.charAt(i), 16);
            if (d < 0) return -1;
            v = v * 16 + d;
            if (v > 0x10FFFF && len == 8) return -1;
        }
        return v;
    }
}
