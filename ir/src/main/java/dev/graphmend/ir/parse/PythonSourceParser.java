package dev.graphmend.ir.parse;

import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.grammar.PythonLexer;
import dev.graphmend.ir.grammar.PythonLexerBase;
import dev.graphmend.ir.grammar.PythonParser;
import dev.graphmend.ir.source.DecodeProblem;
import dev.graphmend.ir.source.SourceText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.ParserATNSimulator;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;

/**
 * Parses Python source into a CPython-shaped AST. Never throws: any bytes in, a module plus
 * syntax errors out. One instance reuses its lexer and parser (ANTLR's DFA cache is shared by
 * all instances); it is not thread-safe, so use one per thread.
 *
 * <p>Stage one parses the whole file with SLL prediction and a bail-out strategy (fast, and
 * enough for almost every valid file); stage two retries with full LL. If that fails too, the
 * file has errors and {@link StatementRecovery} parses it statement by statement, so an error
 * inside one function leaves every other statement's tree exactly as it would be without it.
 */
public final class PythonSourceParser {
    /** What the lexer reads between parses (its own: a stream has a position, so none is shared between threads). */
    private final CharStream noChars = CharStreams.fromString("");
    private final PythonLexer lexer = new PythonLexer(noChars);
    private final PythonParser parser = new PythonParser(new CommonTokenStream(lexer));
    private final ForgetfulPrediction prediction;

    public PythonSourceParser() {
        lexer.removeErrorListeners();
        parser.removeErrorListeners();
        ParserATNSimulator shared = parser.getInterpreter();
        prediction = new ForgetfulPrediction(parser, shared);
        parser.setInterpreter(prediction);
    }

    /**
     * ANTLR's prediction keeps the token stream and the rule context of its last decision (whose
     * parents lead to the root of the parse tree) until the next one; on a parser kept for reuse
     * (one per thread) that held the last file's whole parse tree and tokens: 12 MB after the
     * 5,300-line dense file was opened, alive while edits were parsed on another thread, and copied by
     * every young collection until it was promoted. The DFA cache it shares is kept.
     */
    private static final class ForgetfulPrediction extends ParserATNSimulator {
        ForgetfulPrediction(PythonParser parser, ParserATNSimulator shared) {
            super(parser, parser.getATN(), shared.decisionToDFA, shared.getSharedContextCache());
        }

        void forget() {
            _input = null;
            _outerContext = null;
        }
    }

    /** Drops every reference to the text just parsed: the lexer's input, the parser's tokens, the prediction's context. */
    private void forgetInput() {
        lexer.setInputStream(noChars);
        parser.setTokenStream(new CommonTokenStream(lexer));
        prediction.forget();
    }

    private List<Integer> lastRecoverySensitiveLines = List.of();

    /**
     * For the incremental document model: lines of the last parsed text where a file with an
     * error elsewhere would be tokenized differently (see PythonLexerBase).
     */
    public List<Integer> lastRecoverySensitiveLines() {
        return lastRecoverySensitiveLines;
    }

    public ParseResult parse(byte[] bytes) {
        SourceText source;
        try {
            source = SourceText.decode(bytes);
        } catch (RuntimeException e) {
            source = SourceText.of("");
        }
        return parse(source);
    }

    public ParseResult parse(String text) {
        return parse(SourceText.of(text));
    }

    public ParseResult parse(SourceText source) {
        List<SyntaxError> errors = new ArrayList<>();
        Module module;
        try {
            module = parseModule(source, errors);
        } catch (StackOverflowError e) {
            // not expected: the nesting limits bound the recursion for a thread made by DeepStack
            errors.add(new SyntaxError(1, 1, "internal parser error: the parser ran out of stack (a thread not made by DeepStack?)"));
            module = new Module(List.of(), List.of());
        } catch (RuntimeException e) {
            // a bug of ours must not take the caller down: report it as an error on the file
            errors.add(new SyntaxError(1, 1, "internal parser error: " + e));
            module = new Module(List.of(), List.of());
        } finally {
            forgetInput();
        }
        // first, so that at one position CPython's reason (a NUL byte) stands before the parser's
        List<SyntaxError> decoding = new ArrayList<>();
        for (DecodeProblem p : CompileProblems.of(source)) {
            decoding.add(new SyntaxError(p.line(), p.column(), p.message()));
        }
        errors.addAll(0, decoding);
        errors.sort(Comparator.comparingInt(SyntaxError::line).thenComparingInt(SyntaxError::column));
        return new ParseResult(source, module, dedupe(errors));
    }

    private static List<SyntaxError> dedupe(List<SyntaxError> errors) {
        List<SyntaxError> out = new ArrayList<>(errors.size());
        for (SyntaxError e : errors) {
            if (out.isEmpty() || !out.get(out.size() - 1).equals(e)) out.add(e);
        }
        return out;
    }

