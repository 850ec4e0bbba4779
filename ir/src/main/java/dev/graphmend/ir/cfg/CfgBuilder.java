package dev.graphmend.ir.cfg;

import dev.graphmend.ir.ast.Arguments;
import dev.graphmend.ir.ast.ExceptHandler;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.MatchCase;
import dev.graphmend.ir.ast.Module;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Pattern;
import dev.graphmend.ir.ast.PyConstant;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.WithItem;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds one graph. The state is either a block being filled ({@code cur}) or a list of edges
 * waiting for the next block ({@code open}): joins are made only when something follows them, so
 * an {@code if} at the end of a function sends its branches straight to the exit.
 *
 * <p>Jumps ({@code return}, {@code break}, {@code continue}, exceptions) are routed through a stack
 * of frames: a loop takes breaks and continues, a handler frame (a {@code try} body with
 * {@code except} clauses) takes exceptions, and a cleanup frame ({@code finally}, {@code with}, the
 * implicit {@code del} of an {@code except ... as} name) takes every jump that leaves it and, when
 * the protected region is complete, gets one copy of its cleanup code per kind of jump that left it.
 */
final class CfgBuilder {

    enum Route { NORMAL, RETURN, BREAK, CONTINUE, EXCEPTION }

    static final class MBlock {
        final Block.Kind kind;
        final List<Step> steps = new ArrayList<>();
        final Set<MEdge> succ = new LinkedHashSet<>();
        boolean excRegistered;
        int id = -1;

        MBlock(Block.Kind kind) {
            this.kind = kind;
        }
    }

    /** Blocks compare by identity, so record equality dedupes identical edges only. */
    record MEdge(MBlock from, EdgeKind kind, MBlock to) {}

    record Pending(MBlock from, EdgeKind kind) {}

    private abstract static class Frame {}

    private static final class LoopFrame extends Frame {
        final MBlock head;
        final List<Pending> breaks = new ArrayList<>();

        LoopFrame(MBlock head) {
            this.head = head;
        }
    }

    private static final class HandlerFrame extends Frame {
        final List<Pending> exceptions = new ArrayList<>();
    }

    private static final class CleanupFrame extends Frame {
        final Cleanup cleanup;
        final EnumMap<Route, List<Pending>> pending = new EnumMap<>(Route.class);

        CleanupFrame(Cleanup cleanup) {
            this.cleanup = cleanup;
            for (Route r : Route.values()) pending.put(r, new ArrayList<>());
        }
    }

    /** Code that runs whenever a region is left; emitted once per route that leaves it. */
    private interface Cleanup {
        void emit(Route route);

        /** The exceptional copy may swallow the exception and continue after the statement. */
        default boolean suppresses() {
            return false;
        }

        /** Emit the normal copy even when nothing falls through (user code is kept, unreachable). */
        default boolean keepWhenDead() {
            return false;
        }

        /** User code (a finally body), which is shared instead of copied when the graph grows too big. */
        default boolean shareable() {
            return false;
        }
    }

    /**
     * Blocks a graph may have before its finally bodies are shared rather than copied: copies
     * multiply when try/finally nests inside finally bodies (five routes per level).
     */
    static final int MAX_BLOCKS = 20_000;

    /** Thrown when the budget is exceeded while copying, to rebuild with shared finally bodies. */
    private static final class TooBig extends RuntimeException {
        TooBig() {
            super(null, null, false, false);
        }
    }

    private final List<MBlock> blocks = new ArrayList<>();
    private final MBlock entry = new MBlock(Block.Kind.ENTRY);
    private final MBlock exit = new MBlock(Block.Kind.EXIT);
    private final MBlock raiseExit = new MBlock(Block.Kind.RAISE_EXIT);
    private final List<Frame> frames = new ArrayList<>();
    private final IdentityHashMap<Stmt, List<MBlock>> starts = new IdentityHashMap<>();
    private final List<Stmt> pendingStarts = new ArrayList<>();
    private MBlock cur;
    private List<Pending> open = new ArrayList<>();
    private final boolean shareFinally;

