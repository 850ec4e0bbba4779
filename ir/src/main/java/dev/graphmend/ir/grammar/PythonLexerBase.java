package dev.graphmend.ir.grammar;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CommonToken;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Token;

/**
 * The parts of Python's tokenizer that a lexer grammar cannot express:
 * <ul>
 *   <li>logical lines: NEWLINE only ends a line with content outside brackets;</li>
 *   <li>indentation: INDENT/DEDENT from a stack of columns (tabs to multiples of 8, a form feed
 *       resets the column), with CPython's tab/space consistency check;</li>
 *   <li>f-strings (PEP 701): literal parts and format specs are scanned here by hand, the
 *       replacement-field expressions by the grammar's rules;</li>
 *   <li>error tolerance: an unclosed bracket stops at a line that starts, at or left of the
 *       bracket's line indentation, with a keyword that can only begin a statement, so one
 *       missing ')' does not swallow the rest of the file.</li>
 * </ul>
 * The input must use LF line endings (SourceText.normalized()).
 */
public abstract class PythonLexerBase extends Lexer {
    /**
     * A problem found while tokenizing; line 1-based, column 0-based in code points. An unclosed
     * bracket's error covers the tokens after it up to line {@code coversUntilLine}: a parser error
     * at the end of a line in there is a consequence of it (the statement ends without its ')'); 0
     * for other errors. An error with a {@code swallowsFromLine} (the parser was shown only part of
     * the lines it covers) explains every parser error from that line to {@code coversUntilLine}; 0
     * for the others.
     */
    public record LexError(int line, int column, String message, int coversUntilLine, int swallowsFromLine) {
        public LexError(int line, int column, String message) {
            this(line, column, message, 0, 0);
        }

        public LexError(int line, int column, String message, int coversUntilLine) {
            this(line, column, message, coversUntilLine, 0);
        }
    }

    // Keywords that never start a physical line inside valid brackets: seeing one at or left
    // of the unclosed bracket's indentation means the bracket was never closed (so does
    // `async def` / `async with`; `async for` may start a comprehension clause).
    private static final Set<String> STATEMENT_KEYWORDS = Set.of(
            "def", "class", "return", "import", "raise", "try", "while", "with", "pass", "break",
            "continue", "del", "global", "nonlocal", "assert", "elif", "except", "finally");

    // Keywords that may start a line inside brackets (a comprehension or conditional expression
    // split over lines) but, at the start of a line ending in ':', begin a compound statement.
    private static final Set<String> RECOVERY_KEYWORDS = Set.of("if", "for", "else", "async");

    private record Bracket(int type, int line, int column, int lineIndent) {}

    /** An open f-string; {@code fields} holds its open replacement fields, innermost last. */
    private static final class FString {
        final int quote;
        final boolean triple;
        final boolean raw;
        final ArrayDeque<int[]> fields = new ArrayDeque<>(); // {bracketDepth, inSpec}

        FString(int quote, boolean triple, boolean raw) {
            this.quote = quote;
            this.triple = triple;
            this.raw = raw;
        }
    }

    private final ArrayDeque<Token> pending = new ArrayDeque<>();
    private final ArrayDeque<Bracket> brackets = new ArrayDeque<>();
    private final ArrayDeque<FString> fstrings = new ArrayDeque<>();
    private int[] indents = new int[64];
    private int[] altIndents = new int[64];
    private int indentTop;
    private boolean atLineStart;
    private int currentLineIndent;
    private int lastType;
    private boolean recovery;
    private boolean eofDone;
    private final List<LexError> errors = new ArrayList<>();

    protected PythonLexerBase(CharStream input) {
        super(input);
        resetState();
    }

    private int baseIndent;
    private final List<Integer> recoverySensitiveLines = new ArrayList<>();
    private boolean leftOpen; // the text ended inside a bracket, an f-string or a triple-quoted string
    private boolean belowBase; // a line dedented below the base indentation of a fragment

