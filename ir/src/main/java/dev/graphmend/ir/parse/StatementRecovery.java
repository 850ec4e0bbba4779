package dev.graphmend.ir.parse;

import static dev.graphmend.ir.grammar.PythonLexer.*;

import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.grammar.PythonParser;
import dev.graphmend.ir.source.LineIndex;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CommonToken;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.ListTokenSource;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.Pair;
import org.antlr.v4.runtime.misc.ParseCancellationException;

/**
 * Error recovery at statement and block level, for a file that does not parse as a whole.
 *
 * <p>The token stream (INDENT/DEDENT included) is cut into statements; each is parsed on its
 * own, so a good statement gets exactly the tree it would get in a good file. A compound
 * statement that fails is parsed again as a skeleton (each block replaced by {@code pass}); if
 * the header parses, its blocks are recovered recursively, statement by statement. A statement
 * that still fails is dropped and its first error reported. Blocks indented where no block may
 * start are recovered too and kept in place, after an "unexpected indent" error.
 */
final class StatementRecovery {
    private final PythonParser parser;
    private final LineIndex lines;
    private final CharStream chars;
    private final List<SyntaxError> errors;
    private List<Token> toks;

    private final int lineOffset;

    StatementRecovery(PythonParser parser, LineIndex lines, CharStream chars, List<SyntaxError> errors) {
        this(parser, lines, chars, errors, 0);
    }

    /** {@code lineOffset}: the text is a fragment of a file starting after that many lines. */
    StatementRecovery(PythonParser parser, LineIndex lines, CharStream chars, List<SyntaxError> errors, int lineOffset) {
        this.lineOffset = lineOffset;
        this.parser = parser;
        this.lines = lines;
        this.chars = chars;
        this.errors = errors;
    }

    /** Recovers a whole file from its default-channel and hidden tokens. */
    List<Stmt> recover(List<Token> allTokens) {
        List<Token> list = new ArrayList<>(allTokens.size());
        for (Token t : allTokens) {
            if (t.getChannel() == Token.DEFAULT_CHANNEL) list.add(t);
        }
        this.toks = list;
        int end = list.size();
        if (end > 0 && list.get(end - 1).getType() == Token.EOF) end--;
        return block(0, end);
    }

    /** Recovers the statements of tokens [from, to), which are at one block level. */
    private List<Stmt> block(int from, int to) {
        List<Stmt> out = new ArrayList<>();
        int i = from;
        while (i < to) {
            int type = toks.get(i).getType();
            if (type == NEWLINE || type == DEDENT || type == Token.EOF) {
                i++;
                continue;
            }
            if (type == INDENT) {
                int close = matchingDedent(i, to);
                errors.add(new SyntaxError(toks.get(i).getLine(), toks.get(i).getCharPositionInLine() + 1, "unexpected indent"));
                out.addAll(block(i + 1, close));
                i = close + 1;
                continue;
            }
            int end = statementEnd(i, to);
            statement(i, end, out);
            i = end;
        }
        return out;
    }

    private int matchingDedent(int indent, int to) {
        int depth = 0;
        for (int j = indent; j < to; j++) {
            int type = toks.get(j).getType();
            if (type == INDENT) depth++;
            else if (type == DEDENT && --depth == 0) return j;
        }
        return to;
    }