    private CfgBuilder(boolean shareFinally) {
        this.shareFinally = shareFinally;
    }

    // ------------------------------------------------------------------ entry points

    static ControlFlowGraph build(Node scope) {
        try {
            return build(scope, false);
        } catch (TooBig e) {
            return build(scope, true);
        }
    }

    /** With {@code shareFinally}, each finally body is built once for all routes (tests force it). */
    static ControlFlowGraph build(Node scope, boolean shareFinally) {
        CfgBuilder b = new CfgBuilder(shareFinally);
        if (scope instanceof Stmt.FunctionDef f) {
            b.body(f.args(), f.body());
        } else if (scope instanceof Stmt.AsyncFunctionDef f) {
            b.body(f.args(), f.body());
        } else if (scope instanceof Stmt.ClassDef c) {
            b.body(null, c.body());
        } else if (scope instanceof Module m) {
            b.body(null, m.body());
        } else if (scope instanceof Expr.Lambda l) {
            b.lambda(l);
        } else {
            throw new IllegalArgumentException("not a scope with a body: " + scope.pyType());
        }
        return b.freeze(scope);
    }

    private void prologue(Arguments args) {
        blocks.add(entry);
        if (args != null && hasParameters(args)) entry.steps.add(new Step(Step.Kind.PARAMETERS, args, null));
        open.add(new Pending(entry, EdgeKind.NORMAL));
    }

    private void body(Arguments args, List<Stmt> body) {
        prologue(args);
        stmts(body);
        for (Pending p : takeOpen()) edge(p.from, p.kind, exit);
    }

    private void lambda(Expr.Lambda l) {
        prologue(l.args());
        add(new Step(Step.Kind.EVAL, l.body(), null));
        for (Pending p : takeOpen()) edge(p.from, p.kind, exit);
    }

    private static boolean hasParameters(Arguments a) {
        return !a.posonlyargs().isEmpty() || !a.args().isEmpty() || a.vararg() != null
                || !a.kwonlyargs().isEmpty() || a.kwarg() != null;
    }

    // ------------------------------------------------------------------ block plumbing

    private MBlock newBlock() {
        if (!shareFinally && blocks.size() >= MAX_BLOCKS) throw new TooBig();
        MBlock b = new MBlock(Block.Kind.BODY);
        blocks.add(b);
        return b;
    }

    /** The block to append to: the current one, or a new one that takes the open edges. */
    private MBlock block() {
        if (cur == null) {
            cur = newBlock();
            for (Pending p : open) edge(p.from, p.kind, cur);
            open = new ArrayList<>();
        }
        if (!pendingStarts.isEmpty()) {
            for (Stmt s : pendingStarts) starts.computeIfAbsent(s, k -> new ArrayList<>(2)).add(cur);
            pendingStarts.clear();
        }
        return cur;
    }

    /** A fresh block (a join, a loop header, a region's first block) that takes the fall-through. */
    private MBlock startBlock() {
        seal();
        return block();
    }

    /** Ends the current block: its fall-through becomes an open edge. */
    private void seal() {
        if (cur != null) {
            open.add(new Pending(cur, EdgeKind.NORMAL));
            cur = null;
        }
    }

    private List<Pending> takeOpen() {
        seal();
        List<Pending> o = open;
        open = new ArrayList<>();
        return o;
    }

    private void setOpen(List<Pending> pending) {
        if (cur != null) throw new IllegalStateException("open edges while a block is being filled");
        open = new ArrayList<>(pending);
    }

    /** Ends the current block after a branching step and returns it. */
    private MBlock close() {
        MBlock b = cur;
        cur = null;
        return b;
    }

    /** A block standing for the current point, for a jump to leave from; null in dead code. */
    private MBlock endBlock() {
        if (cur != null) return close();
        if (open.isEmpty()) return null;
        if (open.size() == 1 && open.get(0).kind == EdgeKind.NORMAL) {
            MBlock b = open.get(0).from;
            open = new ArrayList<>();
            return b;
        }
        block();
        return close();
    }