    /**
     * Lexes a fragment of a file whose statements sit at {@code column} (a class body's members):
     * that column is the outermost level, no INDENT precedes the first statement and no DEDENT
     * closes the last. Call after {@link #setInputStream}, which resets it to 0.
     */
    public void setBaseIndent(int column) {
        baseIndent = column;
        if (column > 0) {
            indentTop = 1;
            indents[1] = column;
            altIndents[1] = column;
        }
    }

    /**
     * Whether what was lexed is self-contained: it did not end inside a bracket, an f-string or
     * a triple-quoted string, and (for a fragment) no line left the base indentation. Only then
     * does the same text, inside a larger file, give the same tokens.
     */
    public boolean endedSelfContained() {
        return !leftOpen && !belowBase;
    }

    /**
     * Lines (outside recovery mode) where recovery mode would have ended a bracket that valid
     * code keeps open: the same text lexes differently once the file has an error elsewhere.
     */
    public List<Integer> getRecoverySensitiveLines() {
        return recoverySensitiveLines;
    }

    /** In recovery mode a decorator line also ends an unclosed bracket (see class comment). */
    public void setRecoveryMode(boolean recovery) {
        this.recovery = recovery;
    }

    public List<LexError> getLexErrors() {
        return errors;
    }

    @Override
    public void reset() {
        super.reset();
        resetState();
    }

    private void resetState() {
        pending.clear();
        brackets.clear();
        fstrings.clear();
        indentTop = 0;
        baseIndent = 0;
        leftOpen = false;
        belowBase = false;
        if (recoverySensitiveLines != null) recoverySensitiveLines.clear();
        indents[0] = 0;
        altIndents[0] = 0;
        atLineStart = true;
        currentLineIndent = 0;
        lastType = PythonLexer.NEWLINE;
        eofDone = false;
        errors.clear();
    }

    @Override
    public Token nextToken() {
        while (true) {
            if (!pending.isEmpty()) return pending.poll();
            FString fs = fstrings.peek();
            if (fs != null && (fs.fields.isEmpty() || fs.fields.peekLast()[1] == 1)) {
                scanFStringText(fs);
                continue;
            }
            skipBlanks();
            Token t = super.nextToken();
            int type = t.getType();
            if (type == Token.EOF) {
                handleEof(t);
                continue;
            }
            if (t.getChannel() != Token.DEFAULT_CHANNEL) return t;
            if (type == PythonLexer.NEWLINE) {
                lastType = PythonLexer.NEWLINE;
                return t;
            }
            if (atLineStart) {
                atLineStart = false;
                indentLine(t);
            }
            lastType = type;
            if (pending.isEmpty()) return t;
            pending.add(t);
        }
    }

    /**
     * Consumes spaces and tabs before the next token here, a few times faster than the grammar's
     * skipped WS rule (ANTLR's lexer costs ~10 ns a character): indentation is most of the text of
     * deeply nested code. Only the column moves; the line's indentation is measured from the text.
     */
    private void skipBlanks() {
        CharStream in = _input;
        int c = in.LA(1);
        if (c != ' ' && c != '\t') return;
        int start = in.index();
        do {
            in.consume();
            c = in.LA(1);
        } while (c == ' ' || c == '\t');
        getInterpreter().setCharPositionInLine(getInterpreter().getCharPositionInLine() + in.index() - start);
    }

    // ---------------------------------------------------------------- layout

    /** Action of the NEWLINE rule: decides whether this newline ends a logical line. */
    protected void onNewline() {
        if (!brackets.isEmpty()) {
            if (bracketRunEndsHere()) {
                Bracket open = brackets.peekLast();
                errors.add(new LexError(open.line, open.column,
                        "'" + (char) bracketChar(open.type) + "' was never closed", _tokenStartLine));
                brackets.clear();
                fstrings.clear();
            } else {
                setChannel(HIDDEN);
                return;
            }
        }
        if (lastType == PythonLexer.NEWLINE || lastType == PythonLexer.INDENT || lastType == PythonLexer.DEDENT) {
            setChannel(HIDDEN); // blank or comment-only line
        }
        atLineStart = true;
    }

