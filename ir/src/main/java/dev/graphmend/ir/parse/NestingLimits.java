package dev.graphmend.ir.parse;

import static dev.graphmend.ir.grammar.PythonLexer.*;

import dev.graphmend.ir.grammar.PythonLexerBase.LexError;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.CommonToken;
import org.antlr.v4.runtime.Token;

/**
 * The nesting limits of the front end, checked on the token list before the parser sees it, so
 * that how deep the parser, the tree builder and every pass after them recurse is bounded by the
 * text alone, never by a thread's stack or the JIT's frame sizes (docs/architecture.md, "Nesting
 * limits"). One linear pass, no recursion:
 * <ul>
 *   <li>more than {@value #MAX_INDENT} indented levels: CPython's IndentationError "too many levels
 *       of indentation"; the lines deeper than that are hidden, so the block that holds them is
 *       empty (an error the first one explains);</li>
 *   <li>more than {@value #MAX_BRACKETS} nested brackets in a logical line: CPython's "too many
 *       nested parentheses";</li>
 *   <li>a logical line whose nesting bound passes {@value #MAX_NESTING}: "too deeply nested". The
 *       bound counts, from the line's start or from its innermost open bracket's last comma, every
 *       token that can open a level of the tree (brackets, '.', prefix operators, keywords); a
 *       binary operator sets it to the expression's start plus the binary operators so far (a
 *       chain of them nests one level each, whatever its operands' depth), and a flat node's
 *       operator ({@code and}, {@code or}, a comparison) to that plus one. So the depth of the
 *       expression's tree and of the parser's recursion is at most a small multiple of it; CPython's own limits
 *       (its parser's stack of 6,000 rules, its tree builder's 10,000 levels) stop a pure chain of
 *       attributes, calls, subscripts or binary operators at 9,994 links, which this allows.</li>
 * </ul>
 * A line past the bracket or nesting limit is hidden from the parser but for its first token
 * (turned into an error token, unless it is the keyword of a compound statement, which keeps its
 * block) and its NEWLINE; the parser's errors on the lines an error covers are its consequences
 * and are dropped ({@link LexError#swallowsFromLine()}); so are those of the block header whose
 * block was flattened.
 */
final class NestingLimits {
    private NestingLimits() {}

    /** Blocks inside blocks: CPython's {@code MAXINDENT} (100) counts the module's level too. */
    static final int MAX_INDENT = 99;
    /** CPython's {@code MAXLEVEL}. */
    static final int MAX_BRACKETS = 200;
    /** The longest chain CPython 3.13 builds (attributes, calls, subscripts, binary operators). */
    static final int MAX_NESTING = 9_994;

    /**
     * Checks {@code tokens} (the lexer's whole output, hidden channel included, a token stream's own
     * list), takes out what is past a limit and returns the errors.
     */
    static List<LexError> apply(List<Token> tokens) {
        return apply(tokens, 0);
    }

    /** {@link #apply(List)} for tokens that start {@code initialIndent} blocks deep (a class member's fragment: 1). */
    static List<LexError> apply(List<Token> tokens, int initialIndent) {
        List<LexError> errors = new ArrayList<>();
        limitIndentation(tokens, initialIndent, errors);
        limitLines(tokens, errors);
        if (!errors.isEmpty()) cut(tokens);
        return errors;
    }