    private void add(Step step) {
        MBlock b = block();
        b.steps.add(step);
        if (mayRaise(step)) registerException(b);
    }

    private void edge(MBlock from, EdgeKind kind, MBlock to) {
        from.succ.add(new MEdge(from, kind, to));
    }

    private void noteStart(Stmt s) {
        pendingStarts.add(s);
    }

    private static List<Pending> list(Pending p) {
        List<Pending> l = new ArrayList<>();
        l.add(p);
        return l;
    }

    // ------------------------------------------------------------------ frames and routing

    private <F extends Frame> F pushRegion(F f) {
        seal();
        frames.add(f);
        return f;
    }

    private void popRegion(Frame f) {
        seal();
        if (frames.remove(frames.size() - 1) != f) throw new IllegalStateException("unbalanced frames");
    }

    /** The block may raise: its exceptions go to the innermost handler or cleanup, if any. */
    private void registerException(MBlock b) {
        if (b.excRegistered) return;
        b.excRegistered = true;
        for (int i = frames.size() - 1; i >= 0; i--) {
            Frame f = frames.get(i);
            if (f instanceof HandlerFrame h) {
                h.exceptions.add(new Pending(b, EdgeKind.EXCEPTION));
                return;
            }
            if (f instanceof CleanupFrame c) {
                c.pending.get(Route.EXCEPTION).add(new Pending(b, EdgeKind.EXCEPTION));
                return;
            }
        }
        // Outside any try/with: the exception leaves the function; such edges are not drawn.
    }

    /** Sends a jump of the given route from {@code from} to where the frames say it lands. */
    private void route(MBlock from, EdgeKind kind, Route r) {
        for (int i = frames.size() - 1; i >= 0; i--) {
            Frame f = frames.get(i);
            if (f instanceof CleanupFrame c) {
                c.pending.get(r).add(new Pending(from, kind));
                return;
            }
            if (f instanceof HandlerFrame h && r == Route.EXCEPTION) {
                h.exceptions.add(new Pending(from, kind));
                return;
            }
            if (f instanceof LoopFrame l) {
                if (r == Route.BREAK) {
                    l.breaks.add(new Pending(from, kind));
                    return;
                }
                if (r == Route.CONTINUE) {
                    edge(from, kind, l.head);
                    return;
                }
            }
        }
        switch (r) {
            case RETURN -> edge(from, kind, exit);
            case EXCEPTION -> edge(from, kind, raiseExit);
            default -> { } // break/continue outside a loop: CPython rejects the code; the jump goes nowhere
        }
    }

    private static EdgeKind kindOf(Route r) {
        return switch (r) {
            case NORMAL -> EdgeKind.NORMAL;
            case RETURN -> EdgeKind.RETURN;
            case BREAK -> EdgeKind.BREAK;
            case CONTINUE -> EdgeKind.CONTINUE;
            case EXCEPTION -> EdgeKind.EXCEPTION;
        };
    }

    /**
     * Emits the copies of a popped cleanup frame's code: the normal one (continuing with the open
     * edges), then one per other route that left the region, each ending with the same route from
     * outside. Leaves the open edges after the statement.
     */
    private void finishCleanup(CleanupFrame cf) {
        Cleanup c = cf.cleanup;
        List<Pending> normal = takeOpen();
        List<Pending> after = new ArrayList<>();
        if (shareFinally && c.shareable()) {
            // One copy, entered by every route, leaving to every continuation that entered it.
            List<Pending> all = new ArrayList<>(normal);
            for (Route r : List.of(Route.RETURN, Route.BREAK, Route.CONTINUE, Route.EXCEPTION)) all.addAll(cf.pending.get(r));
            setOpen(all);
            c.emit(Route.NORMAL);
            MBlock end = endBlock();
            if (end != null) {
                if (!normal.isEmpty()) after.add(new Pending(end, EdgeKind.NORMAL));
                for (Route r : List.of(Route.RETURN, Route.BREAK, Route.CONTINUE, Route.EXCEPTION)) {
                    if (!cf.pending.get(r).isEmpty()) route(end, kindOf(r), r);
                }
            }
            setOpen(after);
            return;
        }
        if (!normal.isEmpty() || c.keepWhenDead()) {
            setOpen(normal);
            c.emit(Route.NORMAL);
            after.addAll(takeOpen());
        }
        for (Route r : List.of(Route.RETURN, Route.BREAK, Route.CONTINUE, Route.EXCEPTION)) {
            List<Pending> ps = cf.pending.get(r);
            if (ps.isEmpty()) continue;
            setOpen(ps);
            c.emit(r);
            MBlock end = endBlock();
            if (end == null) continue; // the cleanup code itself jumped away (return in finally, ...)
            route(end, kindOf(r), r);
            if (r == Route.EXCEPTION && c.suppresses()) after.add(new Pending(end, EdgeKind.SUPPRESS));
        }
        setOpen(after);
    }