    /** The end (exclusive) of the statement starting at {@code start}. */
    private int statementEnd(int start, int to) {
        int first = toks.get(start).getType();
        boolean decorators = first == AT; // still in the decorator lines of a decorated definition
        int depth = 0;
        int i = start;
        int lineStart = start; // first token of the current line at the statement's level
        while (i < to) {
            Token t = toks.get(i);
            int type = t.getType();
            if (type == INDENT) {
                depth++;
            } else if (type == DEDENT) {
                depth--;
                if (depth <= 0) {
                    if (depth < 0) return i; // a stray dedent ends the statement before it
                    if (i + 1 < to && isClauseContinuation(first, toks.get(i + 1).getType())) {
                        i++;
                        lineStart = i;
                        continue;
                    }
                    return i + 1;
                }
            } else if (type == NEWLINE && depth == 0) {
                // a block follows a header line: one ending in ':', or one starting with a
                // compound statement's keyword whose ':' is missing (recovered below)
                boolean opensBlock = i + 1 < to && toks.get(i + 1).getType() == INDENT && i > start
                        && (toks.get(i - 1).getType() == COLON || isHeaderKeyword(toks.get(lineStart).getType()));
                if (opensBlock) {
                    i++;
                    continue;
                }
                if (i + 1 < to) {
                    int next = toks.get(i + 1).getType();
                    if (isClauseContinuation(first, next)) {
                        i++;
                        lineStart = i;
                        continue;
                    }
                    if (decorators && (next == AT || next == DEF || next == CLASS || next == ASYNC)) {
                        decorators = next == AT;
                        i++;
                        lineStart = i;
                        continue;
                    }
                }
                return i + 1;
            }
            i++;
        }
        return to;
    }

    static boolean isHeaderKeyword(int type) {
        switch (type) {
            case DEF: case CLASS: case IF: case ELIF: case ELSE: case FOR: case WHILE: case WITH:
            case TRY: case EXCEPT: case FINALLY: case ASYNC: case MATCH: case CASE:
                return true;
            default:
                return false;
        }
    }

    /** Whether a statement starting with {@code first} goes on with a clause starting with {@code next}. */
    private static boolean isClauseContinuation(int first, int next) {
        switch (first) {
            case IF: return next == ELIF || next == ELSE;
            case FOR: case WHILE: case ASYNC: return next == ELSE;
            case TRY: return next == EXCEPT || next == ELSE || next == FINALLY;
            default: return false;
        }
    }

    private void statement(int start, int end, List<Stmt> out) {
        List<Token> range = new ArrayList<>(toks.subList(start, end));
        SyntaxError[] firstError = new SyntaxError[1];
        PythonParser.Single_stmtContext tree = parse(range, firstError);
        if (tree != null) {
            new AstBuilder(lines, chars, errors, Map.of(), lineOffset).stmt(tree.stmt(), out);
            return;
        }
        // Parse the statement's skeleton: every top-level block replaced by `pass`.
        Map<Token, List<Stmt>> bodies = new IdentityHashMap<>();
        List<Token> skeleton = new ArrayList<>();
        List<int[]> blocks = new ArrayList<>();
        int depth = 0;
        for (int i = start; i < end; i++) {
            Token t = toks.get(i);
            int type = t.getType();
            if (type == INDENT) {
                if (depth == 0) {
                    blocks.add(new int[] {i, -1});
                    skeleton.add(t);
                    skeleton.add(synthetic(PASS, "pass", toks.get(Math.min(i + 1, end - 1))));
                    skeleton.add(synthetic(NEWLINE, "\n", toks.get(Math.min(i + 1, end - 1))));
                }
                depth++;
                continue;
            }
            if (type == DEDENT) {
                depth--;
                if (depth == 0) {
                    blocks.get(blocks.size() - 1)[1] = i;
                    skeleton.add(t);
                }
                continue;
            }
            if (depth == 0) skeleton.add(t);
        }
        if (depth > 0 || blocks.isEmpty()) {
            report(firstError[0], start);
            return;
        }
        SyntaxError[] skeletonError = new SyntaxError[1];
        PythonParser.Single_stmtContext skel = parse(skeleton, skeletonError);
        if (skel == null) {
            // a header whose ':' is missing: try again with it, as a one-token repair
            List<Token> repaired = withMissingColons(skeleton);
            if (repaired != null) skel = parse(repaired, new SyntaxError[1]);
            if (skel != null) report(firstError[0], start);
        }
        if (skel == null) {
            report(firstError[0], start);
            if (blocks.size() == 1 && firstError[0] != null && skeletonError[0] != null) {
                // the header is broken; still keep what its block holds, as an indented run
                int[] b = blocks.get(0);
                out.addAll(block(b[0] + 1, b[1]));
            }
            return;
        }
        for (int[] b : blocks) {
            List<Stmt> body = block(b[0] + 1, b[1]);
            if (body.isEmpty()) {
                // nothing in the block survived: keep a placeholder so the tree stays well-formed
                Token at = toks.get(Math.min(b[0] + 1, b[1]));
                int col = lines.utf8Column(at.getLine() - lineOffset, at.getCharPositionInLine());
                body = List.of(new Stmt.Pass(new Span(at.getLine(), col, at.getLine(), col)));
            }
            bodies.put(toks.get(b[0]), body);
        }
        new AstBuilder(lines, chars, errors, bodies, lineOffset).stmt(skel.stmt(), out);
    }