    /** Hides every INDENT past {@link #MAX_INDENT} levels and the DEDENT that closes it. */
    private static void limitIndentation(List<Token> tokens, int initialIndent, List<LexError> errors) {
        int depth = initialIndent;
        int regionStart = -1; // index in errors of the open region's error, or -1
        int headerEnd = 1; // line of the last NEWLINE: the end of the header an INDENT opens the block of
        for (Token t : tokens) {
            if (t.getChannel() != Token.DEFAULT_CHANNEL) continue;
            int type = t.getType();
            if (depth > MAX_INDENT && type != INDENT && type != DEDENT && type != Token.EOF) {
                hide(t); // a line past the limit: CPython reads no further, we read on after the region
                continue;
            }
            if (type == NEWLINE) {
                headerEnd = t.getLine();
            } else if (type == INDENT) {
                depth++;
                if (depth > MAX_INDENT) {
                    if (regionStart < 0) {
                        regionStart = errors.size();
                        errors.add(new LexError(t.getLine(), t.getCharPositionInLine(),
                                "too many levels of indentation", Integer.MAX_VALUE, headerEnd));
                    }
                    hide(t);
                }
            } else if (type == DEDENT) {
                if (depth > MAX_INDENT) {
                    hide(t);
                    if (depth == MAX_INDENT + 1 && regionStart >= 0) {
                        LexError open = errors.get(regionStart);
                        errors.set(regionStart, new LexError(open.line(), open.column(), open.message(), t.getLine(),
                                open.swallowsFromLine()));
                        regionStart = -1;
                    }
                }
                depth = Math.max(0, depth - 1);
            }
        }
    }

    /** The bracket and nesting limits, logical line by logical line. */
    private static void limitLines(List<Token> tokens, List<LexError> errors) {
        // per open bracket of the line: the bound where it opened, its token type, and the
        // expression state of the level around it, restored when it closes
        int[] bases = new int[MAX_BRACKETS + 1];
        int[] openers = new int[MAX_BRACKETS + 1];
        int[] outerExprBases = new int[MAX_BRACKETS + 1];
        int[] outerBinops = new int[MAX_BRACKETS + 1];
        int[] outerFlats = new int[MAX_BRACKETS + 1];
        int brackets = 0;
        int nesting = 0;
        // the current expression: where it starts, how many binary operators it has had (a chain
        // of them nests one level each, whatever its operands), whether a flat node (and, or, a
        // comparison: its operands are siblings) holds it
        int exprBase = 0;
        int binops = 0;
        int flat = 0;
        int previous = NEWLINE; // the previous token's type on this line
        int lineStart = -1; // index of the line's first token, -1 between lines
        LexError lineError = null;
        int n = tokens.size();
        for (int i = 0; i < n; i++) {
            Token t = tokens.get(i);
            if (t.getChannel() != Token.DEFAULT_CHANNEL) continue;
            int type = t.getType();
            if (type == NEWLINE || type == INDENT || type == DEDENT || type == Token.EOF) {
                if (lineError != null) {
                    poison(tokens, lineStart, i);
                    errors.add(new LexError(lineError.line(), lineError.column(), lineError.message(),
                            Math.max(t.getLine(), lineError.line()), tokens.get(lineStart).getLine()));
                }
                lineStart = -1;
                lineError = null;
                brackets = nesting = exprBase = binops = flat = 0;
                previous = NEWLINE;
                continue;
            }
            if (lineStart < 0) lineStart = i;
            if (lineError != null) continue;
            boolean afterOperand = endsOperand(previous);
            previous = type;
            switch (type) {
                case LPAR, LSQB, LBRACE, FSTRING_START -> {
                    if (brackets == MAX_BRACKETS) {
                        lineError = new LexError(t.getLine(), t.getCharPositionInLine(), "too many nested parentheses");
                        continue;
                    }
                    openers[brackets] = type;
                    bases[brackets] = nesting;
                    outerExprBases[brackets] = exprBase;
                    outerBinops[brackets] = binops;
                    outerFlats[brackets++] = flat;
                    nesting++;
                    exprBase = nesting;
                    binops = flat = 0;
                }
                case RPAR, RSQB, RBRACE, FSTRING_END -> {
                    if (brackets == 0) {
                        nesting++;
                    } else {
                        int k = --brackets;
                        // an f-string's replacement fields are siblings; anything else closed is
                        // an operand the next trailer (a call, a subscript, '.') nests in
                        boolean field = openers[k] == LBRACE && k > 0 && openers[k - 1] == FSTRING_START;
                        nesting = field ? bases[k] : bases[k] + 1;
                        exprBase = outerExprBases[k];
                        binops = outerBinops[k];
                        flat = outerFlats[k];
                    }
                }
                case COMMA -> {
                    nesting = exprBase = brackets > 0 ? bases[brackets - 1] + 1 : 0; // the level's next element
                    binops = flat = 0;
                }
                // what follows is a new expression one level below the current one's start (a
                // conditional's test and branch, a lambda's body, a walrus's value, a slice's or a
                // dict entry's second part), a sibling of what came before it in that node; operators
                // after it never bring the bound back above it
                case IF, LAMBDA, COLON, COLONEQUAL -> {
                    nesting = exprBase + 1;
                    exprBase = nesting;
                    binops = flat = 0;
                }
                // a conditional's other branch: a sibling of its test, at the level 'if' opened
                case ELSE -> {
                    nesting = exprBase;
                    binops = flat = 0;
                }
                case SEMI -> nesting = exprBase = binops = flat = 0;
                case EQUAL, PLUSEQUAL, MINEQUAL, STAREQUAL, SLASHEQUAL, PERCENTEQUAL, AMPEREQUAL, VBAREQUAL,
                     CIRCUMFLEXEQUAL, LEFTSHIFTEQUAL, RIGHTSHIFTEQUAL, DOUBLESTAREQUAL, DOUBLESLASHEQUAL, ATEQUAL -> {
                    if (brackets > 0) {
                        nesting++; // a keyword argument
                    } else {
                        nesting = exprBase = binops = flat = 0; // targets and value are siblings
                    }
                }
                case NAME, NUMBER, STRING, FSTRING_MIDDLE, TRUE, FALSE, NONE, ELLIPSIS -> { }
                case AND, OR, LESS, GREATER, EQEQUAL, NOTEQUAL, LESSEQUAL, GREATEREQUAL, IN, IS -> {
                    flat = 1;
                    nesting = exprBase + binops + flat;
                }
                case NOT -> {
                    if (afterOperand) { // `not in`
                        flat = 1;
                        nesting = exprBase + binops + flat;
                    } else {
                        nesting++;
                    }
                }
                case PLUS, MINUS, STAR, DOUBLESTAR, SLASH, DOUBLESLASH, PERCENT, AT, VBAR, AMPER, CIRCUMFLEX,
                     LEFTSHIFT, RIGHTSHIFT -> {
                    if (afterOperand) {
                        binops++;
                        nesting = exprBase + binops + flat;
                    } else {
                        nesting++; // unary, or a star before an operand
                    }
                }
                default -> nesting++;
            }
            if (nesting > MAX_NESTING) {
                lineError = new LexError(t.getLine(), t.getCharPositionInLine(),
                        "too deeply nested: more than " + MAX_NESTING + " levels of expressions in one statement");
            }
        }
    }