    /** The end of a loop body goes back to the header, through a latch block when several edges join. */
    private void loopBack(MBlock head) {
        seal();
        if (open.isEmpty()) return;
        MBlock latch;
        if (open.size() == 1 && open.get(0).kind == EdgeKind.NORMAL) {
            latch = open.get(0).from;
            open = new ArrayList<>();
        } else {
            block();
            latch = close();
        }
        edge(latch, EdgeKind.LOOP_BACK, head);
    }

    // ------------------------------------------------------------------ statements

    private void stmts(List<Stmt> body) {
        for (Stmt s : body) stmt(s);
    }

    private void stmt(Stmt s) {
        if (s instanceof Stmt.If x) {
            ifStmt(x);
        } else if (s instanceof Stmt.While x) {
            whileStmt(x);
        } else if (s instanceof Stmt.For x) {
            forStmt(x, x.target(), x.iter(), x.body(), x.orelse());
        } else if (s instanceof Stmt.AsyncFor x) {
            forStmt(x, x.target(), x.iter(), x.body(), x.orelse());
        } else if (s instanceof Stmt.With x) {
            noteStart(x);
            withItems(x, x.items(), 0, x.body());
        } else if (s instanceof Stmt.AsyncWith x) {
            noteStart(x);
            withItems(x, x.items(), 0, x.body());
        } else if (s instanceof Stmt.Try x) {
            tryStmt(x, x.body(), x.handlers(), x.orelse(), x.finalbody(), false);
        } else if (s instanceof Stmt.TryStar x) {
            tryStmt(x, x.body(), x.handlers(), x.orelse(), x.finalbody(), true);
        } else if (s instanceof Stmt.Match x) {
            matchStmt(x);
        } else if (s instanceof Stmt.Return) {
            jump(s, EdgeKind.RETURN, Route.RETURN);
        } else if (s instanceof Stmt.Raise) {
            jump(s, EdgeKind.EXCEPTION, Route.EXCEPTION);
        } else if (s instanceof Stmt.Break) {
            jump(s, EdgeKind.BREAK, Route.BREAK);
        } else if (s instanceof Stmt.Continue) {
            jump(s, EdgeKind.CONTINUE, Route.CONTINUE);
        } else if (s instanceof Stmt.Assert x) {
            noteStart(x);
            add(new Step(Step.Kind.STATEMENT, x, x));
            MBlock b = close();
            Truth t = truth(x.test());
            if (t != Truth.TRUE) route(b, EdgeKind.FALSE, Route.EXCEPTION);
            setOpen(t != Truth.FALSE ? list(new Pending(b, EdgeKind.TRUE)) : List.of());
        } else {
            noteStart(s);
            add(new Step(Step.Kind.STATEMENT, s, s));
            if (Yields.containsYield(s)) setOpenAfter(EdgeKind.YIELD);
        }
    }

    private void setOpenAfter(EdgeKind kind) {
        MBlock b = close();
        setOpen(list(new Pending(b, kind)));
    }