    /** The skeleton with a ':' put before each block's NEWLINE that lacks one; null if none lacks it. */
    private static List<Token> withMissingColons(List<Token> skeleton) {
        List<Token> out = new ArrayList<>(skeleton.size() + 2);
        boolean changed = false;
        for (int i = 0; i < skeleton.size(); i++) {
            Token t = skeleton.get(i);
            if (t.getType() == NEWLINE && i + 1 < skeleton.size() && skeleton.get(i + 1).getType() == INDENT
                    && i > 0 && skeleton.get(i - 1).getType() != COLON) {
                out.add(synthetic(COLON, ":", t));
                changed = true;
            }
            out.add(t);
        }
        return changed ? out : null;
    }

    private void report(SyntaxError e, int start) {
        if (e != null) {
            errors.add(e);
        } else {
            Token t = toks.get(start);
            errors.add(new SyntaxError(t.getLine(), t.getCharPositionInLine() + 1, "invalid syntax"));
        }
    }

    /** A token the recovery adds, placed at {@code at} and tied to its source (error reporting reads it). */
    private static Token synthetic(int type, String text, Token at) {
        CommonToken t = new CommonToken(new Pair<>(at.getTokenSource(), at.getInputStream()), type,
                Token.DEFAULT_CHANNEL, at.getStartIndex(), at.getStartIndex() - 1);
        t.setText(text);
        t.setLine(at.getLine());
        t.setCharPositionInLine(at.getCharPositionInLine());
        t.setStartIndex(at.getStartIndex());
        t.setStopIndex(at.getStartIndex() - 1);
        return t;
    }

    /** Parses one statement's tokens (SLL, then LL); null and the first error if it fails. */
    private PythonParser.Single_stmtContext parse(List<Token> range, SyntaxError[] firstError) {
        List<Token> withEof = new ArrayList<>(range.size() + 1);
        withEof.addAll(range);
        Token last = range.get(range.size() - 1);
        CommonToken eof = (CommonToken) synthetic(Token.EOF, "<EOF>", last);
        eof.setStartIndex(last.getStopIndex() + 1);
        eof.setStopIndex(last.getStopIndex());
        withEof.add(eof);
        CommonTokenStream stream = new CommonTokenStream(new ListTokenSource(withEof));
        parser.setTokenStream(stream);
        parser.setErrorHandler(new BailErrorStrategy());
        parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
        try {
            return parser.single_stmt();
        } catch (ParseCancellationException e) {
            // retry with LL below
        }
        stream.seek(0);
        parser.setTokenStream(stream);
        parser.getInterpreter().setPredictionMode(PredictionMode.LL);
        try {
            return parser.single_stmt();
        } catch (ParseCancellationException e) {
            // fall through: find the error's position with a reporting parse
        }
        stream.seek(0);
        parser.setTokenStream(stream);
        parser.setErrorHandler(new DefaultErrorStrategy());
        PythonSourceParser.FirstError listener = new PythonSourceParser.FirstError();
        parser.addErrorListener(listener);
        try {
            parser.single_stmt();
        } catch (ParseCancellationException e) {
            // stopped at the first error
        } finally {
            parser.removeErrorListeners();
        }
        firstError[0] = listener.error;
        return null;
    }
}