    /** Whether a token of this type ends an operand, so that a '+', '-', '*' or 'not' after it is binary. */
    private static boolean endsOperand(int type) {
        return switch (type) {
            case NAME, NUMBER, STRING, FSTRING_END, TRUE, FALSE, NONE, ELLIPSIS, RPAR, RSQB, RBRACE -> true;
            default -> false;
        };
    }

    /**
     * Hides tokens [from, end) from the parser but the first, which becomes an error token unless
     * it is a compound statement's keyword (its block is then recovered as the block of a broken
     * header, not reported as an unexpected indent).
     */
    private static void poison(List<Token> tokens, int from, int end) {
        if (from < 0) return;
        Token first = tokens.get(from);
        if (!StatementRecovery.isHeaderKeyword(first.getType()) && first instanceof CommonToken c) {
            c.setType(ERRORTOKEN);
        }
        for (int i = from + 1; i < end; i++) hide(tokens.get(i));
    }

    /**
     * The channel of what a limit hides: off the parser's channel, and taken out of the list by
     * {@link #apply} (a parser looking back from a rule's end walks over every off-channel token,
     * so a hidden region of 30,000 tokens made each rule after it cost that much).
     */
    private static final int CUT = 7;

    private static void hide(Token t) {
        if (t instanceof CommonToken c) c.setChannel(CUT);
    }

    /** Takes the tokens a limit hid out of the list, numbering the rest again. */
    private static void cut(List<Token> tokens) {
        if (!tokens.removeIf(t -> t.getChannel() == CUT)) return;
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.get(i) instanceof CommonToken c) c.setTokenIndex(i);
        }
    }
}