    private void jump(Stmt s, EdgeKind kind, Route r) {
        noteStart(s);
        add(new Step(Step.Kind.STATEMENT, s, s));
        route(close(), kind, r);
    }

    private void ifStmt(Stmt.If s) {
        noteStart(s);
        add(new Step(Step.Kind.TEST, s.test(), s));
        MBlock test = close();
        Truth t = truth(s.test());
        setOpen(t != Truth.FALSE ? list(new Pending(test, EdgeKind.TRUE)) : List.of());
        stmts(s.body());
        List<Pending> after = takeOpen();
        setOpen(t != Truth.TRUE ? list(new Pending(test, EdgeKind.FALSE)) : List.of());
        stmts(s.orelse());
        after.addAll(takeOpen());
        setOpen(after);
    }

    private void whileStmt(Stmt.While s) {
        noteStart(s);
        MBlock head = startBlock();
        add(new Step(Step.Kind.TEST, s.test(), s));
        close();
        Truth t = truth(s.test());
        LoopFrame loop = new LoopFrame(head);
        frames.add(loop);
        setOpen(t != Truth.FALSE ? list(new Pending(head, EdgeKind.TRUE)) : List.of());
        stmts(s.body());
        loopBack(head);
        frames.remove(frames.size() - 1);
        setOpen(t != Truth.TRUE ? list(new Pending(head, EdgeKind.FALSE)) : List.of());
        stmts(s.orelse());
        List<Pending> after = takeOpen();
        after.addAll(loop.breaks);
        setOpen(after);
    }

    private void forStmt(Stmt s, Expr target, Expr iter, List<Stmt> body, List<Stmt> orelse) {
        noteStart(s);
        add(new Step(Step.Kind.ITER, iter, s));
        MBlock head = startBlock();
        add(new Step(Step.Kind.NEXT, s, s));
        close();
        LoopFrame loop = new LoopFrame(head);
        frames.add(loop);
        setOpen(list(new Pending(head, EdgeKind.TRUE)));
        add(new Step(Step.Kind.BIND, target, s));
        stmts(body);
        loopBack(head);
        frames.remove(frames.size() - 1);
        setOpen(list(new Pending(head, EdgeKind.FALSE)));
        stmts(orelse);
        List<Pending> after = takeOpen();
        after.addAll(loop.breaks);
        setOpen(after);
    }

    /** {@code with a, b: body} is {@code with a: with b: body}. */
    private void withItems(Stmt s, List<WithItem> items, int i, List<Stmt> body) {
        if (i == items.size()) {
            stmts(body);
            return;
        }
        WithItem item = items.get(i);
        add(new Step(Step.Kind.ENTER, item, s));
        // __exit__ is set up right after __enter__: a failing store to the target calls it too.
        CleanupFrame cf = pushRegion(new CleanupFrame(new Cleanup() {
            @Override public void emit(Route route) {
                add(new Step(Step.Kind.EXIT, item, s));
            }

            @Override public boolean suppresses() {
                return true;
            }
        }));
        if (item.optionalVars() != null) add(new Step(Step.Kind.BIND, item.optionalVars(), s));
        withItems(s, items, i + 1, body);
        popRegion(cf);
        finishCleanup(cf);
    }

    private void tryStmt(Stmt s, List<Stmt> body, List<ExceptHandler> handlers, List<Stmt> orelse,
                         List<Stmt> finalbody, boolean star) {
        noteStart(s);
        CleanupFrame fin = null;
        if (!finalbody.isEmpty()) {
            fin = pushRegion(new CleanupFrame(new Cleanup() {
                @Override public void emit(Route route) {
                    stmts(finalbody);
                }

                @Override public boolean keepWhenDead() {
                    return true;
                }

                @Override public boolean shareable() {
                    return true;
                }
            }));
        }
        HandlerFrame hf = handlers.isEmpty() ? null : pushRegion(new HandlerFrame());
        startBlock(); // the try body starts a block of its own (the region its handlers protect)
        stmts(body);
        List<Pending> after = new ArrayList<>();
        if (hf != null) {
            popRegion(hf);
            List<Pending> bodyDone = takeOpen();
            if (star) starHandlers(s, handlers, hf.exceptions, after);
            else handlers(s, handlers, hf.exceptions, after);
            setOpen(bodyDone);
            stmts(orelse);
            after.addAll(takeOpen());
        } else {
            after.addAll(takeOpen());
        }
        setOpen(after);
        if (fin != null) {
            popRegion(fin);
            finishCleanup(fin);
        }
    }