    private boolean bracketRunEndsHere() {
        Bracket outer = brackets.peekFirst();
        CharStream in = _input;
        int i = 1;
        int col = 0;
        while (true) {
            int c = in.LA(i);
            if (c == ' ') col++;
            else if (c == '\t') col = (col / 8 + 1) * 8;
            else if (c == '\f') col = 0;
            else break;
            i++;
        }
        // A statement after an unclosed bracket starts at a block's indentation; a keyword at
        // any other column is more likely a stray token inside the brackets.
        if (col > outer.lineIndent || !isIndentLevel(col)) return false;
        int c = in.LA(i);
        String word = c == '@' ? "" : wordAt(i);
        if ((c == '@' && isAsciiIdentStart(in.LA(i + 1)))
                || (RECOVERY_KEYWORDS.contains(word) && lineEndsWithColon(i))) {
            // A decorator line, or `if ...:`, `for ...:`, `else:`. In a file already known to be
            // broken this ends the bracket; valid code may hold such a line inside brackets
            // (`(a\n@b)`), so outside recovery it only marks the text as recovery-sensitive.
            if (recovery) return true;
            recoverySensitiveLines.add(_tokenStartLine + 1);
            return false;
        }
        if (word.equals("async")) {
            int j = i + 5;
            while (in.LA(j) == ' ' || in.LA(j) == '\t') j++;
            String next = wordAt(j);
            return next.equals("def") || next.equals("with");
        }
        return STATEMENT_KEYWORDS.contains(word);
    }

    /** Whether the physical line from lookahead position i ends with ':' (before any comment). */
    private boolean lineEndsWithColon(int i) {
        int last = -1;
        for (int c = _input.LA(i); c != EOF && c != '\n'; c = _input.LA(++i)) {
            if (c == '#') {
                while (_input.LA(i + 1) != EOF && _input.LA(i + 1) != '\n') i++;
            } else if (c != ' ' && c != '\t' && c != '\f') {
                last = c;
            }
        }
        return last == ':';
    }

    /** The lowercase ASCII word starting at lookahead position i, or "" when none ends there. */
    private String wordAt(int i) {
        CharStream in = _input;
        StringBuilder word = new StringBuilder(8);
        int c;
        while (word.length() < 9) {
            c = in.LA(i);
            if (c >= 'a' && c <= 'z') word.append((char) c);
            else break;
            i++;
        }
        c = in.LA(i);
        if (isAsciiIdentPart(c) || c >= 0x80) return "";
        return word.toString();
    }

    private boolean isIndentLevel(int col) {
        for (int k = 0; k <= indentTop; k++) {
            if (indents[k] == col) return true;
        }
        return false;
    }

