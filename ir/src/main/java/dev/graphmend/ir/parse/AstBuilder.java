package dev.graphmend.ir.parse;

import static dev.graphmend.ir.grammar.PythonParser.*;

import dev.graphmend.ir.ast.Alias;
import dev.graphmend.ir.ast.Arg;
import dev.graphmend.ir.ast.Arguments;
import dev.graphmend.ir.ast.BoolOperator;
import dev.graphmend.ir.ast.CmpOperator;
import dev.graphmend.ir.ast.Comprehension;
import dev.graphmend.ir.ast.ExceptHandler;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.ExprContext;
import dev.graphmend.ir.ast.Keyword;
import dev.graphmend.ir.ast.MatchCase;
import dev.graphmend.ir.ast.Operator;
import dev.graphmend.ir.ast.Pattern;
import dev.graphmend.ir.ast.PyConstant;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.TypeParam;
import dev.graphmend.ir.ast.UnaryOperator;
import dev.graphmend.ir.ast.WithItem;
import dev.graphmend.ir.source.LineIndex;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Turns an error-free parse tree into CPython-shaped AST nodes with CPython's positions, and
 * reports the errors CPython finds after parsing proper (invalid targets, argument order,
 * bad escapes, ...). Spans come from tokens: columns are converted from code points to UTF-8
 * bytes through the {@link LineIndex}.
 */
final class AstBuilder {
    private final LineIndex lines;
    private final CharStream chars;
    private final List<SyntaxError> errors;
    /** Error recovery: block bodies recovered separately, keyed by the block's INDENT token. */
    private final java.util.Map<Token, List<Stmt>> recoveredBodies;
    private final int lineOffset;

    AstBuilder(LineIndex lines, CharStream chars, List<SyntaxError> errors) {
        this(lines, chars, errors, java.util.Map.of());
    }

    AstBuilder(LineIndex lines, CharStream chars, List<SyntaxError> errors, java.util.Map<Token, List<Stmt>> recoveredBodies) {
        this(lines, chars, errors, recoveredBodies, 0);
    }

    /**
     * {@code lineOffset}: the text is a fragment of a file starting at line {@code lineOffset + 1};
     * tokens carry file lines, {@code lines} and {@code chars} index the fragment.
     */
    AstBuilder(LineIndex lines, CharStream chars, List<SyntaxError> errors, java.util.Map<Token, List<Stmt>> recoveredBodies,
               int lineOffset) {
        this.lineOffset = lineOffset;
        this.lines = lines;
        this.chars = chars;
        this.errors = errors;
        this.recoveredBodies = recoveredBodies;
    }

    // ================================================================ positions

    private int startCol(Token t) {
        return lines.utf8Column(t.getLine() - lineOffset, t.getCharPositionInLine());
    }

    private static boolean mayContainNewline(int type) {
        return type == STRING || type == FSTRING_MIDDLE || type == ERRORTOKEN;
    }

    private int endLine(Token t) {
        if (!mayContainNewline(t.getType())) return t.getLine();
        return lines.lineOfCodePoint(t.getStopIndex() + 1) + lineOffset;
    }

    private int endCol(Token t) {
        if (!mayContainNewline(t.getType())) {
            int cp = t.getCharPositionInLine() + (t.getStopIndex() - t.getStartIndex() + 1);
            return lines.utf8Column(t.getLine() - lineOffset, cp);
        }
        int end = t.getStopIndex() + 1;
        int line = lines.lineOfCodePoint(end);
        return lines.utf8Column(line, end - lines.lineStartCodePoint(line)); // fragment-local line
    }

    private Span span(Token start, Token stop) {
        return new Span(start.getLine(), startCol(start), endLine(stop), endCol(stop));
    }

    private Span span(ParserRuleContext c) {
        return span(c.start, c.stop);
    }

    private Span span(Token start, Span end) {
        return new Span(start.getLine(), startCol(start), end.endLine(), end.endCol());
    }

    /** From a token's start to another token's start (exclusive end). */
    private Span spanToStart(Token start, Token endExclusive) {
        return new Span(start.getLine(), startCol(start), endExclusive.getLine(), startCol(endExclusive));
    }

    private void error(Token at, String message) {
        errors.add(new SyntaxError(at.getLine(), at.getCharPositionInLine() + 1, message));
    }

    private void error(ParserRuleContext at, String message) {
        error(at.start, message);
    }

    /**
     * Where a compound statement ends: its last token that is not a NEWLINE, INDENT or DEDENT
     * (so a trailing ';' counts, as in CPython); a block replaced by error recovery ends with
     * its last recovered statement.
     */
    private Span endOf(ParserRuleContext c) {
        for (int i = c.getChildCount() - 1; i >= 0; i--) {
            ParseTree child = c.getChild(i);
            if (child instanceof TerminalNode tn) {
                int type = tn.getSymbol().getType();
                if (type != NEWLINE && type != INDENT && type != DEDENT && type != Token.EOF) {
                    return span(tn.getSymbol(), tn.getSymbol());
                }
            } else {
                if (child instanceof BlockContext b && !recoveredBodies.isEmpty() && b.INDENT() != null) {
                    List<Stmt> recovered = recoveredBodies.get(b.INDENT().getSymbol());
                    if (recovered != null) return lastSpan(recovered);
                }
                Span end = endOf((ParserRuleContext) child);
                if (end != null) return end;
            }
        }
        return null;
    }

    private static Span lastSpan(List<Stmt> body) {
        return body.get(body.size() - 1).span();
    }

    // ================================================================ statements

    List<Stmt> fileInput(File_inputContext f) {
        List<Stmt> body = new ArrayList<>();
        for (StmtContext s : f.stmt()) stmt(s, body);
        return body;
    }

    void stmt(StmtContext s, List<Stmt> out) {
        if (s.compound_stmt() != null) {
            out.add(compound(s.compound_stmt()));
        } else {
            simpleStmts(s.simple_stmts(), out);
        }
    }

    private void simpleStmts(Simple_stmtsContext s, List<Stmt> out) {
        for (Simple_stmtContext ss : s.simple_stmt()) out.add(simple(ss));
    }

    private List<Stmt> block(BlockContext b) {
        if (!recoveredBodies.isEmpty() && b.INDENT() != null) {
            List<Stmt> recovered = recoveredBodies.get(b.INDENT().getSymbol());
            if (recovered != null) return recovered;
        }
        List<Stmt> out = new ArrayList<>();
        if (b.simple_stmts() != null) {
            simpleStmts(b.simple_stmts(), out);
        } else {
            for (StmtContext s : b.stmt()) stmt(s, out);
        }
        return out;
    }

    private Stmt simple(Simple_stmtContext s) {
        Span sp = span(s);
        ParseTree c = s.getChild(0);
        if (c instanceof Expr_stmtContext e) return exprStmt(e, sp);
        if (c instanceof Return_stmtContext r) {
            return new Stmt.Return(r.star_expressions() == null ? null : starExpressions(r.star_expressions()), sp);
        }
        if (c instanceof Import_stmtContext i) return importStmt(i, sp);
        if (c instanceof Raise_stmtContext r) {
            List<TestContext> t = r.test();
            return new Stmt.Raise(t.isEmpty() ? null : test(t.get(0)), t.size() > 1 ? test(t.get(1)) : null, sp);
        }
        if (c instanceof Del_stmtContext d) {
            List<Expr> targets = new ArrayList<>();
            for (Star_or_bitorContext t : d.del_targets().star_or_bitor()) {
                targets.add(target(starOrBitor(t), ExprContext.Del, t));
            }
            return new Stmt.Delete(targets, sp);
        }
        if (c instanceof Assert_stmtContext a) {
            return new Stmt.Assert(test(a.test(0)), a.test().size() > 1 ? test(a.test(1)) : null, sp);
        }
        if (c instanceof Global_stmtContext g) return new Stmt.Global(names(g.name()), sp);
        if (c instanceof Nonlocal_stmtContext n) return new Stmt.Nonlocal(names(n.name()), sp);
        if (c instanceof Type_aliasContext t) {
            NameContext n = t.name();
            Expr.Name name = new Expr.Name(identifier(n), ExprContext.Store, span(n));
            return new Stmt.TypeAlias(name, typeParams(t.type_params()), test(t.test()), sp);
        }
        Token tok = ((TerminalNode) c).getSymbol();
        switch (tok.getType()) {
            case PASS: return new Stmt.Pass(sp);
            case BREAK: return new Stmt.Break(sp);
            default: return new Stmt.Continue(sp);
        }
    }