    /** Handlers are tried in order; when none matches (no bare {@code except:}), the exception goes on. */
    private void handlers(Stmt s, List<ExceptHandler> handlers, List<Pending> raised, List<Pending> after) {
        List<Pending> incoming = raised;
        for (ExceptHandler h : handlers) {
            setOpen(incoming);
            if (h.type() != null) {
                add(new Step(Step.Kind.EXCEPT, h, s));
                MBlock test = close();
                setOpen(list(new Pending(test, EdgeKind.TRUE)));
                incoming = list(new Pending(test, EdgeKind.FALSE));
            } else {
                incoming = List.of(); // a bare except catches everything
            }
            handlerBody(s, h);
            after.addAll(takeOpen());
        }
        for (Pending p : incoming) route(p.from, p.kind, Route.EXCEPTION);
    }

    /**
     * {@code except*}: every clause whose type matches part of the group runs, in order; exceptions
     * raised in a clause are collected, so control goes on to the next clause. After the last one a
     * block decides: whatever is left unhandled (or was raised) is raised, else the statement
     * completes.
     */
    private void starHandlers(Stmt s, List<ExceptHandler> handlers, List<Pending> raised, List<Pending> after) {
        List<Pending> incoming = raised;
        for (ExceptHandler h : handlers) {
            setOpen(incoming);
            add(new Step(Step.Kind.EXCEPT, h, s));
            MBlock test = close();
            setOpen(list(new Pending(test, EdgeKind.TRUE)));
            HandlerFrame collected = pushRegion(new HandlerFrame());
            handlerBody(s, h);
            popRegion(collected);
            incoming = list(new Pending(test, EdgeKind.FALSE));
            incoming.addAll(takeOpen());
            incoming.addAll(collected.exceptions);
        }
        setOpen(incoming);
        MBlock rest = block();
        close();
        after.add(new Pending(rest, EdgeKind.NORMAL));
        route(rest, EdgeKind.EXCEPTION, Route.EXCEPTION);
    }

    /** {@code except E as e: body} runs as {@code e = exc; try: body finally: del e}. */
    private void handlerBody(Stmt s, ExceptHandler h) {
        if (h.name() == null) {
            add(new Step(Step.Kind.HANDLER, h, s));
            stmts(h.body());
            return;
        }
        CleanupFrame cf = pushRegion(new CleanupFrame(route -> add(new Step(Step.Kind.UNBIND, h, s))));
        add(new Step(Step.Kind.HANDLER, h, s));
        stmts(h.body());
        popRegion(cf);
        finishCleanup(cf);
    }

    private void matchStmt(Stmt.Match s) {
        noteStart(s);
        add(new Step(Step.Kind.SUBJECT, s.subject(), s));
        List<Pending> after = new ArrayList<>();
        List<Pending> next = null;
        for (MatchCase c : s.cases()) {
            if (next != null) setOpen(next);
            add(new Step(Step.Kind.MATCH, c.pattern(), s));
            MBlock m = close();
            // A capture or wildcard pattern cannot fail; with a guard, only the guard can.
            next = irrefutable(c.pattern()) ? new ArrayList<>() : list(new Pending(m, EdgeKind.FALSE));
            setOpen(list(new Pending(m, EdgeKind.TRUE)));
            if (c.guard() != null) {
                add(new Step(Step.Kind.TEST, c.guard(), s));
                MBlock g = close();
                setOpen(list(new Pending(g, EdgeKind.TRUE)));
                next.add(new Pending(g, EdgeKind.FALSE));
            }
            stmts(c.body());
            after.addAll(takeOpen());
        }
        if (next != null) after.addAll(next); // no case matched
        else after.addAll(takeOpen()); // no cases at all (only in broken code)
        setOpen(after);
    }