    private static boolean isAsciiIdentStart(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean isAsciiIdentPart(int c) {
        return isAsciiIdentStart(c) || (c >= '0' && c <= '9');
    }

    /** Emits INDENT/DEDENTs before the first token of a logical line. */
    private void indentLine(Token first) {
        int start = first.getStartIndex() - first.getCharPositionInLine();
        String prefix = first.getCharPositionInLine() == 0 ? ""
                : _input.getText(org.antlr.v4.runtime.misc.Interval.of(start, first.getStartIndex() - 1));
        int col = 0;
        int alt = 0;
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c == ' ') {
                col++;
                alt++;
            } else if (c == '\t') {
                col = (col / 8 + 1) * 8;
                alt++;
            } else if (c == '\f') {
                col = 0;
                alt = 0;
            } else {
                break; // a backslash continuation at the start of a line: CPython measures the first line
            }
        }
        currentLineIndent = col;
        int top = indents[indentTop];
        if (col == top) {
            if (alt != altIndents[indentTop]) tabError(first);
        } else if (col > top) {
            if (alt <= altIndents[indentTop]) tabError(first);
            if (++indentTop == indents.length) {
                indents = java.util.Arrays.copyOf(indents, indentTop * 2);
                altIndents = java.util.Arrays.copyOf(altIndents, indentTop * 2);
            }
            indents[indentTop] = col;
            altIndents[indentTop] = alt;
            pending.add(layoutToken(PythonLexer.INDENT, first));
        } else {
            // Pop to the innermost level at or right of this column. In valid code that level is
            // the column itself; a column between levels is an error, and the line is kept in the
            // nearest enclosing block at its right, so a stray character at the start of a line
            // does not end every block around it.
            while (indentTop > 0 && indents[indentTop - 1] >= col) {
                indentTop--;
                pending.add(layoutToken(PythonLexer.DEDENT, first));
            }
            if (baseIndent > 0 && indentTop == 0) belowBase = true;
            if (col != indents[indentTop]) {
                errors.add(new LexError(first.getLine(), first.getCharPositionInLine(),
                        "unindent does not match any outer indentation level"));
            } else if (alt != altIndents[indentTop]) {
                tabError(first);
            }
        }
    }

    private void tabError(Token at) {
        errors.add(new LexError(at.getLine(), at.getCharPositionInLine(),
                "inconsistent use of tabs and spaces in indentation"));
    }

    private Token layoutToken(int type, Token at) {
        CommonToken t = new CommonToken(_tokenFactorySourcePair, type, DEFAULT_TOKEN_CHANNEL,
                at.getStartIndex(), at.getStartIndex() - 1);
        t.setText(type == PythonLexer.INDENT ? "<INDENT>" : type == PythonLexer.DEDENT ? "<DEDENT>" : "<NEWLINE>");
        t.setLine(at.getLine());
        t.setCharPositionInLine(at.getCharPositionInLine());
        return t;
    }

    private void handleEof(Token eof) {
        if (eofDone) {
            pending.add(eof);
            return;
        }
        eofDone = true;
        if (!fstrings.isEmpty() || !brackets.isEmpty()) leftOpen = true;
        if (!fstrings.isEmpty()) {
            errors.add(new LexError(eof.getLine(), eof.getCharPositionInLine(), "unterminated f-string literal"));
            fstrings.clear();
        }
        if (!brackets.isEmpty()) {
            Bracket open = brackets.peekLast();
            errors.add(new LexError(open.line, open.column, "'" + (char) bracketChar(open.type) + "' was never closed", Integer.MAX_VALUE));
            brackets.clear();
        }
        if (lastType != PythonLexer.NEWLINE && lastType != PythonLexer.INDENT && lastType != PythonLexer.DEDENT) {
            pending.add(layoutToken(PythonLexer.NEWLINE, eof));
        }
        int floor = baseIndent > 0 ? 1 : 0;
        while (indentTop > floor) {
            indentTop--;
            pending.add(layoutToken(PythonLexer.DEDENT, eof));
        }
        lastType = PythonLexer.NEWLINE;
        pending.add(eof);
    }

    // ---------------------------------------------------------------- brackets

    private static int bracketChar(int type) {
        return type == PythonLexer.LPAR ? '(' : type == PythonLexer.LSQB ? '[' : '{';
    }

    /** The token type of the bracket just matched (an action runs before the type is set). */
    private int justMatchedBracket() {
        int c = _input.LA(-1);
        return c == '(' ? PythonLexer.LPAR : c == '[' ? PythonLexer.LSQB : PythonLexer.LBRACE;
    }

    protected void openBracket() {
        int lineIndent = currentLineIndent;
        if (atLineStart) {
            // this bracket opens a logical line whose indentation is not measured yet
            lineIndent = 0;
            String prefix = _tokenStartCharPositionInLine == 0 ? "" : _input.getText(
                    org.antlr.v4.runtime.misc.Interval.of(_tokenStartCharIndex - _tokenStartCharPositionInLine,
                            _tokenStartCharIndex - 1));
            for (int i = 0; i < prefix.length(); i++) {
                char c = prefix.charAt(i);
                if (c == ' ') lineIndent++;
                else if (c == '\t') lineIndent = (lineIndent / 8 + 1) * 8;
                else if (c == '\f') lineIndent = 0;
                else break;
            }
        }
        brackets.addLast(new Bracket(justMatchedBracket(), _tokenStartLine, _tokenStartCharPositionInLine, lineIndent));
    }

    protected void closeBracket() {
        if (brackets.isEmpty()) {
            errors.add(new LexError(_tokenStartLine, _tokenStartCharPositionInLine,
                    "unmatched '" + getText() + "'"));
            return;
        }
        brackets.removeLast();
    }

    /** '}' closes a bracket, and may end an f-string replacement field. */
    protected void onCloseBrace() {
        FString fs = fstrings.peek();
        if (fs != null && !fs.fields.isEmpty() && fs.fields.peekLast()[0] == brackets.size()) {
            fs.fields.removeLast();
        }
        closeBracket();
    }

    /** ':' at the top level of a replacement field starts the format spec. */
    protected void onColon() {
        FString fs = fstrings.peek();
        if (fs != null && !fs.fields.isEmpty()) {
            int[] field = fs.fields.peekLast();
            if (field[1] == 0 && field[0] == brackets.size()) field[1] = 1;
        }
    }

    /** ':=' at the top level of a replacement field is a format spec starting with '='. */
    protected void onColonEqual() {
        FString fs = fstrings.peek();
        if (fs != null && !fs.fields.isEmpty()) {
            int[] field = fs.fields.peekLast();
            if (field[1] == 0 && field[0] == brackets.size()) {
                setType(PythonLexer.COLON);
                _input.seek(_input.index() - 1);
                getInterpreter().setCharPositionInLine(getInterpreter().getCharPositionInLine() - 1);
                field[1] = 1;
            }
        }
    }

    // ---------------------------------------------------------------- numbers

    private static final String[] KEYWORDS_AFTER_NUMBER = {"and", "else", "for", "if", "in", "is", "not", "or"};

    /**
     * Digits run into letters. CPython accepts a number directly followed by one of a few
     * keywords ({@code 1if x else 2}, with a warning): split those; the rest stay one bad token.
     */
    protected void onBadNumber() {
        // like CPython's tokenizer: the longest valid number, then a keyword right after it
        String text = getText();
        int p = longestNumberPrefix(text);
        if (p < 1 || p >= text.length()) return;
        for (String kw : KEYWORDS_AFTER_NUMBER) {
            if (text.startsWith(kw, p)) {
                setType(PythonLexer.NUMBER);
                _input.seek(_tokenStartCharIndex + p);
                getInterpreter().setCharPositionInLine(_tokenStartCharPositionInLine + p);
                return;
            }
        }
    }

    /**
     * The length of the longest prefix of {@code t} that is a number literal, 0 if none: hexadecimal,
     * octal or binary digits, a decimal integer, a float with an optional exponent, then an optional
     * {@code j}; single underscores between digits. One scan: matching every prefix with a regular
     * expression was quadratic (70 s for a damaged 100,000-digit literal). {@code NumberPrefixTest}
     * holds it to that expression.
     */
    static int longestNumberPrefix(String t) {
        int n = t.length();
        if (n >= 2 && t.charAt(0) == '0') {
            char b = Character.toLowerCase(t.charAt(1));
            int radix = b == 'x' ? 16 : b == 'o' ? 8 : b == 'b' ? 2 : 0;
            if (radix != 0) {
                int end = digits(t, 2, radix, true);
                if (end > 2) return end; // else "0" is the number
            }
        }
        int end = digits(t, 0, 10, false); // the integer part, or 0
        int dot = end < n && t.charAt(end) == '.' ? end : -1;
        if (dot >= 0) {
            int fraction = digits(t, dot + 1, 10, false);
            if (fraction > dot + 1) end = fraction;
            else if (end > 0) end = dot + 1; // "1."
        }
        if (end == 0) return 0;
        if (end < n && (t.charAt(end) == 'e' || t.charAt(end) == 'E')) {
            int exponent = digits(t, end + 1, 10, false);
            if (exponent > end + 1) end = exponent;
        }
        if (end < n && (t.charAt(end) == 'j' || t.charAt(end) == 'J')) end++;
        return end;
    }

    /**
     * The end of the run of digits of {@code radix} from {@code i}, single underscores between them
     * (before the first too when {@code leadingUnderscore}); {@code i} when there is none.
     */
    private static int digits(String t, int i, int radix, boolean leadingUnderscore) {
        int n = t.length();
        int end = i;
        int p = i;
        while (p < n) {
            boolean underscore = t.charAt(p) == '_' && (p > i || leadingUnderscore);
            int at = underscore ? p + 1 : p;
            if (at >= n || Character.digit(t.charAt(at), radix) < 0 || t.charAt(at) > 'z') break;
            p = at + 1;
            end = p;
        }
        return end;
    }

    // ---------------------------------------------------------------- strings

    /** Consumes the rest of a string that never closes. */
    protected void onUnterminatedString() {
        String text = getText();
        boolean triple = text.endsWith("\"\"\"") || text.endsWith("'''");
        while (true) {
            int c = _input.LA(1);
            if (c == EOF) break;
            if (!triple && c == '\n') break;
            if (c == '\\' && _input.LA(2) != EOF) {
                getInterpreter().consume(_input);
            }
            getInterpreter().consume(_input);
        }
        if (triple) leftOpen = true;
        errors.add(new LexError(_tokenStartLine, _tokenStartCharPositionInLine,
                triple ? "unterminated triple-quoted string literal" : "unterminated string literal"));
        setType(PythonLexer.ERRORTOKEN);
    }

    protected void onFStringStart() {
        String text = getText();
        int quote = text.charAt(text.length() - 1);
        boolean triple = text.length() >= 3 && text.charAt(text.length() - 2) == quote
                && text.charAt(text.length() - 3) == quote;
        boolean raw = text.indexOf('r') >= 0 || text.indexOf('R') >= 0;
        fstrings.push(new FString(quote, triple, raw));
    }

    /**
     * Scans an f-string's literal text or format spec up to the next replacement field, the end
     * of the spec, or the closing quote, and queues the tokens found.
     */
    private void scanFStringText(FString fs) {
        boolean inSpec = !fs.fields.isEmpty();
        CharStream in = _input;
        int startIndex = in.index();
        int startLine = getInterpreter().getLine();
        int startCol = getInterpreter().getCharPositionInLine();
        while (true) {
            int c = in.LA(1);
            if (c == EOF || (c == '\n' && !fs.triple)) {
                flushMiddle(startIndex, startLine, startCol);
                errors.add(new LexError(getInterpreter().getLine(), getInterpreter().getCharPositionInLine(),
                        "unterminated f-string literal"));
                // Leave the f-string; the parser reports the missing end at this token.
                pending.add(manualToken(PythonLexer.ERRORTOKEN, in.index(), in.index() - 1,
                        getInterpreter().getLine(), getInterpreter().getCharPositionInLine()));
                fstrings.pop();
                dropFStringBrackets(fs);
                return;
            }
            if (c == fs.quote && (!fs.triple || (in.LA(2) == c && in.LA(3) == c))) {
                if (inSpec) {
                    // the string ends inside a format spec: an error the parser will report
                    flushMiddle(startIndex, startLine, startCol);
                    errors.add(new LexError(getInterpreter().getLine(), getInterpreter().getCharPositionInLine(),
                            "f-string: expecting '}'"));
                    dropFStringBrackets(fs);
                    fs.fields.clear();
                    startIndex = in.index();
                    startLine = getInterpreter().getLine();
                    startCol = getInterpreter().getCharPositionInLine();
                }
                flushMiddle(startIndex, startLine, startCol);
                int line = getInterpreter().getLine();
                int col = getInterpreter().getCharPositionInLine();
                int begin = in.index();
                int n = fs.triple ? 3 : 1;
                for (int i = 0; i < n; i++) getInterpreter().consume(in);
                pending.add(manualToken(PythonLexer.FSTRING_END, begin, in.index() - 1, line, col));
                fstrings.pop();
                return;
            }
            if (c == '{') {
                if (!inSpec && in.LA(2) == '{') {
                    consume2();
                    continue;
                }
                flushMiddle(startIndex, startLine, startCol);
                int line = getInterpreter().getLine();
                int col = getInterpreter().getCharPositionInLine();
                int begin = in.index();
                getInterpreter().consume(in);
                brackets.addLast(new Bracket(PythonLexer.LBRACE, line, col, currentLineIndent));
                fs.fields.addLast(new int[] {brackets.size(), 0});
                pending.add(manualToken(PythonLexer.LBRACE, begin, begin, line, col));
                return;
            }
            if (c == '}') {
                if (!inSpec) {
                    if (in.LA(2) == '}') {
                        consume2();
                        continue;
                    }
                    // a single '}' in literal text: CPython rejects it; keep it as text
                    errors.add(new LexError(getInterpreter().getLine(), getInterpreter().getCharPositionInLine(),
                            "f-string: single '}' is not allowed"));
                    getInterpreter().consume(in);
                    continue;
                }
                flushMiddle(startIndex, startLine, startCol);
                int line = getInterpreter().getLine();
                int col = getInterpreter().getCharPositionInLine();
                int begin = in.index();
                getInterpreter().consume(in);
                fs.fields.removeLast();
                if (!brackets.isEmpty()) brackets.removeLast();
                pending.add(manualToken(PythonLexer.RBRACE, begin, begin, line, col));
                return;
            }
            if (c == '\\' && !inSpec) {
                int next = in.LA(2);
                if (!fs.raw && next == 'N' && in.LA(3) == '{') {
                    // \N{NAME}: the braces belong to the escape
                    consume2();
                    while (in.LA(1) != EOF && in.LA(1) != '}' && in.LA(1) != '\n' && in.LA(1) != fs.quote) {
                        getInterpreter().consume(in);
                    }
                    if (in.LA(1) == '}') getInterpreter().consume(in);
                    continue;
                }
                if (next == '{' || next == '}' || next == EOF) {
                    getInterpreter().consume(in);
                    continue;
                }
                consume2();
                continue;
            }
            getInterpreter().consume(in);
        }
    }

    private void dropFStringBrackets(FString fs) {
        for (int i = 0; i < fs.fields.size() && !brackets.isEmpty(); i++) brackets.removeLast();
        fs.fields.clear();
    }

    private void consume2() {
        getInterpreter().consume(_input);
        getInterpreter().consume(_input);
    }

    private void flushMiddle(int startIndex, int startLine, int startCol) {
        int end = _input.index();
        if (end > startIndex) {
            pending.add(manualToken(PythonLexer.FSTRING_MIDDLE, startIndex, end - 1, startLine, startCol));
        }
    }

    private Token manualToken(int type, int start, int stop, int line, int col) {
        CommonToken t = new CommonToken(_tokenFactorySourcePair, type, DEFAULT_TOKEN_CHANNEL, start, stop);
        t.setLine(line);
        t.setCharPositionInLine(col);
        lastType = type;
        return t;
    }
}