    private List<String> names(List<NameContext> ns) {
        List<String> out = new ArrayList<>(ns.size());
        for (NameContext n : ns) out.add(identifier(n));
        return out;
    }

    private Stmt exprStmt(Expr_stmtContext e, Span sp) {
        List<Star_expressions_or_yieldContext> parts = e.star_expressions_or_yield();
        Star_expressions_or_yieldContext first = parts.get(0);
        Expr firstExpr = starExpressionsOrYield(first);
        if (e.annassign() != null) {
            AnnassignContext a = e.annassign();
            Expr target = firstExpr;
            if (!(target instanceof Expr.Name || target instanceof Expr.Attribute || target instanceof Expr.Subscript)) {
                error(first, target instanceof Expr.Tuple ? "only single target (not tuple) can be annotated"
                        : target instanceof Expr.List ? "only single target (not list) can be annotated"
                        : "illegal target for annotation");
            } else {
                target = target(target, ExprContext.Store, first);
            }
            int simple = (firstExpr instanceof Expr.Name && first.start.getType() != LPAR) ? 1 : 0;
            Expr value = a.star_expressions_or_yield() == null ? null : starExpressionsOrYield(a.star_expressions_or_yield());
            return new Stmt.AnnAssign(target, test(a.test()), value, simple, sp);
        }
        if (e.augassign() != null) {
            Expr target = firstExpr;
            if (!(target instanceof Expr.Name || target instanceof Expr.Attribute || target instanceof Expr.Subscript)) {
                error(first, "'" + describe(target) + "' is an illegal expression for augmented assignment");
            } else {
                target = target(target, ExprContext.Store, first);
            }
            Operator op = augOp(e.augassign().start.getType());
            return new Stmt.AugAssign(target, op, starExpressionsOrYield(e.rhs_aug), sp);
        }
        if (parts.size() > 1) {
            List<Expr> targets = new ArrayList<>(parts.size() - 1);
            targets.add(target(firstExpr, ExprContext.Store, first));
            for (int i = 1; i < parts.size() - 1; i++) {
                targets.add(target(starExpressionsOrYield(parts.get(i)), ExprContext.Store, parts.get(i)));
            }
            return new Stmt.Assign(targets, starExpressionsOrYield(parts.get(parts.size() - 1)), null, sp);
        }
        return new Stmt.Expr(firstExpr, sp);
    }

    private static Operator augOp(int type) {
        switch (type) {
            case PLUSEQUAL: return Operator.Add;
            case MINEQUAL: return Operator.Sub;
            case STAREQUAL: return Operator.Mult;
            case ATEQUAL: return Operator.MatMult;
            case SLASHEQUAL: return Operator.Div;
            case PERCENTEQUAL: return Operator.Mod;
            case AMPEREQUAL: return Operator.BitAnd;
            case VBAREQUAL: return Operator.BitOr;
            case CIRCUMFLEXEQUAL: return Operator.BitXor;
            case LEFTSHIFTEQUAL: return Operator.LShift;
            case RIGHTSHIFTEQUAL: return Operator.RShift;
            case DOUBLESTAREQUAL: return Operator.Pow;
            default: return Operator.FloorDiv;
        }
    }

    private Stmt importStmt(Import_stmtContext i, Span sp) {
        if (i instanceof ImportNameContext in) {
            List<Alias> names = new ArrayList<>();
            for (Dotted_as_nameContext d : in.dotted_as_name()) {
                names.add(new Alias(dottedName(d.dotted_name()), d.name() == null ? null : identifier(d.name()), span(d)));
            }
            return new Stmt.Import(names, sp);
        }
        ImportFromContext f = (ImportFromContext) i;
        int level = 0;
        for (Import_dotsContext d : f.import_dots()) level += d.ELLIPSIS() != null ? 3 : 1;
        String module = f.dotted_name() == null ? null : dottedName(f.dotted_name());
        if (module == null && level == 0) {
            // `from import x`: the grammar's optional parts both missing, which CPython's grammar forbids
            error(f.IMPORT().getSymbol(), "invalid syntax");
        }
        List<Alias> names = new ArrayList<>();
        if (f.STAR() != null) {
            names.add(new Alias("*", null, span(f.STAR().getSymbol(), f.STAR().getSymbol())));
        } else {
            for (Import_as_nameContext n : f.import_as_names().import_as_name()) {
                names.add(new Alias(identifier(n.name(0)), n.name().size() > 1 ? identifier(n.name(1)) : null, span(n)));
            }
        }
        return new Stmt.ImportFrom(module, names, level, sp);
    }

