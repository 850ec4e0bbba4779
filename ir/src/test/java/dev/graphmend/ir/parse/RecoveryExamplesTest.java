package dev.graphmend.ir.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.dump.GmAstDump;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Error recovery, one readable example at a time. Each input is written out in full; a trailing
 * {@code # <-} comment marks the line of the damage, where CPython reports its error: our first
 * error must be on that line and none may come before it. {@code fixLine} gives the line the user
 * meant, and {@code sameAs} then checks that the named neighbours parse exactly as in that intended
 * file (same gm-ast-v1 dump) and that no error is reported inside them. Follow-on errors between
 * the damage and the next intact neighbour are allowed. CPython's own report is noted next to each
 * input.
 */
class RecoveryExamplesTest {

    @Test
    void halfTypedSelfDot_leavesSiblingMethodsIdentical() {
        // CPython: 6:16 invalid syntax
        expect("""
                class Account:
                    def deposit(self, amount):
                        self.balance += amount

                    def withdraw(self, amount):
                        self.  # <-
                        return amount

                    def close(self):
                        return self.balance
                """)
            .firstErrorOnMarkedLine()
            .defines("Account.deposit", "Account.withdraw", "Account.close")
            .fixLine(6, "        self.balance -= amount")
            .sameAs("Account.deposit", "Account.close");
    }

    @Test
    void missingColonAfterDef_leavesTheNextFunctionIdentical() {
        // CPython: 1:13 expected ':'
        expect("""
                def first(x)  # <-
                    return x + 1


                def second(y):
                    return y * 2
                """)
            .firstErrorOnMarkedLine()
            .defines("second")
            .fixLine(1, "def first(x):")
            .sameAs("second");
    }

    @Test
    void missingColonAfterDef_keepsTheFunctionBeingTyped() {
        // A single missing token: the function should stay in the tree (for the outline, for
        // go-to-definition), as ANTLR's single-token insertion would keep it.
        expect("""
                def first(x)  # <-
                    return x + 1
                """)
            .firstErrorOnMarkedLine()
            .defines("first");
    }

    @Test
    void unclosedParenInMethod_endsAtTheNextMethod() {
        // CPython: 6:19 '(' was never closed
        expect("""
                class Shop:
                    def count(self, items):
                        return len(items)

                    def total(self, items):
                        return sum(item.price for item in items  # <-

                    def tax(self, amount):
                        return amount * 0.2
                """)
            .firstErrorOnMarkedLine()
            .defines("Shop.count", "Shop.total", "Shop.tax")
            .fixLine(6, "        return sum(item.price for item in items)")
            .sameAs("Shop.count", "Shop.tax");
    }

    @Test
    void unclosedParen_isOneErrorNotTwo() {
        // CPython reports the bracket alone; the statement that then ends without its ')' is no
        // second error, whether a blank line follows or the next method at once
        for (String gap : List.of("\n", "")) {
            String text = "class Block:\n    def forward(self, x):\n        return self.proj(x\n" + gap
                    + "    def extra(self, x):\n        return x\n";
            List<SyntaxError> errors = new PythonSourceParser().parse(text).errors();
            assertEquals(1, errors.size(), () -> "errors: " + errors);
            assertEquals(3, errors.get(0).line());
            assertEquals("'(' was never closed", errors.get(0).message());
        }
        // an error at another token after the bracket is kept: CPython's own is there
        List<SyntaxError> errors = new PythonSourceParser().parse("def h(:\n    pass\n").errors();
        assertTrue(errors.stream().anyMatch(e -> e.message().equals("invalid syntax at ':'")), () -> "errors: " + errors);
    }

    @Test
    void unclosedBracketInTopLevelFunction_endsAtTheNextClass() {
        // CPython: 2:12 '[' was never closed
        expect("""
                def names(people):
                    return [p.name for p in people  # <-


                class Person:
                    def __init__(self, name):
                        self.name = name

                    def greet(self):
                        return "hi " + self.name
                """)
            .firstErrorOnMarkedLine()
            .defines("names", "Person", "Person.__init__", "Person.greet")
            .fixLine(2, "    return [p.name for p in people]")
            .sameAs("Person", "Person.__init__", "Person.greet");
    }

    @Test
    void unclosedParenThenAsyncDef_endsAtTheAsyncDef() {
        // CPython: 2:13 '(' was never closed. Found by MutationRobustnessTest (asyncio tests).
        expect("""
                def f():
                    return g(1  # <-

                async def h():
                    return 2
                """)
            .firstErrorOnMarkedLine()
            .defines("f", "h")
            .fixLine(2, "    return g(1)")
            .sameAs("h");
    }

    @Test
    void unclosedParenThenDecoratedOneLiners_keepsThemAll() {
        // CPython: 3:22 '(' was never closed. Found by MutationRobustnessTest (_pyrepl/console.py).
        expect("""
                class Console:
                    def __init__(self):
                        self.fd = int(0  # <-

                    @abstractmethod
                    def refresh(self): ...

                    @abstractmethod
                    def prepare(self): ...
                """)
            .firstErrorOnMarkedLine()
            .defines("Console.__init__", "Console.refresh", "Console.prepare")
            .fixLine(3, "        self.fd = int(0)")
            .sameAs("Console.refresh", "Console.prepare");
    }

    @Test
    void unclosedParenThenIfBlockAtTopLevel_keepsTheBlocksFunctions() {
        // CPython: 2:13 '(' was never closed. Found by MutationRobustnessTest (multiprocessing/reduction.py,
        // http/server.py, webbrowser.py: platform-dependent definitions under a top-level if).
        expect("""
                def f():
                    return g(1  # <-

                if sys.platform == "win32":
                    def h():
                        return 2
                """)
            .firstErrorOnMarkedLine()
            .defines("f", "h")
            .fixLine(2, "    return g(1)")
            .sameAs("h");
    }

    @Test
    void keywordAtAnUnmatchedIndentInsideBrackets_staysInsideItsMethod() {
        // CPython: 8:4 invalid syntax (inside the list, the keyword is just a bad token). Found by
        // MutationRobustnessTest (an inserted token at the start of a continuation line).
        expect("""
                class C:
                    def a(self):
                        return 1

                    def b(self):
                        x = [
                            1,
                   except   2,  # <-
                        ]
                        return x

                    def c(self):
                        return 3
                """)
            .firstErrorOnMarkedLine()
            .defines("C", "C.a", "C.b", "C.c")
            .fixLine(8, "            2,")
            .sameAs("C.a", "C.c");
    }

    @Test
    void badDedent_staysInsideItsMethod() {
        // CPython: 5:22 unindent does not match any outer indentation level
        expect("""
                class Config:
                    def load(self, path):
                        with open(path) as f:
                            data = f.read()
                          return data  # <-

                    def save(self, path, data):
                        with open(path, "w") as f:
                            f.write(data)
                """)
            .firstErrorOnMarkedLine()
            .defines("Config.load", "Config.save")
            .fixLine(5, "        return data")
            .sameAs("Config.save");
    }

    @Test
    void garbageBytesInsideFunction_leaveTheOthersAlone() {
        // Bytes FF FE 01 (not UTF-8) and C3 with no continuation. CPython: 5:5 (unicode error) 'utf-8' codec
        // can't decode byte 0xff (it rejects the whole file). We report line 5 and parse the rest.
        expect(latin1("""
                def a():
                    return 1

                def b():
                    \u00ff\u00fe\u0001@@ $? \u00c3(  # <-
                    return 2

                def c():
                    return 3
                """))
            .firstErrorOnMarkedLine()
            .defines("a", "b", "c")
            .fixLine(5, "    pass")
            .sameAs("a", "c");
    }

    @Test
    void nulByteInsideFunction_isReportedOnItsLine() {
        // CPython: "source code string cannot contain null bytes", with no line at all.
        expect("""
                def a():
                    return 1

                def b():
                    x = 1\0002  # <-
                    return x

                def c():
                    return 3
                """)
            .firstErrorOnMarkedLine()
            .defines("a", "b", "c")
            .fixLine(5, "    x = 12")
            .sameAs("a", "c");
    }

    @Test
    void randomBytes_neverThrowAndReportErrorsInsideTheFile() {
        byte[] bytes = new byte[4096];
        new Random(20261129L).nextBytes(bytes);
        ParseResult r = new PythonSourceParser().parse(bytes);
        assertNotNull(r.module());
        assertFalse(r.errors().isEmpty(), "random bytes parsed without errors");
        int lines = new MutationLex(bytes).lineCount();
        for (SyntaxError e : r.errors()) {
            assertTrue(e.line() >= 1 && e.line() <= lines + 1, "error outside the file's " + lines + " lines: " + e);
        }
        assertInSourceOrder(r.errors());
    }

    @Test
    void fiveHundredBrokenLines_eachReportedThereAndTheLastFunctionIntact() {
        StringBuilder broken = new StringBuilder(), fixed = new StringBuilder();
        for (int i = 1; i <= 500; i++) {
            broken.append("value_").append(i).append(" = = ").append(i).append('\n'); // CPython: i:11 invalid syntax
            fixed.append("value_").append(i).append(" = ").append(i).append('\n');
        }
        String tail = "\n\ndef last(x):\n    return [x, x + 1]\n";
        Case c = expect(broken + tail);
        assertFalse(c.result.errors().isEmpty(), "no errors reported");
        assertInSourceOrder(c.result.errors());
        for (SyntaxError e : c.result.errors()) assertTrue(e.line() >= 1 && e.line() <= 500, "error off the broken lines: " + e);
        assertTrue(c.result.errors().size() <= 1000, "errors cascade: " + c.result.errors().size() + " for 500 broken lines");
        c.defines("last").fixedAs(fixed + tail).sameAs("last");
    }

    @Test
    void emptyFile_isAnEmptyModule() {
        expect("").noErrors().statementLines();
    }

    @Test
    void onlyAByteOrderMark_isAnEmptyModule() {
        // CPython (from bytes): Module(body=[])
        expect(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}).noErrors().statementLines();
    }

    @Test
    void loneCarriageReturn_isAnEmptyModule() {
        expect("\r").noErrors().statementLines();
    }

    @Test
    void carriageReturnsAloneEndLines() {
        // CPython: Assign at 1:0-1:5 and Assign at 2:0-2:5
        expect("x = 1\ry = 2\r").noErrors().statementLines(1, 2);
    }

    // --- the helper ------------------------------------------------------------------------------

    private static Case expect(String text) {
        return new Case(text.getBytes(StandardCharsets.UTF_8));
    }

    private static Case expect(byte[] bytes) {
        return new Case(bytes);
    }

    /** The text with each char taken as one byte (so \u00ff is the byte FF, invalid UTF-8). */
    private static byte[] latin1(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static void assertInSourceOrder(List<SyntaxError> errors) {
        for (int i = 1; i < errors.size(); i++) {
            SyntaxError a = errors.get(i - 1), b = errors.get(i);
            assertTrue(a.line() < b.line() || (a.line() == b.line() && a.column() <= b.column()),
                    "errors out of source order: " + a + " then " + b);
        }
    }

    private static final class Case {
        final byte[] bytes;
        final ParseResult result;
        final MutationFunctions defs;
        byte[] intended;

        Case(byte[] bytes) {
            this.bytes = bytes;
            this.result = new PythonSourceParser().parse(bytes);
            assertNotNull(result, "parse returned null");
            assertNotNull(result.module(), "parse returned no module");
            for (SyntaxError e : result.errors()) {
                assertFalse(MutationRobustnessTest.isSwallowedException(e), "the parser failed internally: " + e);
            }
            this.defs = new MutationFunctions(result.module(), null);
        }

        String errors() {
            return result.errors().stream().map(SyntaxError::toString).collect(Collectors.joining("; "));
        }

        /** Errors are reported, the first one on the line that ends with a "# <-" comment. */
        Case firstErrorOnMarkedLine() {
            MutationLex lex = new MutationLex(bytes);
            TreeSet<Integer> marked = new TreeSet<>();
            for (int line = 1; line <= lex.lineCount(); line++) {
                String text = new String(bytes, lex.lineStart(line), lex.lineContentEnd(line) - lex.lineStart(line),
                        StandardCharsets.ISO_8859_1);
                if (text.contains("# <-")) marked.add(line);
            }
            assertEquals(1, marked.size(), "mark exactly one line with # <-");
            assertFalse(result.errors().isEmpty(), "no errors reported; expected one on line " + marked.first());
            assertInSourceOrder(result.errors());
            assertEquals(marked.first(), result.errors().get(0).line(), () -> "line of the first error; errors: " + errors());
            return this;
        }

        Case noErrors() {
            assertEquals(List.of(), result.errors(), "errors on a valid file");
            return this;
        }

        /** The module's top-level statements start on exactly these lines. */
        Case statementLines(int... lines) {
            List<Integer> actual = new ArrayList<>();
            for (Stmt s : result.module().body()) actual.add(s.span() == null ? -1 : s.span().line());
            assertEquals(Arrays.stream(lines).boxed().toList(), actual, () -> GmAstDump.dump(result.module()));
            return this;
        }

        /** These classes/functions (qualified paths, e.g. "C.m") exist in the damaged file's tree. */
        Case defines(String... paths) {
            for (String p : paths) {
                assertNotNull(defs.byKey.get(key(p)), "no " + p + " in the damaged file's tree; it has " + defs.byKey.keySet()
                        + "\n" + GmAstDump.dump(result.module()));
            }
            return this;
        }

        /** The intended file: the damaged one with line {@code line} replaced. */
        Case fixLine(int line, String replacement) {
            MutationLex lex = new MutationLex(bytes);
            int a = lex.lineStart(line), b = lex.lineContentEnd(line);
            byte[] rep = replacement.getBytes(StandardCharsets.UTF_8);
            byte[] out = new byte[bytes.length - (b - a) + rep.length];
            System.arraycopy(bytes, 0, out, 0, a);
            System.arraycopy(rep, 0, out, a, rep.length);
            System.arraycopy(bytes, b, out, a + rep.length, bytes.length - b);
            return fixedAs(out);
        }

        Case fixedAs(String text) {
            return fixedAs(text.getBytes(StandardCharsets.UTF_8));
        }

        Case fixedAs(byte[] text) {
            this.intended = text;
            return this;
        }

        /** The named classes/functions have the same gm-ast-v1 dump as in the intended file. */
        void sameAs(String... paths) {
            if (intended == null) fail("no intended file: call fixLine or fixedAs first");
            ParseResult good = new PythonSourceParser().parse(intended);
            assertEquals(List.of(), good.errors(), "the intended file must parse cleanly");
            MutationFunctions goodDefs = new MutationFunctions(good.module(), null);
            for (String p : paths) {
                MutationFunctions.Def want = goodDefs.byKey.get(key(p)), got = defs.byKey.get(key(p));
                assertNotNull(want, "no " + p + " in the intended file");
                assertNotNull(got, "no " + p + " in the damaged file's tree");
                assertEquals(dump(want.node()), dump(got.node()), p + " changed; errors: " + errors());
                for (SyntaxError e : result.errors()) {
                    assertFalse(e.line() >= got.extentStart() && e.line() <= got.endLine(),
                            "error inside the intact " + p + " (lines " + got.extentStart() + "-" + got.endLine() + "): " + e);
                }
            }
        }

        private static String key(String path) {
            return path.contains("#") ? path : path + "#0";
        }

        private static String dump(Node n) {
            return GmAstDump.dump(n);
        }
    }
}