    private Module parseModule(SourceText source, List<SyntaxError> errors) {
        CharStream chars = CharStreams.fromString(source.normalized());
        lexer.setRecoveryMode(false);
        lexer.setInputStream(chars);
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        List<PythonLexerBase.LexError> lexErrors = withNestingLimits(lexer.getLexErrors(), tokens);
        lastRecoverySensitiveLines = List.copyOf(lexer.getRecoverySensitiveLines());
        PythonParser.File_inputContext tree = parseFile(tokens);
        if (tree != null) {
            addLexErrors(lexErrors, errors);
            AstBuilder builder = new AstBuilder(source.lines(), chars, errors);
            return new Module(builder.fileInput(tree), List.of());
        }
        // The file has syntax errors: lex again in recovery mode and parse statement by statement
        // (the same tokens when no line lexes differently there).
        CommonTokenStream recoveryTokens = tokens;
        List<PythonLexerBase.LexError> recoveryLexErrors = lexErrors;
        if (!lastRecoverySensitiveLines.isEmpty()) {
            lexer.setRecoveryMode(true);
            chars.seek(0); // setInputStream does not rewind a stream the first pass consumed
            lexer.setInputStream(chars);
            recoveryTokens = new CommonTokenStream(lexer);
            recoveryTokens.fill();
            recoveryLexErrors = withNestingLimits(lexer.getLexErrors(), recoveryTokens);
        }
        addLexErrors(recoveryLexErrors, errors);
        int before = errors.size();
        StatementRecovery recovery = new StatementRecovery(parser, source.lines(), chars, errors);
        List<Stmt> body = recovery.recover(recoveryTokens.getTokens());
        if (errors.size() == before) {
            // every piece parsed on its own, yet the whole did not: report where the whole failed
            errors.add(firstErrorOf(tokens));
        }
        dropConsequences(recoveryLexErrors, errors, before);
        return new Module(body, List.of());
    }

    /**
     * Removes the parser errors (those from index {@code from}) that an unclosed bracket explains:
     * the statement ending (at the end of a line or of the file) after the bracket, up to the line
     * where the lexer ended its run. CPython reports the bracket alone; a second error at the end of
     * {@code f(x} would only be noise. Errors at other tokens are kept ({@code def h(:}).
     */
    private static void dropConsequences(List<PythonLexerBase.LexError> lexErrors, List<SyntaxError> errors, int from) {
        List<SyntaxError> parserErrors = errors.subList(from, errors.size());
        parserErrors.removeIf(e -> lexErrors.stream().anyMatch(l -> explains(l, e)));
    }

    private static boolean explains(PythonLexerBase.LexError l, SyntaxError e) {
        if (l.swallowsFromLine() > 0) return e.line() >= l.swallowsFromLine() && e.line() <= l.coversUntilLine();
        return (e.message().equals(AT_END_OF_LINE) || e.message().equals(AT_END_OF_FILE))
                && after(e, l) && e.line() <= l.coversUntilLine();
    }

    /**
     * The lexer's errors and those of the nesting limits ({@link NestingLimits}), which hide from
     * the parser what is past them: checked on every token list before it is parsed.
     */
    private static List<PythonLexerBase.LexError> withNestingLimits(List<PythonLexerBase.LexError> lexErrors,
                                                                   CommonTokenStream tokens) {
        List<PythonLexerBase.LexError> limits = NestingLimits.apply(tokens.getTokens());
        if (limits.isEmpty()) return List.copyOf(lexErrors);
        List<PythonLexerBase.LexError> all = new ArrayList<>(lexErrors);
        all.addAll(limits);
        return List.copyOf(all);
    }

    private static boolean after(SyntaxError e, PythonLexerBase.LexError l) {
        return e.line() > l.line() || (e.line() == l.line() && e.column() > l.column() + 1);
    }

    private static void addLexErrors(List<PythonLexerBase.LexError> lexErrors, List<SyntaxError> errors) {
        for (PythonLexerBase.LexError e : lexErrors) {
            errors.add(new SyntaxError(e.line(), e.column() + 1, e.message()));
        }
    }

    /** The statements of a fragment of a file and its syntax errors, positioned as in the file. */
    public record Fragment(List<Stmt> body, List<SyntaxError> errors, List<Integer> recoverySensitiveLines) {}