    private String dottedName(Dotted_nameContext d) {
        List<NameContext> parts = d.name();
        if (parts.size() == 1) return identifier(parts.get(0));
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < parts.size(); k++) {
            if (k > 0) sb.append('.');
            sb.append(identifier(parts.get(k)));
        }
        return sb.toString().intern();
    }

    private Stmt compound(Compound_stmtContext c) {
        ParseTree x = c.getChild(0);
        if (x instanceof If_stmtContext s) return ifStmt(s);
        if (x instanceof FuncdefContext f) return funcdef(f, List.of(), null);
        if (x instanceof ClassdefContext k) return classdef(k, List.of());
        if (x instanceof For_stmtContext f) return forStmt(f, null);
        if (x instanceof While_stmtContext w) return whileStmt(w);
        if (x instanceof Try_stmtContext t) return tryStmt(t);
        if (x instanceof With_stmtContext w) return withStmt(w, null);
        if (x instanceof DecoratedContext d) return decorated(d);
        if (x instanceof Async_stmtContext a) return asyncStmt(a, List.of());
        return matchStmt((Match_stmtContext) x);
    }

    private Stmt asyncStmt(Async_stmtContext a, List<Expr> decorators) {
        Token async = a.ASYNC().getSymbol();
        if (a.funcdef() != null) return funcdef(a.funcdef(), decorators, async);
        if (!decorators.isEmpty()) error(a, "invalid syntax");
        if (a.with_stmt() != null) return withStmt(a.with_stmt(), async);
        return forStmt(a.for_stmt(), async);
    }

    private Stmt decorated(DecoratedContext d) {
        List<Expr> decorators = new ArrayList<>();
        for (DecoratorContext dc : d.decorator()) decorators.add(namedexprTest(dc.namedexpr_test()));
        if (d.classdef() != null) return classdef(d.classdef(), decorators);
        if (d.funcdef() != null) return funcdef(d.funcdef(), decorators, null);
        return asyncStmt(d.async_stmt(), decorators);
    }

    private Stmt ifStmt(If_stmtContext s) {
        List<Stmt> orelse = s.else_clause() == null ? List.of() : block(s.else_clause().block());
        List<Elif_clauseContext> elifs = s.elif_clause();
        Span end = endOf(s);
        for (int i = elifs.size() - 1; i >= 0; i--) {
            Elif_clauseContext e = elifs.get(i);
            List<Stmt> body = block(e.block());
            orelse = List.of(new Stmt.If(namedexprTest(e.namedexpr_test()), body, orelse, span(e.start, end)));
        }
        List<Stmt> body = block(s.block());
        return new Stmt.If(namedexprTest(s.namedexpr_test()), body, orelse, span(s.start, end));
    }

    private Stmt whileStmt(While_stmtContext w) {
        List<Stmt> body = block(w.block());
        List<Stmt> orelse = w.else_clause() == null ? List.of() : block(w.else_clause().block());
        return new Stmt.While(namedexprTest(w.namedexpr_test()), body, orelse, span(w.start, endOf(w)));
    }

    private Stmt forStmt(For_stmtContext f, Token async) {
        Expr target = target(targets(f.targets()), ExprContext.Store, f.targets());
        Expr iter = starExpressions(f.star_expressions());
        List<Stmt> body = block(f.block());
        List<Stmt> orelse = f.else_clause() == null ? List.of() : block(f.else_clause().block());
        Span end = endOf(f);
        if (async != null) return new Stmt.AsyncFor(target, iter, body, orelse, null, span(async, end));
        return new Stmt.For(target, iter, body, orelse, null, span(f.start, end));
    }

    private Stmt tryStmt(Try_stmtContext t) {
        List<Stmt> body = block(t.block());
        List<ExceptHandler> handlers = new ArrayList<>();
        boolean star = false;
        boolean plain = false;
        for (Except_clauseContext e : t.except_clause()) {
            if (e.STAR() != null) {
                star = true;
                if (e.test() == null) error(e, "expected one or more exception types");
            } else {
                plain = true;
            }
            List<Stmt> hbody = block(e.block());
            handlers.add(new ExceptHandler(e.test() == null ? null : test(e.test()),
                    e.name() == null ? null : identifier(e.name()), hbody, span(e.start, endOf(e))));
        }
        if (star && plain) error(t, "cannot have both 'except' and 'except*' on the same 'try'");
        List<Stmt> orelse = t.else_clause() == null ? List.of() : block(t.else_clause().block());
        List<Stmt> finalbody = t.finally_clause() == null ? List.of() : block(t.finally_clause().block());
        if (handlers.isEmpty() && finalbody.isEmpty()) error(t, "expected 'except' or 'finally' block");
        if (handlers.isEmpty() && !orelse.isEmpty()) error(t.else_clause(), "invalid syntax");
        Span sp = span(t.start, endOf(t));
        if (star) return new Stmt.TryStar(body, handlers, orelse, finalbody, sp);
        return new Stmt.Try(body, handlers, orelse, finalbody, sp);
    }

    private Stmt withStmt(With_stmtContext w, Token async) {
        List<WithItem> items = new ArrayList<>();
        for (With_itemContext i : w.with_item()) {
            Expr vars = null;
            if (i.star_or_bitor() != null) {
                vars = target(starOrBitor(i.star_or_bitor()), ExprContext.Store, i.star_or_bitor());
            }
            items.add(new WithItem(test(i.test()), vars));
        }
        List<Stmt> body = block(w.block());
        if (async != null) return new Stmt.AsyncWith(items, body, null, span(async, endOf(w)));
        return new Stmt.With(items, body, null, span(w.start, endOf(w)));
    }

    private Stmt funcdef(FuncdefContext f, List<Expr> decorators, Token async) {
        String name = identifier(f.name());
        List<TypeParam> tparams = typeParams(f.type_params());
        Arguments args = f.parameters() == null ? emptyArguments() : parameters(f.parameters());
        Expr returns = f.test() == null ? null : test(f.test());
        List<Stmt> body = block(f.block());
        if (async != null) {
            return new Stmt.AsyncFunctionDef(name, args, body, decorators, returns, null, tparams, span(async, endOf(f)));
        }
        return new Stmt.FunctionDef(name, args, body, decorators, returns, null, tparams, span(f.start, endOf(f)));
    }

    private static Arguments emptyArguments() {
        return new Arguments(List.of(), List.of(), null, List.of(), List.of(), null, List.of());
    }

    /** One parameter of a def or lambda, before CPython's ordering rules sort it into Arguments. */
    private record Param(ParamKind kind, Arg arg, Expr dflt, ParserRuleContext where) {}

    private enum ParamKind { PLAIN, STAR, BARE_STAR, DOUBLE_STAR, SLASH }

    private Arguments parameters(ParametersContext p) {
        List<Param> params = new ArrayList<>();
        for (ParamContext pc : p.param()) {
            if (pc instanceof PlainParamContext pp) {
                Expr ann = pp.COLON() == null ? null : test(pp.test(0));
                Expr dflt = pp.EQUAL() == null ? null : test(pp.test(pp.test().size() - 1));
                Arg a = new Arg(identifier(pp.name()), ann, null, span(pp.start, ann != null ? pp.test(0).stop : pp.name().stop));
                params.add(new Param(ParamKind.PLAIN, a, dflt, pc));
            } else if (pc instanceof StarParamContext sp) {
                if (sp.name() == null) {
                    params.add(new Param(ParamKind.BARE_STAR, null, null, pc));
                } else {
                    Expr ann = sp.star_or_test() == null ? null : starOrTest(sp.star_or_test());
                    Arg a = new Arg(identifier(sp.name()), ann, null,
                            span(sp.name().start, ann != null ? sp.star_or_test().stop : sp.name().stop));
                    params.add(new Param(ParamKind.STAR, a, null, pc));
                }
            } else if (pc instanceof KwParamContext kp) {
                Expr ann = kp.test() == null ? null : test(kp.test());
                Arg a = new Arg(identifier(kp.name()), ann, null, span(kp.name().start, ann != null ? kp.test().stop : kp.name().stop));
                params.add(new Param(ParamKind.DOUBLE_STAR, a, null, pc));
            } else {
                params.add(new Param(ParamKind.SLASH, null, null, pc));
            }
        }
        return arguments(params, p);
    }

    private Arguments lambdaParams(Lambda_paramsContext p) {
        List<Param> params = new ArrayList<>();
        for (Lambda_paramContext pc : p.lambda_param()) {
            if (pc instanceof LambdaPlainParamContext pp) {
                Expr dflt = pp.test() == null ? null : test(pp.test());
                params.add(new Param(ParamKind.PLAIN, new Arg(identifier(pp.name()), null, null, span(pp.name())), dflt, pc));
            } else if (pc instanceof LambdaStarParamContext sp) {
                params.add(sp.name() == null ? new Param(ParamKind.BARE_STAR, null, null, pc)
                        : new Param(ParamKind.STAR, new Arg(identifier(sp.name()), null, null, span(sp.name())), null, pc));
            } else if (pc instanceof LambdaKwParamContext kp) {
                params.add(new Param(ParamKind.DOUBLE_STAR, new Arg(identifier(kp.name()), null, null, span(kp.name())), null, pc));
            } else {
                params.add(new Param(ParamKind.SLASH, null, null, pc));
            }
        }
        return arguments(params, p);
    }

    /** Sorts parameters into CPython's Arguments, reporting its ordering errors. */
    private Arguments arguments(List<Param> params, ParserRuleContext list) {
        List<Arg> posonly = new ArrayList<>();
        List<Arg> args = new ArrayList<>();
        List<Arg> kwonly = new ArrayList<>();
        List<Expr> kwDefaults = new ArrayList<>();
        List<Expr> defaults = new ArrayList<>();
        Arg vararg = null;
        Arg kwarg = null;
        boolean star = false;
        boolean slash = false;
        boolean bareStar = false;
        for (Param p : params) {
            if (kwarg != null) error(p.where(), "arguments cannot follow var-keyword argument");
            switch (p.kind()) {
                case PLAIN:
                    if (star) {
                        kwonly.add(p.arg());
                        kwDefaults.add(p.dflt());
                        bareStar = false;
                    } else {
                        args.add(p.arg());
                        if (p.dflt() != null) defaults.add(p.dflt());
                        else if (!defaults.isEmpty()) error(p.where(), "parameter without a default follows parameter with a default");
                    }
                    break;
                case STAR:
                case BARE_STAR:
                    if (star) error(p.where(), "* argument may appear only once");
                    star = true;
                    if (p.kind() == ParamKind.STAR) vararg = p.arg();
                    else bareStar = true;
                    break;
                case DOUBLE_STAR:
                    kwarg = p.arg();
                    break;
                default:
                    if (slash) error(p.where(), "/ may appear only once");
                    else if (star) error(p.where(), "/ must be ahead of *");
                    else if (args.isEmpty()) error(p.where(), "at least one argument must precede /");
                    slash = true;
                    posonly.addAll(args);
                    args.clear();
            }
        }
        if (bareStar) error(list, "named arguments must follow bare *");
        return new Arguments(posonly, args, vararg, kwonly, kwDefaults, kwarg, defaults);
    }

    private Stmt classdef(ClassdefContext k, List<Expr> decorators) {
        String name = identifier(k.name());
        List<TypeParam> tparams = typeParams(k.type_params());
        List<Expr> bases = new ArrayList<>();
        List<Keyword> keywords = new ArrayList<>();
        if (k.arglist() != null) arglist(k.arglist(), bases, keywords, null);
        List<Stmt> body = block(k.block());
        return new Stmt.ClassDef(name, bases, keywords, body, decorators, tparams, span(k.start, endOf(k)));
    }

    private List<TypeParam> typeParams(Type_paramsContext t) {
        if (t == null) return List.of();
        List<TypeParam> out = new ArrayList<>();
        for (Type_paramContext p : t.type_param()) {
            if (p instanceof TypeVarContext v) {
                Expr bound = v.COLON() == null ? null : test(v.test(0));
                Expr dflt = v.EQUAL() == null ? null : test(v.test(v.test().size() - 1));
                out.add(new TypeParam.TypeVar(identifier(v.name()), bound, dflt, span(v)));
            } else if (p instanceof TypeVarTupleContext v) {
                Expr dflt = v.star_or_test() == null ? null : starOrTest(v.star_or_test());
                out.add(new TypeParam.TypeVarTuple(identifier(v.name()), dflt, span(v)));
            } else {
                ParamSpecContext v = (ParamSpecContext) p;
                Expr dflt = v.test() == null ? null : test(v.test());
                out.add(new TypeParam.ParamSpec(identifier(v.name()), dflt, span(v)));
            }
        }
        return out;
    }

    // ================================================================ match

    private Stmt matchStmt(Match_stmtContext m) {
        SubjectContext s = m.subject();
        Expr subject;
        if (s.star_named_expression().size() == 1 && s.COMMA().isEmpty()) {
            subject = starNamedExpression(s.star_named_expression(0));
            if (subject instanceof Expr.Starred) error(s, "cannot use starred expression here");
        } else {
            List<Expr> elts = new ArrayList<>();
            for (Star_named_expressionContext e : s.star_named_expression()) elts.add(starNamedExpression(e));
            subject = new Expr.Tuple(elts, ExprContext.Load, span(s));
        }
        List<MatchCase> cases = new ArrayList<>();
        for (Case_blockContext c : m.case_block()) {
            Pattern p = patterns(c.patterns());
            Expr guard = c.namedexpr_test() == null ? null : namedexprTest(c.namedexpr_test());
            cases.add(new MatchCase(p, guard, block(c.block())));
        }
        return new Stmt.Match(subject, cases, span(m.start, endOf(m)));
    }

    private Pattern patterns(PatternsContext p) {
        if (p.pattern().size() == 1 && p.COMMA().isEmpty()) return pattern(p.pattern(0));
        List<Pattern> items = new ArrayList<>();
        for (PatternContext x : p.pattern()) items.add(pattern(x));
        return new Pattern.MatchSequence(items, span(p));
    }

    private Pattern pattern(PatternContext p) {
        Pattern inner = orPattern(p.or_pattern());
        if (p.AS() == null) return inner;
        String name = identifier(p.name());
        if (name.equals("_")) error(p.name(), "cannot use '_' as a target");
        return new Pattern.MatchAs(inner, name, span(p));
    }

    private Pattern orPattern(Or_patternContext o) {
        List<Closed_patternContext> alts = o.closed_pattern();
        if (alts.size() == 1) return closedPattern(alts.get(0));
        List<Pattern> ps = new ArrayList<>();
        for (Closed_patternContext c : alts) ps.add(closedPattern(c));
        return new Pattern.MatchOr(ps, span(o));
    }

    private Pattern closedPattern(Closed_patternContext c) {
        Span sp = span(c);
        if (c instanceof LiteralPatternContext l) {
            Literal_patternContext lp = l.literal_pattern();
            if (lp.NONE() != null) return new Pattern.MatchSingleton(PyConstant.Singleton.NONE, sp);
            if (lp.TRUE() != null) return new Pattern.MatchSingleton(Boolean.TRUE, sp);
            if (lp.FALSE() != null) return new Pattern.MatchSingleton(Boolean.FALSE, sp);
            return new Pattern.MatchValue(literalPatternValue(lp), sp);
        }
        if (c instanceof NameOrClassPatternContext n) {
            Name_or_attrContext na = n.name_or_attr();
            if (n.LPAR() != null) {
                Expr cls = nameOrAttr(na);
                List<Pattern> patterns = new ArrayList<>();
                List<String> kwdAttrs = new ArrayList<>();
                List<Pattern> kwdPatterns = new ArrayList<>();
                if (n.pattern_args() != null) {
                    for (Pattern_argContext a : n.pattern_args().pattern_arg()) {
                        if (a.name() != null) {
                            kwdAttrs.add(identifier(a.name()));
                            kwdPatterns.add(pattern(a.pattern()));
                        } else {
                            if (!kwdAttrs.isEmpty()) error(a, "positional patterns follow keyword patterns");
                            patterns.add(pattern(a.pattern()));
                        }
                    }
                }
                return new Pattern.MatchClass(cls, patterns, kwdAttrs, kwdPatterns, sp);
            }
            if (na.name().size() == 1) {
                String id = identifier(na.name(0));
                return new Pattern.MatchAs(null, id.equals("_") ? null : id, sp);
            }
            return new Pattern.MatchValue(nameOrAttr(na), sp);
        }
        if (c instanceof GroupOrTuplePatternContext g) {
            Pattern_listContext pl = g.pattern_list();
            if (pl == null) return new Pattern.MatchSequence(List.of(), sp);
            if (pl.pattern().size() == 1 && pl.COMMA().isEmpty()) return pattern(pl.pattern(0));
            return new Pattern.MatchSequence(patternList(pl), sp);
        }
        if (c instanceof ListPatternContext l) {
            return new Pattern.MatchSequence(l.pattern_list() == null ? List.of() : patternList(l.pattern_list()), sp);
        }
        if (c instanceof StarPatternContext s) {
            String id = identifier(s.name());
            return new Pattern.MatchStar(id.equals("_") ? null : id, sp);
        }
        MappingPatternContext m = (MappingPatternContext) c;
        List<Expr> keys = new ArrayList<>();
        List<Pattern> values = new ArrayList<>();
        String rest = null;
        if (m.mapping_items() != null) {
            for (Mapping_itemContext item : m.mapping_items().mapping_item()) {
                if (rest != null) error(item, "invalid syntax");
                if (item.DOUBLESTAR() != null) {
                    rest = identifier(item.name());
                    continue;
                }
                if (item.literal_pattern() != null) {
                    Literal_patternContext lp = item.literal_pattern();
                    if (lp.NONE() != null) keys.add(new Expr.Constant(PyConstant.Singleton.NONE, null, span(lp)));
                    else if (lp.TRUE() != null) keys.add(new Expr.Constant(Boolean.TRUE, null, span(lp)));
                    else if (lp.FALSE() != null) keys.add(new Expr.Constant(Boolean.FALSE, null, span(lp)));
                    else keys.add(literalPatternValue(lp));
                } else {
                    if (item.name_or_attr().name().size() == 1) {
                        error(item, "mapping pattern keys may only match literals and attribute lookups");
                    }
                    keys.add(nameOrAttr(item.name_or_attr()));
                }
                values.add(pattern(item.pattern()));
            }
        }
        return new Pattern.MatchMapping(keys, values, rest, sp);
    }

    private List<Pattern> patternList(Pattern_listContext pl) {
        List<Pattern> out = new ArrayList<>();
        for (PatternContext p : pl.pattern()) out.add(pattern(p));
        return out;
    }

    private Expr literalPatternValue(Literal_patternContext lp) {
        if (lp.strings() != null) {
            Expr s = strings(lp.strings());
            if (s instanceof Expr.JoinedStr) error(lp, "patterns may only match literals and attribute lookups");
            return s;
        }
        List<TerminalNode> nums = lp.NUMBER();
        Token first = nums.get(0).getSymbol();
        Expr left = numberConstant(first);
        if (lp.start.getType() == MINUS) {
            left = new Expr.UnaryOp(UnaryOperator.USub, left, span(lp.start, first));
        }
        if (nums.size() > 1) {
            Token second = nums.get(1).getSymbol();
            Expr right = numberConstant(second);
            if (!(((Expr.Constant) right).value() instanceof PyConstant.Complex)) {
                error(second, "imaginary number required in complex literal");
            }
            Operator op = lp.PLUS() != null ? Operator.Add : Operator.Sub;
            left = new Expr.BinOp(left, op, right, span(lp));
        }
        return left;
    }

    private Expr nameOrAttr(Name_or_attrContext na) {
        List<NameContext> parts = na.name();
        Token start = parts.get(0).start;
        Expr e = new Expr.Name(identifier(parts.get(0)), ExprContext.Load, span(parts.get(0)));
        for (int i = 1; i < parts.size(); i++) {
            e = new Expr.Attribute(e, identifier(parts.get(i)), ExprContext.Load, span(start, parts.get(i).stop));
        }
        return e;
    }

    // ================================================================ expressions

    Expr starExpressionsOrYield(Star_expressions_or_yieldContext c) {
        if (c.yield_expr() != null) return yieldExpr(c.yield_expr());
        return starExpressions(c.star_expressions());
    }

    Expr starExpressions(Star_expressionsContext c) {
        // the common single item first: the generated accessors scan and copy the children
        if (c.getChildCount() == 1 && c.getChild(0) instanceof Star_or_testContext only) return starOrTest(only);
        List<Star_or_testContext> items = c.star_or_test();
        if (items.size() == 1 && c.COMMA().isEmpty()) return starOrTest(items.get(0));
        List<Expr> elts = new ArrayList<>(items.size());
        for (Star_or_testContext i : items) elts.add(starOrTest(i));
        return new Expr.Tuple(elts, ExprContext.Load, span(c));
    }

    private Expr starOrTest(Star_or_testContext c) {
        if (c.getChildCount() == 1 && c.getChild(0) instanceof TestContext t) return test(t);
        if (c.star_expr() != null) return starExpr(c.star_expr());
        return test(c.test());
    }

    private Expr starExpr(Star_exprContext c) {
        return new Expr.Starred(bitexpr(c.bitexpr()), ExprContext.Load, span(c));
    }

    private Expr starNamedExpression(Star_named_expressionContext c) {
        if (c.star_expr() != null) return starExpr(c.star_expr());
        return namedexprTest(c.namedexpr_test());
    }

    Expr namedexprTest(Namedexpr_testContext c) {
        if (c.getChildCount() == 1 && c.getChild(0) instanceof TestContext only) return test(only);
        List<TestContext> t = c.test();
        if (t.size() == 1) return test(t.get(0));
        return namedExpr(test(t.get(0)), t.get(0), test(t.get(1)), span(c));
    }

    private Expr namedExpr(Expr target, ParserRuleContext targetCtx, Expr value, Span sp) {
        if (target instanceof Expr.Name n) {
            target = new Expr.Name(n.id(), ExprContext.Store, n.span());
        } else {
            error(targetCtx, "cannot use assignment expressions with " + describe(target));
        }
        return new Expr.NamedExpr(target, value, sp);
    }

    Expr test(TestContext c) {
        if (c.getChildCount() == 1 && c.getChild(0) instanceof DisjunctionContext only) return disjunction(only);
        if (c.lambdef() != null) return lambdef(c.lambdef());
        List<DisjunctionContext> d = c.disjunction();
        Expr body = disjunction(d.get(0));
        if (d.size() == 1) return body;
        return new Expr.IfExp(disjunction(d.get(1)), body, test(c.test()), span(c));
    }

    private Expr lambdef(LambdefContext l) {
        Arguments args = l.lambda_params() == null ? emptyArguments() : lambdaParams(l.lambda_params());
        return new Expr.Lambda(args, test(l.test()), span(l));
    }

    Expr disjunction(DisjunctionContext c) {
        if (c instanceof NotExprContext n) return new Expr.UnaryOp(UnaryOperator.Not, disjunction(n.disjunction()), span(c));
        if (c instanceof OrExprContext || c instanceof AndExprContext) {
            // `a or b or c` is one BoolOp; the rule nests it as ((a or b) or c)
            boolean or = c instanceof OrExprContext;
            List<DisjunctionContext> operands = new ArrayList<>();
            flatten(c, or ? OrExprContext.class : AndExprContext.class, operands);
            List<Expr> values = new ArrayList<>(operands.size());
            for (DisjunctionContext d : operands) values.add(disjunction(d));
            return new Expr.BoolOp(or ? BoolOperator.Or : BoolOperator.And, values, span(c));
        }
        return comparison(c.getChild(0) instanceof ComparisonContext first ? first : ((ComparisonExprContext) c).comparison());
    }

    private Expr comparison(ComparisonContext c) {
        if (c.getChildCount() == 1 && c.getChild(0) instanceof BitexprContext only) return bitexpr(only);
        List<BitexprContext> parts = c.bitexpr();
        if (parts.size() == 1) return bitexpr(parts.get(0));
        List<CmpOperator> ops = new ArrayList<>();
        List<Expr> comparators = new ArrayList<>();
        for (Comp_opContext op : c.comp_op()) ops.add(cmpOp(op));
        for (int i = 1; i < parts.size(); i++) comparators.add(bitexpr(parts.get(i)));
        return new Expr.Compare(bitexpr(parts.get(0)), ops, comparators, span(c));
    }

    /** The operands of a left-nested chain of one boolean operator, in source order. */
    private static void flatten(DisjunctionContext c, Class<? extends DisjunctionContext> kind, List<DisjunctionContext> out) {
        if (kind.isInstance(c)) {
            flatten(c.getRuleContext(DisjunctionContext.class, 0), kind, out);
            out.add(c.getRuleContext(DisjunctionContext.class, 1));
        } else {
            out.add(c);
        }
    }

    private static CmpOperator cmpOp(Comp_opContext op) {
        switch (op.start.getType()) {
            case LESS: return CmpOperator.Lt;
            case GREATER: return CmpOperator.Gt;
            case EQEQUAL: return CmpOperator.Eq;
            case GREATEREQUAL: return CmpOperator.GtE;
            case LESSEQUAL: return CmpOperator.LtE;
            case NOTEQUAL: return CmpOperator.NotEq;
            case IN: return CmpOperator.In;
            case NOT: return CmpOperator.NotIn;
            default: return op.getChildCount() > 1 ? CmpOperator.IsNot : CmpOperator.Is;
        }
    }

    Expr bitexpr(BitexprContext c) {
        if (c instanceof PrimaryExprContext p) {
            return awaitPrimary(p.getChild(0) instanceof Await_primaryContext first ? first : p.await_primary());
        }
        if (c instanceof BinaryExprContext b) {
            // a BinOp spans its operands' tokens: `(a + b) * c` starts at the parenthesis
            return new Expr.BinOp(bitexpr(b.bitexpr(0)), binOp(b.op.getType()), bitexpr(b.bitexpr(1)), span(b));
        }
        UnaryExprContext u = (UnaryExprContext) c;
        UnaryOperator op;
        switch (u.op.getType()) {
            case PLUS: op = UnaryOperator.UAdd; break;
            case MINUS: op = UnaryOperator.USub; break;
            default: op = UnaryOperator.Invert;
        }
        return new Expr.UnaryOp(op, bitexpr(u.bitexpr()), span(u));
    }

    private static Operator binOp(int type) {
        switch (type) {
            case VBAR: return Operator.BitOr;
            case CIRCUMFLEX: return Operator.BitXor;
            case AMPER: return Operator.BitAnd;
            case LEFTSHIFT: return Operator.LShift;
            case RIGHTSHIFT: return Operator.RShift;
            case PLUS: return Operator.Add;
            case MINUS: return Operator.Sub;
            case STAR: return Operator.Mult;
            case SLASH: return Operator.Div;
            case PERCENT: return Operator.Mod;
            case DOUBLESLASH: return Operator.FloorDiv;
            case AT: return Operator.MatMult;
            default: return Operator.Pow;
        }
    }

    private Expr awaitPrimary(Await_primaryContext c) {
        if (c.getChildCount() == 1 && c.getChild(0) instanceof AtomContext only) return atom(only);
        AtomContext atom = c.atom();
        Expr e = atom(atom);
        Token start = atom.start;
        for (TrailerContext t : c.trailer()) {
            if (t instanceof AttributeTrailerContext a) {
                e = new Expr.Attribute(e, identifier(a.name()), ExprContext.Load, span(start, t.stop));
            } else if (t instanceof CallTrailerContext call) {
                List<Expr> args = new ArrayList<>();
                List<Keyword> keywords = new ArrayList<>();
                if (call.arglist() != null) arglist(call.arglist(), args, keywords, call);
                e = new Expr.Call(e, args, keywords, span(start, t.stop));
            } else {
                SubscriptTrailerContext s = (SubscriptTrailerContext) t;
                e = new Expr.Subscript(e, subscripts(s.subscripts()), ExprContext.Load, span(start, t.stop));
            }
        }
        if (c.AWAIT() != null) return new Expr.Await(e, span(c));
        return e;
    }

    /**
     * Splits call arguments into positional and keyword lists, checking CPython's ordering
     * rules. {@code call} is the call's trailer (for a lone generator argument's span), or
     * null for class bases.
     */
    private void arglist(ArglistContext al, List<Expr> args, List<Keyword> keywords, CallTrailerContext call) {
        List<ArgumentContext> list = al.argument();
        boolean sawKeyword = false;
        boolean sawDoubleStar = false;
        for (ArgumentContext a : list) {
            if (a.EQUAL() != null) {
                keywords.add(new Keyword(identifier(a.name()), test(a.test(0)), span(a)));
                sawKeyword = true;
            } else if (a.DOUBLESTAR() != null) {
                keywords.add(new Keyword(null, test(a.test(0)), span(a)));
                sawDoubleStar = true;
            } else if (a.STAR() != null) {
                if (sawDoubleStar) error(a, "iterable argument unpacking follows keyword argument unpacking");
                args.add(new Expr.Starred(test(a.test(0)), ExprContext.Load, span(a)));
            } else {
                if (sawDoubleStar) error(a, "positional argument follows keyword argument unpacking");
                else if (sawKeyword) error(a, "positional argument follows keyword argument");
                Expr value;
                if (a.COLONEQUAL() != null) {
                    value = namedExpr(test(a.test(0)), a.test(0), test(a.test(1)), span(a));
                } else {
                    value = test(a.test(0));
                }
                if (a.comp_for() != null) {
                    boolean alone = list.size() == 1 && al.COMMA().isEmpty() && call != null;
                    if (!alone) error(a, "Generator expression must be parenthesized");
                    Span sp = alone ? span(call) : span(a);
                    value = new Expr.GeneratorExp(value, compFor(a.comp_for()), sp);
                }
                args.add(value);
            }
        }
    }

    private Expr subscripts(SubscriptsContext s) {
        List<SubscriptContext> items = s.subscript();
        if (items.size() == 1 && s.COMMA().isEmpty() && items.get(0).star_expr() == null) return subscript(items.get(0));
        List<Expr> elts = new ArrayList<>(items.size());
        for (SubscriptContext i : items) elts.add(subscript(i));
        return new Expr.Tuple(elts, ExprContext.Load, span(s));
    }

    private Expr subscript(SubscriptContext s) {
        if (s.star_expr() != null) return starExpr(s.star_expr());
        if (s.COLONEQUAL() != null) return namedExpr(test(s.test(0)), s.test(0), test(s.test(1)), span(s));
        if (s.COLON() == null) return test(s.test(0));
        // a slice: [lower] ':' [upper] [':' [step]]
        Expr lower = null;
        Expr upper = null;
        int i = 0;
        List<TestContext> tests = s.test();
        if (s.start.getType() != COLON) lower = test(tests.get(i++));
        if (i < tests.size()) upper = test(tests.get(i));
        Expr step = null;
        if (s.slice_step() != null && s.slice_step().test() != null) step = test(s.slice_step().test());
        return new Expr.Slice(lower, upper, step, span(s));
    }

    private Expr atom(AtomContext a) {
        if (a instanceof NameAtomContext n) {
            return new Expr.Name(identifier(n.name()), ExprContext.Load, span(a));
        }
        if (a instanceof NumberAtomContext n) return numberConstant(n.NUMBER().getSymbol());
        if (a instanceof StringAtomContext s) return strings(s.strings());
        if (a instanceof ConstantAtomContext) {
            Object v;
            switch (a.start.getType()) {
                case NONE: v = PyConstant.Singleton.NONE; break;
                case TRUE: v = Boolean.TRUE; break;
                case FALSE: v = Boolean.FALSE; break;
                default: v = PyConstant.Singleton.ELLIPSIS;
            }
            return new Expr.Constant(v, null, span(a));
        }
        if (a instanceof ParenAtomContext p) {
            if (p.yield_expr() != null) return yieldExpr(p.yield_expr());
            Testlist_compContext tc = p.testlist_comp();
            if (tc == null) return new Expr.Tuple(List.of(), ExprContext.Load, span(a));
            List<Star_named_expressionContext> items = tc.star_named_expression();
            if (tc.comp_for() != null) {
                Expr elt = starNamedExpression(items.get(0));
                if (elt instanceof Expr.Starred) error(items.get(0), "iterable unpacking cannot be used in comprehension");
                return new Expr.GeneratorExp(elt, compFor(tc.comp_for()), span(a));
            }
            if (items.size() == 1 && tc.COMMA().isEmpty()) {
                Expr inner = starNamedExpression(items.get(0));
                if (inner instanceof Expr.Starred) error(items.get(0), "cannot use starred expression here");
                return inner;
            }
            return new Expr.Tuple(starNamedList(items), ExprContext.Load, span(a));
        }
        if (a instanceof ListAtomContext l) {
            Testlist_compContext tc = l.testlist_comp();
            if (tc == null) return new Expr.List(List.of(), ExprContext.Load, span(a));
            if (tc.comp_for() != null) {
                Expr elt = starNamedExpression(tc.star_named_expression(0));
                if (elt instanceof Expr.Starred) error(tc, "iterable unpacking cannot be used in comprehension");
                return new Expr.ListComp(elt, compFor(tc.comp_for()), span(a));
            }
            return new Expr.List(starNamedList(tc.star_named_expression()), ExprContext.Load, span(a));
        }
        DictOrSetAtomContext d = (DictOrSetAtomContext) a;
        return dictOrSet(d.dict_or_set(), span(a));
    }

    private List<Expr> starNamedList(List<Star_named_expressionContext> items) {
        List<Expr> out = new ArrayList<>(items.size());
        for (Star_named_expressionContext i : items) out.add(starNamedExpression(i));
        return out;
    }

    private Expr dictOrSet(Dict_or_setContext d, Span sp) {
        if (d == null) return new Expr.Dict(List.of(), List.of(), sp);
        List<Dict_or_set_itemContext> items = d.dict_or_set_item();
        Dict_or_set_itemContext first = items.get(0);
        boolean dict = first.COLON() != null || first.DOUBLESTAR() != null;
        if (d.comp_for() != null) {
            List<Comprehension> gens = compFor(d.comp_for());
            if (dict) {
                if (first.DOUBLESTAR() != null) error(first, "dict unpacking cannot be used in dict comprehension");
                return new Expr.DictComp(test(first.test(0)), first.COLON() != null ? test(first.test(1)) : null, gens, sp);
            }
            Expr elt = setItem(first);
            if (elt instanceof Expr.Starred) error(first, "iterable unpacking cannot be used in comprehension");
            return new Expr.SetComp(elt, gens, sp);
        }
        if (dict) {
            List<Expr> keys = new ArrayList<>(items.size());
            List<Expr> values = new ArrayList<>(items.size());
            for (Dict_or_set_itemContext i : items) {
                if (i.DOUBLESTAR() != null) {
                    keys.add(null);
                    values.add(bitexpr(i.bitexpr()));
                } else if (i.COLON() != null) {
                    keys.add(test(i.test(0)));
                    values.add(test(i.test(1)));
                } else {
                    error(i, "':' expected after dictionary key");
                }
            }
            return new Expr.Dict(keys, values, sp);
        }
        List<Expr> elts = new ArrayList<>(items.size());
        for (Dict_or_set_itemContext i : items) {
            if (i.COLON() != null || i.DOUBLESTAR() != null) error(i, "invalid syntax");
            else elts.add(setItem(i));
        }
        return new Expr.Set(elts, sp);
    }

    private Expr setItem(Dict_or_set_itemContext i) {
        if (i.STAR() != null) return new Expr.Starred(bitexpr(i.bitexpr()), ExprContext.Load, span(i));
        if (i.COLONEQUAL() != null) return namedExpr(test(i.test(0)), i.test(0), test(i.test(1)), span(i));
        return test(i.test(0));
    }

    private List<Comprehension> compFor(Comp_forContext c) {
        List<Comprehension> out = new ArrayList<>(2);
        while (c != null) {
            Expr target = target(targets(c.targets()), ExprContext.Store, c.targets());
            List<DisjunctionContext> d = c.disjunction();
            Expr iter = disjunction(d.get(0));
            List<Expr> ifs = new ArrayList<>(d.size() - 1);
            for (int i = 1; i < d.size(); i++) ifs.add(disjunction(d.get(i)));
            out.add(new Comprehension(target, iter, ifs, c.ASYNC() != null ? 1 : 0));
            c = c.comp_for();
        }
        return out;
    }

    private Expr targets(TargetsContext t) {
        List<Star_or_bitorContext> items = t.star_or_bitor();
        if (items.size() == 1 && t.COMMA().isEmpty()) return starOrBitor(items.get(0));
        List<Expr> elts = new ArrayList<>(items.size());
        for (Star_or_bitorContext i : items) elts.add(starOrBitor(i));
        return new Expr.Tuple(elts, ExprContext.Load, span(t));
    }

    private Expr starOrBitor(Star_or_bitorContext c) {
        Expr e = bitexpr(c.bitexpr());
        if (c.STAR() != null) return new Expr.Starred(e, ExprContext.Load, span(c));
        return e;
    }

    private Expr yieldExpr(Yield_exprContext y) {
        if (y.FROM() != null) return new Expr.YieldFrom(test(y.test()), span(y));
        return new Expr.Yield(y.star_expressions() == null ? null : starExpressions(y.star_expressions()), span(y));
    }

    /** Re-contexts an expression as an assignment or deletion target, or reports why it can't be. */
    private Expr target(Expr e, ExprContext ctx, ParserRuleContext where) {
        if (e instanceof Expr.Name n) {
            if (n.id().equals("__debug__")) error(where, "cannot assign to __debug__");
            return new Expr.Name(n.id(), ctx, n.span());
        }
        if (e instanceof Expr.Attribute a) return new Expr.Attribute(a.value(), a.attr(), ctx, a.span());
        if (e instanceof Expr.Subscript s) return new Expr.Subscript(s.value(), s.slice(), ctx, s.span());
        if (e instanceof Expr.Starred s) {
            if (ctx == ExprContext.Del) error(where, "cannot delete starred");
            return new Expr.Starred(target(s.value(), ctx, where), ctx, s.span());
        }
        if (e instanceof Expr.Tuple t) {
            List<Expr> elts = new ArrayList<>(t.elts().size());
            for (Expr x : t.elts()) elts.add(target(x, ctx, where));
            return new Expr.Tuple(elts, ctx, t.span());
        }
        if (e instanceof Expr.List l) {
            List<Expr> elts = new ArrayList<>(l.elts().size());
            for (Expr x : l.elts()) elts.add(target(x, ctx, where));
            return new Expr.List(elts, ctx, l.span());
        }
        error(where, "cannot " + (ctx == ExprContext.Del ? "delete " : "assign to ") + describe(e));
        return e;
    }

    private static String describe(Expr e) {
        if (e instanceof Expr.Call) return "function call";
        if (e instanceof Expr.Constant c) {
            Object v = c.value();
            if (v == PyConstant.Singleton.NONE) return "None";
            if (v instanceof Boolean b) return b ? "True" : "False";
            if (v == PyConstant.Singleton.ELLIPSIS) return "ellipsis";
            return "literal";
        }
        if (e instanceof Expr.BinOp || e instanceof Expr.UnaryOp) return "expression";
        if (e instanceof Expr.BoolOp) return "expression";
        if (e instanceof Expr.Compare) return "comparison";
        if (e instanceof Expr.Lambda) return "lambda";
        if (e instanceof Expr.IfExp) return "conditional expression";
        if (e instanceof Expr.NamedExpr) return "named expression";
        if (e instanceof Expr.JoinedStr) return "f-string expression";
        if (e instanceof Expr.GeneratorExp) return "generator expression";
        if (e instanceof Expr.ListComp) return "list comprehension";
        if (e instanceof Expr.SetComp) return "set comprehension";
        if (e instanceof Expr.DictComp) return "dict comprehension";
        if (e instanceof Expr.Dict) return "dict literal";
        if (e instanceof Expr.Set) return "set display";
        if (e instanceof Expr.Yield || e instanceof Expr.YieldFrom) return "yield expression";
        if (e instanceof Expr.Await) return "await expression";
        if (e instanceof Expr.Tuple) return "tuple";
        if (e instanceof Expr.List) return "list";
        if (e instanceof Expr.Name) return "name";
        if (e instanceof Expr.Attribute) return "attribute";
        if (e instanceof Expr.Subscript) return "subscript";
        if (e instanceof Expr.Starred) return "starred";
        return "expression";
    }

    // ================================================================ names and literals

    /** An identifier's value: non-ASCII names are checked and NFKC-normalised, as CPython does. */
    String identifier(NameContext n) {
        Token t = n.start;
        String text = t.getText();
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) return nonAsciiIdentifier(t, text);
        }
        // one String per distinct identifier across the workspace: names are a quarter of a
        // parsed file's objects, and the same few (self, x, torch) recur everywhere
        return text.intern();
    }

    /**
     * Python's XID_Continue: Java's identifier parts also take the "ignorable" controls and format
     * characters (U+0080-U+009F, U+00AD, U+200B ...), which Python refuses, but for U+200C and U+200D.
     */
    private static boolean isIdentifierPart(int cp) {
        return Character.isUnicodeIdentifierPart(cp)
                && (!Character.isIdentifierIgnorable(cp) || cp == 0x200C || cp == 0x200D);
    }

    /** CPython's message for a character that cannot be in a name: a non-printable one is named by its code only. */
    private static String invalidCharacter(int cp) {
        return switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED,
                 Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SPACE_SEPARATOR ->
                    String.format("invalid non-printable character U+%04X", cp);
            default -> String.format("invalid character '%s' (U+%04X)", new String(Character.toChars(cp)), cp);
        };
    }

    private String nonAsciiIdentifier(Token t, String text) {
        int first = text.codePointAt(0);
        if (!(first == '_' || Character.isUnicodeIdentifierStart(first))) {
            errors.add(new SyntaxError(t.getLine(), t.getCharPositionInLine() + 1, invalidCharacter(first)));
        } else {
            int col = t.getCharPositionInLine();
            for (int i = Character.charCount(first); i < text.length(); ) {
                int cp = text.codePointAt(i);
                col++;
                if (!isIdentifierPart(cp)) {
                    errors.add(new SyntaxError(t.getLine(), col + 1, invalidCharacter(cp)));
                    break;
                }
                i += Character.charCount(cp);
            }
        }
        return Normalizer.normalize(text, Normalizer.Form.NFKC);
    }

    private Expr numberConstant(Token t) {
        Object v = Literals.number(t.getText());
        if (v instanceof Literals.TooManyDigits tooMany) {
            error(t, tooMany.message());
            v = java.math.BigInteger.ZERO;
        } else if (v == null) {
            error(t, "invalid number literal");
            v = java.math.BigInteger.ZERO;
        }
        return new Expr.Constant(v, null, span(t, t));
    }

    /** Adjacent string and f-string literals: one Constant, or one JoinedStr if any is an f-string. */
    Expr strings(StringsContext s) {
        int n = s.getChildCount();
        Span whole = span(s);
        boolean anyF = false;
        int bytesCount = 0;
        for (int i = 0; i < n; i++) {
            ParseTree c = s.getChild(i);
            if (c instanceof FstringContext) {
                anyF = true;
            } else {
                String text = ((TerminalNode) c).getSymbol().getText();
                if (Literals.hasPrefix(text, Literals.prefixLength(text), 'b')) bytesCount++;
            }
        }
        if (bytesCount > 0 && (bytesCount != n)) {
            error(s, "cannot mix bytes and nonbytes literals");
        }
        Token firstTok = s.start;
        String kind = null;
        if (firstTok.getType() == STRING) {
            String t = firstTok.getText();
            if (Literals.hasPrefix(t, Literals.prefixLength(t), 'u')) kind = "u";
        }
        if (!anyF) {
            if (bytesCount == n) {
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                for (int i = 0; i < n; i++) out.writeBytes(bytesValue(((TerminalNode) s.getChild(i)).getSymbol()));
                return new Expr.Constant(new PyConstant.Bytes(out.toByteArray()), null, whole);
            }
            if (n == 1) return new Expr.Constant(strValue(firstTok), kind, whole);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < n; i++) sb.append(strValue(((TerminalNode) s.getChild(i)).getSymbol()));
            return new Expr.Constant(sb.toString(), kind, whole);
        }
        FStringParts parts = new FStringParts();
        for (int i = 0; i < n; i++) {
            ParseTree c = s.getChild(i);
            if (c instanceof FstringContext f) {
                boolean raw = isRawPrefix(f.FSTRING_START().getText());
                for (Fstring_partContext p : f.fstring_part()) {
                    if (p.FSTRING_MIDDLE() != null) {
                        Token m = p.FSTRING_MIDDLE().getSymbol();
                        parts.literal(decodeMiddle(m, raw, true), span(m, m));
                    } else {
                        parts.field(p.fstring_field(), raw);
                    }
                }
            } else {
                Token t = ((TerminalNode) c).getSymbol();
                parts.literal(strValue(t), span(t, t));
            }
        }
        return new Expr.JoinedStr(parts.finish(), whole);
    }

    private static boolean isRawPrefix(String start) {
        for (int i = 0; i < start.length(); i++) {
            char c = start.charAt(i);
            if (c == 'r' || c == 'R') return true;
            if (c == '"' || c == '\'') return false;
        }
        return false;
    }

    /** Collects the values of a JoinedStr, merging adjacent literal text into one Constant. */
    private final class FStringParts {
        final List<Expr> values = new ArrayList<>();
        StringBuilder text;
        Span textStart;
        Span textEnd;

        void literal(String value, Span sp) {
            if (value.isEmpty()) return;
            if (text == null) {
                text = new StringBuilder();
                textStart = sp;
            }
            text.append(value);
            textEnd = sp;
        }

        void flush() {
            if (text != null) {
                values.add(new Expr.Constant(text.toString(), null, Span.between(textStart, textEnd)));
                text = null;
            }
        }

        void field(Fstring_fieldContext f, boolean raw) {
            Token lbrace = f.LBRACE().getSymbol();
            int specDepth = 0;
            for (org.antlr.v4.runtime.RuleContext p = f.getParent(); p != null && !(p instanceof FstringContext); p = p.getParent()) {
                if (p instanceof Fstring_specContext) specDepth++;
            }
            // CPython allows a field inside a format spec inside a format spec, and no deeper
            if (specDepth > 2) error(lbrace, "f-string: expressions nested too deeply");
            Token rbrace = f.RBRACE().getSymbol();
            Expr value = f.yield_expr() != null ? yieldExpr(f.yield_expr()) : starExpressions(f.star_expressions());
            int conversion = -1;
            if (f.EQUAL() != null) {
                // the debug text `expr=` (with its spaces) is literal text before the value
                Token next = f.EXCLAMATION() != null ? f.EXCLAMATION().getSymbol()
                        : f.COLON() != null ? f.COLON().getSymbol() : rbrace;
                String debug = chars.getText(Interval.of(lbrace.getStopIndex() + 1, next.getStartIndex() - 1));
                int col = lbrace.getCharPositionInLine() + 1;
                Span sp = new Span(lbrace.getLine(), lines.utf8Column(lbrace.getLine() - lineOffset, col), next.getLine(), startCol(next));
                literal(debug, sp);
                if (f.EXCLAMATION() == null && f.COLON() == null) conversion = 'r';
            }
            flush();
            if (f.EXCLAMATION() != null) {
                NameContext conv = f.name();
                String c = conv.getText();
                Token bang = f.EXCLAMATION().getSymbol();
                if (conv.start.getStartIndex() != bang.getStopIndex() + 1) {
                    error(conv, "f-string: conversion type must come right after the exclamanation mark");
                }
                if (c.equals("r") || c.equals("s") || c.equals("a")) conversion = c.charAt(0);
                else error(conv, "f-string: invalid conversion character '" + c + "': expected 's', 'r', or 'a'");
            }
            Expr spec = null;
            if (f.COLON() != null) {
                FStringParts specParts = new FStringParts();
                for (Fstring_specContext sc : f.fstring_spec()) {
                    if (sc.FSTRING_MIDDLE() != null) {
                        Token m = sc.FSTRING_MIDDLE().getSymbol();
                        specParts.literal(decodeMiddle(m, raw, false), span(m, m));
                    } else {
                        specParts.field(sc.fstring_field(), raw);
                    }
                }
                spec = new Expr.JoinedStr(specParts.finish(), spanToStart(f.COLON().getSymbol(), rbrace));
            }
            values.add(new Expr.FormattedValue(value, conversion, spec, span(lbrace, rbrace)));
        }

        List<Expr> finish() {
            flush();
            return values;
        }
    }

    private String decodeMiddle(Token m, boolean raw, boolean unescapeBraces) {
        String text = m.getText();
        if (unescapeBraces && (text.indexOf('{') >= 0 || text.indexOf('}') >= 0)) {
            text = text.replace("{{", "{").replace("}}", "}");
        }
        return Literals.decodeStr(text, raw, msg -> error(m, msg));
    }

    private String strValue(Token t) {
        String text = t.getText();
        int p = Literals.prefixLength(text);
        int q = text.length() - p >= 6 && text.charAt(p) == text.charAt(p + 1) && text.charAt(p) == text.charAt(p + 2) ? 3 : 1;
        String body = text.substring(p + q, text.length() - q);
        boolean raw = Literals.hasPrefix(text, p, 'r');
        return Literals.decodeStr(body, raw, msg -> error(t, msg));
    }

    private byte[] bytesValue(Token t) {
        String text = t.getText();
        int p = Literals.prefixLength(text);
        int q = text.length() - p >= 6 && text.charAt(p) == text.charAt(p + 1) && text.charAt(p) == text.charAt(p + 2) ? 3 : 1;
        String body = text.substring(p + q, text.length() - q);
        boolean raw = Literals.hasPrefix(text, p, 'r');
        return Literals.decodeBytes(body, raw, msg -> error(t, msg));
    }
}
