package dev.graphmend.ir.grammar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@link PythonLexerBase#longestNumberPrefix} against the regular expression of Python's number literals. */
class NumberPrefixTest {
    private static final Pattern VALID_NUMBER = Pattern.compile(
            "0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+"
            + "|(?:(?:(?:[0-9](?:_?[0-9])*)?\\.[0-9](?:_?[0-9])*|[0-9](?:_?[0-9])*\\.)(?:[eE][0-9](?:_?[0-9])*)?"
            + "|[0-9](?:_?[0-9])*[eE][0-9](?:_?[0-9])*|[0-9](?:_?[0-9])*)[jJ]?");

    private static int byPattern(String t) {
        for (int p = t.length(); p >= 1; p--) {
            if (VALID_NUMBER.matcher(t.substring(0, p)).matches()) return p;
        }
        return 0;
    }

    @Test
    void theScanFindsWhatThePatternFinds() {
        String alphabet = "0123456789_.eEjJxXoObBafAF8gi";
        Random random = new Random(40);
        for (int k = 0; k < 200_000; k++) {
            int n = 1 + random.nextInt(9);
            StringBuilder sb = new StringBuilder(n);
            for (int i = 0; i < n; i++) sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            String t = sb.toString();
            assertEquals(byPattern(t), PythonLexerBase.longestNumberPrefix(t), t);
        }
        for (String t : new String[] {"1if", "0xfor", "1else", "1.e5j", ".5x", "1_000in", "0x_f_", "1e", "1.", "0b102", "\u0661"}) {
            assertEquals(byPattern(t), PythonLexerBase.longestNumberPrefix(t), t);
        }
    }

    @Test
    void aLongDamagedLiteral() {
        // (its time is bench/deep-inputs.sh's; the pattern on every prefix took over a minute)
        assertEquals(100_002, PythonLexerBase.longestNumberPrefix("0x" + "f".repeat(100_000) + "g" + "f".repeat(100_000)));
    }
}