    /**
     * Parses a fragment of a file: whole statements at indentation {@code baseIndent}, whose first
     * line is line {@code firstLine} of the file; positions are the file's. A fragment with errors
     * is recovered as a whole file is. Returns null unless the fragment is self-contained (it does
     * not end inside a bracket or string, no line leaves its indentation), for only then does it
     * give, inside the file, the tree and errors it gives alone.
     *
     * @param normalizedText the fragment's text with LF line endings, ending with a newline
     */
    public Fragment parseFragment(String normalizedText, int firstLine, int baseIndent) {
        try {
            CharStream chars = CharStreams.fromString(normalizedText);
            CommonTokenStream tokens = lexFragment(chars, firstLine, baseIndent, false);
            boolean selfContained = lexer.endedSelfContained();
            List<Integer> sensitive = List.copyOf(lexer.getRecoverySensitiveLines());
            List<SyntaxError> errors = new ArrayList<>();
            dev.graphmend.ir.source.LineIndex lines = new dev.graphmend.ir.source.LineIndex(normalizedText);
            // a fragment past a nesting limit is left to the whole-file parse, which counts its levels from the file's start
            if (!NestingLimits.apply(tokens.getTokens(), baseIndent > 0 ? 1 : 0).isEmpty()) return null;
            if (lexer.getLexErrors().isEmpty() && selfContained) {
                PythonParser.File_inputContext tree = parseFile(tokens);
                if (tree != null) {
                    List<Stmt> body = new AstBuilder(lines, chars, errors, java.util.Map.of(), firstLine - 1).fileInput(tree);
                    return new Fragment(body, sorted(errors), sensitive);
                }
            }
            CommonTokenStream recoveryTokens = lexFragment(chars, firstLine, baseIndent, true);
            if (!lexer.endedSelfContained()) return null;
            if (!NestingLimits.apply(recoveryTokens.getTokens(), baseIndent > 0 ? 1 : 0).isEmpty()) return null;
            List<PythonLexerBase.LexError> lexErrors = List.copyOf(lexer.getLexErrors());
            addLexErrors(lexErrors, errors);
            int before = errors.size();
            List<Stmt> body = new StatementRecovery(parser, lines, chars, errors, firstLine - 1)
                    .recover(recoveryTokens.getTokens());
            if (errors.size() == before) return null; // a whole-file parse would report it elsewhere
            dropConsequences(lexErrors, errors, before);
            return new Fragment(body, sorted(errors), sensitive);
        } catch (RuntimeException | StackOverflowError e) {
            return null;
        } finally {
            forgetInput();
        }
    }

    private CommonTokenStream lexFragment(CharStream chars, int firstLine, int baseIndent, boolean recovery) {
        chars.seek(0);
        lexer.setRecoveryMode(recovery);
        lexer.setInputStream(chars);
        lexer.setLine(firstLine);
        lexer.setBaseIndent(baseIndent);
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        return tokens;
    }

    private static List<SyntaxError> sorted(List<SyntaxError> errors) {
        errors.sort(Comparator.comparingInt(SyntaxError::line).thenComparingInt(SyntaxError::column));
        return dedupe(errors);
    }

    /** Two-stage parse of the whole file; null when it has a syntax error. */
    private PythonParser.File_inputContext parseFile(CommonTokenStream tokens) {
        parser.setTokenStream(tokens);
        parser.setErrorHandler(new BailErrorStrategy());
        parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
        try {
            return parser.file_input();
        } catch (ParseCancellationException e) {
            // fall through to LL
        }
        tokens.seek(0);
        parser.setTokenStream(tokens);
        parser.getInterpreter().setPredictionMode(PredictionMode.LL);
        try {
            return parser.file_input();
        } catch (ParseCancellationException e) {
            return null;
        }
    }

    private SyntaxError firstErrorOf(CommonTokenStream tokens) {
        tokens.seek(0);
        parser.setTokenStream(tokens);
        parser.setErrorHandler(new org.antlr.v4.runtime.DefaultErrorStrategy());
        parser.getInterpreter().setPredictionMode(PredictionMode.LL);
        FirstError listener = new FirstError();
        parser.addErrorListener(listener);
        try {
            parser.file_input();
        } catch (ParseCancellationException e) {
            // the first error is all this parse is for
        } finally {
            parser.removeErrorListeners();
        }
        return listener.error != null ? listener.error : new SyntaxError(1, 1, "invalid syntax");
    }

    private static final String PREFIX = "invalid syntax at ";
    static final String AT_END_OF_LINE = PREFIX + "end of line";
    static final String AT_END_OF_FILE = PREFIX + "end of file";

    /**
     * Collects the first syntax error a parse reports, then stops the parse (a {@link
     * ParseCancellationException} the caller catches): ANTLR's recovery after an error computes
     * follow sets over the whole rule stack at every error, quadratic in the nesting of blocks.
     */
    static final class FirstError extends BaseErrorListener {
        SyntaxError error;

        @Override
        public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int col,
                                String msg, RecognitionException e) {
            if (error != null) return;
            String text = offendingSymbol instanceof Token t ? describe(t) : null;
            error = new SyntaxError(line, col + 1, text == null ? "invalid syntax" : PREFIX + text);
            throw new ParseCancellationException("first error found");
        }

        static String describe(Token t) {
            switch (t.getType()) {
                case Token.EOF: return AT_END_OF_FILE.substring(PREFIX.length());
                case PythonLexer.NEWLINE: return AT_END_OF_LINE.substring(PREFIX.length());
                case PythonLexer.INDENT: return "indent (unexpected indent)";
                case PythonLexer.DEDENT: return "dedent";
                default: return "'" + t.getText() + "'";
            }
        }
    }
}