    /** A pattern that matches every subject: a capture, {@code _}, or an or-pattern with one of them. */
    static boolean irrefutable(Pattern p) {
        if (p instanceof Pattern.MatchAs a) return a.pattern() == null || irrefutable(a.pattern());
        if (p instanceof Pattern.MatchOr o) {
            for (Pattern alt : o.patterns()) if (irrefutable(alt)) return true;
        }
        return false;
    }

    /** Whether a step can raise; a block raises when one of its steps can. */
    static boolean mayRaise(Step step) {
        return switch (step.kind()) {
            case PARAMETERS, HANDLER, UNBIND -> false;
            case BIND -> !(step.node() instanceof Expr.Name); // storing to a plain name cannot fail
            case STATEMENT -> !(step.node() instanceof Stmt.Pass || step.node() instanceof Stmt.Break
                    || step.node() instanceof Stmt.Continue || step.node() instanceof Stmt.Global
                    || step.node() instanceof Stmt.Nonlocal);
            default -> true;
        };
    }

    enum Truth { TRUE, FALSE, UNKNOWN }

    /** The truth value of a constant test ({@code while True}, {@code if 0}); UNKNOWN otherwise. */
    static Truth truth(Expr e) {
        if (!(e instanceof Expr.Constant c)) return Truth.UNKNOWN;
        Object v = c.value();
        boolean t;
        if (v instanceof Boolean b) t = b;
        else if (v instanceof BigInteger i) t = i.signum() != 0;
        else if (v instanceof Double d) t = d != 0.0;
        else if (v instanceof PyConstant.Complex z) t = z.real() != 0.0 || z.imag() != 0.0;
        else if (v instanceof String str) t = !str.isEmpty();
        else if (v instanceof PyConstant.Bytes b) t = b.value().length > 0;
        else if (v == PyConstant.Singleton.ELLIPSIS) t = true;
        else if (v == null || v == PyConstant.Singleton.NONE) t = false;
        else return Truth.UNKNOWN;
        return t ? Truth.TRUE : Truth.FALSE;
    }

    // ------------------------------------------------------------------ freezing

    private ControlFlowGraph freeze(Node scope) {
        blocks.add(exit);
        blocks.add(raiseExit);
        List<Block> out = new ArrayList<>(blocks.size());
        for (int i = 0; i < blocks.size(); i++) {
            MBlock m = blocks.get(i);
            m.id = i;
            out.add(new Block(i, m.kind, m.steps));
        }
        List<List<Edge>> succ = new ArrayList<>();
        List<List<Edge>> pred = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            succ.add(new ArrayList<>());
            pred.add(new ArrayList<>());
        }
        for (MBlock m : blocks) {
            List<MEdge> es = new ArrayList<>(m.succ);
            es.sort((a, b) -> Integer.compare(a.kind().ordinal(), b.kind().ordinal()));
            for (MEdge e : es) {
                Edge edge = new Edge(out.get(m.id), e.kind(), out.get(e.to().id));
                succ.get(m.id).add(edge);
                pred.get(e.to().id).add(edge);
            }
        }
        for (List<Edge> p : pred) {
            p.sort((a, b) -> a.source().id() != b.source().id()
                    ? Integer.compare(a.source().id(), b.source().id())
                    : Integer.compare(a.kind().ordinal(), b.kind().ordinal()));
        }
        IdentityHashMap<Stmt, List<Block>> startBlocks = new IdentityHashMap<>();
        starts.forEach((stmt, ms) -> {
            List<Block> bs = new ArrayList<>(ms.size());
            for (MBlock m : ms) bs.add(out.get(m.id));
            startBlocks.put(stmt, List.copyOf(bs));
        });
        return new ControlFlowGraph(scope, out, succ, pred, startBlocks, shareFinally);
    }
}
