package dev.graphmend.ir.cfg;

import dev.graphmend.ir.ast.Arg;
import dev.graphmend.ir.ast.ExceptHandler;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.ExprContext;
import dev.graphmend.ir.ast.Keyword;
import dev.graphmend.ir.ast.MatchCase;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Pattern;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.WithItem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reaching-definitions oracle: an abstract interpreter that runs a function's AST on
 * <em>sets of environments</em>, where an environment maps each bound name to the node that bound
 * it last. It knows nothing of control-flow graphs: it walks the statements with their own
 * meaning (branches run both ways, loops iterate to a fixed point of the environment sets,
 * {@code try} collects the environments at every point where an exception may be raised, each
 * {@code finally} runs separately for each way of leaving its {@code try}, {@code with} may
 * suppress, {@code except ... as e} deletes {@code e} on every way out). Because it keeps whole
 * environments per path instead of a gen/kill summary, the set of definitions seen at a use is
 * exactly the meet-over-all-paths solution, which reaching definitions must equal.
 *
 * <p>Assumptions it shares with the graphs, as facts about Python: {@code pass}, {@code break},
 * {@code continue}, binding a plain name (loop target, {@code with} target, handler name) and the
 * implicit {@code del} of a handler name cannot raise; any other statement, test, pattern or
 * {@code __enter__}/{@code __exit__} may raise at any point, i.e. before it starts and after each
 * binding it makes. A failed pattern may have bound any subset of its captures. Operands of
 * {@code and}/{@code or}, the branches of a conditional expression and later comparisons of a chain
 * may or may not run. Only the constructs of {@link RandomPrograms} are supported; anything else
 * throws, so the generator and the oracle cannot drift apart silently.
 */
final class PathSemantics {

    /** An environment: name to the id of its binding node. Immutable. */
    record Env(Map<String, Integer> bound) {
        Env with(String name, int def) {
            Map<String, Integer> m = new HashMap<>(bound);
            m.put(name, def);
            return new Env(Map.copyOf(m));
        }

        Env without(String name) {
            if (!bound.containsKey(name)) return this;
            Map<String, Integer> m = new HashMap<>(bound);
            m.remove(name);
            return new Env(Map.copyOf(m));
        }
    }

    /** Environments per way of leaving a statement. */
    static final class Outcome {
        final Set<Env> normal = new HashSet<>();
        final Set<Env> brk = new HashSet<>();
        final Set<Env> cont = new HashSet<>();
        final Set<Env> ret = new HashSet<>();
        final Set<Env> exc = new HashSet<>();

        void addJumps(Outcome o) {
            brk.addAll(o.brk);
            cont.addAll(o.cont);
            ret.addAll(o.ret);
            exc.addAll(o.exc);
        }

        List<Set<Env>> all() {
            return List.of(normal, brk, cont, ret, exc);
        }
    }

    private final IdentityHashMap<Node, Integer> ids = new IdentityHashMap<>();
    private final List<Node> nodes = new ArrayList<>();
    /** For each use (a Name node, by identity), the binding nodes seen there. */
    final IdentityHashMap<Expr.Name, Set<Node>> reaching = new IdentityHashMap<>();

    private int id(Node n) {
        Integer i = ids.get(n);
        if (i == null) {
            i = nodes.size();
            ids.put(n, i);
            nodes.add(n);
        }
        return i;
    }

    static PathSemantics run(Stmt.FunctionDef f) {
        PathSemantics p = new PathSemantics();
        Env env = new Env(Map.of());
        for (Arg a : f.args().args()) env = env.with(a.arg(), p.id(a));
        Set<Env> in = new HashSet<>();
        in.add(env);
        p.block(f.body(), in);
        return p;
    }

    // ------------------------------------------------------------------ statements

    private Outcome block(List<Stmt> body, Set<Env> in) {
        Outcome out = new Outcome();
        Set<Env> cur = in;
        for (Stmt s : body) {
            Outcome o = stmt(s, cur);
            out.addJumps(o);
            cur = o.normal;
        }
        out.normal.addAll(cur);
        return out;
    }

    private Outcome stmt(Stmt s, Set<Env> in) {
        Outcome o = new Outcome();
        if (in.isEmpty()) return o; // dead code: no path gets here
        if (s instanceof Stmt.Pass) {
            o.normal.addAll(in);
        } else if (s instanceof Stmt.Break) {
            o.brk.addAll(in);
        } else if (s instanceof Stmt.Continue) {
            o.cont.addAll(in);
        } else if (s instanceof Stmt.Assign x) {
            Eval e = new Eval(in);
            Set<Env> r = e.expr(x.value(), in);
            for (Expr t : x.targets()) r = e.bind(name(t), r);
            o.normal.addAll(r);
            o.exc.addAll(e.seen);
        } else if (s instanceof Stmt.AugAssign x) {
            Eval e = new Eval(in);
            Expr.Name t = name(x.target());
            use(t, in);
            Set<Env> r = e.bind(t, e.expr(x.value(), in));
            o.normal.addAll(r);
            o.exc.addAll(e.seen);
        } else if (s instanceof Stmt.Delete x) {
            Set<Env> r = in;
            for (Expr t : x.targets()) r = kill(name(t).id(), r);
            o.normal.addAll(r);
            o.exc.addAll(in); // del of an unbound name raises before deleting
        } else if (s instanceof Stmt.Expr x) {
            Eval e = new Eval(in);
            o.normal.addAll(e.expr(x.value(), in));
            o.exc.addAll(e.seen);
        } else if (s instanceof Stmt.Return x) {
            Eval e = new Eval(in);
            o.ret.addAll(x.value() == null ? in : e.expr(x.value(), in));
            o.exc.addAll(e.seen);
        } else if (s instanceof Stmt.Raise x) {
            Eval e = new Eval(in);
            o.exc.addAll(e.expr(x.exc(), in));
            o.exc.addAll(e.seen);
        } else if (s instanceof Stmt.Assert x) {
            Eval e = new Eval(in);
            Set<Env> r = e.expr(x.test(), in);
            if (!(x.msg() == null || x.msg() instanceof Expr.Constant)) throw unsupported(x.msg());
            o.normal.addAll(r);
            o.exc.addAll(r); // the assertion fails
            o.exc.addAll(e.seen);
        } else if (s instanceof Stmt.If x) {
            Eval e = new Eval(in);
            Set<Env> r = e.expr(x.test(), in);
            o.exc.addAll(e.seen);
            Outcome a = block(x.body(), r);
            Outcome b = block(x.orelse(), r);
            for (Outcome p : List.of(a, b)) {
                o.normal.addAll(p.normal);
                o.addJumps(p);
            }
        } else if (s instanceof Stmt.While x) {
            whileLoop(x, in, o);
        } else if (s instanceof Stmt.For x) {
            forLoop(x, in, o);
        } else if (s instanceof Stmt.Try x) {
            tryStmt(x, in, o);
        } else if (s instanceof Stmt.With x) {
            withStmt(x, x.items(), 0, in, o);
        } else if (s instanceof Stmt.Match x) {
            matchStmt(x, in, o);
        } else {
            throw unsupported(s);
        }
        return o;
    }

    private void whileLoop(Stmt.While x, Set<Env> in, Outcome o) {
        Set<Env> head = new HashSet<>(in);
        while (true) {
            Eval e = new Eval(head);
            Set<Env> tested = e.expr(x.test(), head);
            Outcome body = block(x.body(), tested);
            Set<Env> next = new HashSet<>(in);
            next.addAll(body.normal);
            next.addAll(body.cont);
            if (next.equals(head)) {
                // Fixed point: the last round saw every environment.
                o.exc.addAll(e.seen);
                o.ret.addAll(body.ret);
                o.exc.addAll(body.exc);
                Outcome orelse = block(x.orelse(), tested);
                o.normal.addAll(orelse.normal);
                o.addJumps(orelse);
                o.normal.addAll(body.brk);
                return;
            }
            head = next;
        }
    }

    private void forLoop(Stmt.For x, Set<Env> in, Outcome o) {
        Eval e = new Eval(in);
        Set<Env> start = e.expr(x.iter(), in);
        o.exc.addAll(e.seen);
        Set<Env> head = new HashSet<>(start);
        while (true) {
            Set<Env> bound = new Eval(head).bind(name(x.target()), head); // a plain name: cannot fail
            Outcome body = block(x.body(), bound);
            Set<Env> next = new HashSet<>(start);
            next.addAll(body.normal);
            next.addAll(body.cont);
            if (next.equals(head)) {
                o.exc.addAll(head); // next() may raise
                o.ret.addAll(body.ret);
                o.exc.addAll(body.exc);
                Outcome orelse = block(x.orelse(), head);
                o.normal.addAll(orelse.normal);
                o.addJumps(orelse);
                o.normal.addAll(body.brk);
                return;
            }
            head = next;
        }
    }

    private void tryStmt(Stmt.Try x, Set<Env> in, Outcome o) {
        Outcome body = block(x.body(), in);
        Outcome total = new Outcome();
        total.brk.addAll(body.brk);
        total.cont.addAll(body.cont);
        total.ret.addAll(body.ret);
        Set<Env> pending = body.exc;
        for (ExceptHandler h : x.handlers()) {
            Set<Env> matched;
            if (h.type() != null) {
                Eval e = new Eval(pending);
                Set<Env> r = e.expr(h.type(), pending);
                total.exc.addAll(e.seen); // evaluating the type may raise
                matched = r;
                pending = r;
            } else {
                matched = pending;
                pending = Set.of();
            }
            if (matched.isEmpty()) continue;
            Set<Env> hin = matched;
            if (h.name() != null) {
                Set<Env> b = new HashSet<>();
                for (Env env : matched) b.add(env.with(h.name(), id(h)));
                hin = b;
            }
            Outcome ho = block(h.body(), hin);
            if (h.name() != null) {
                for (Set<Env> part : ho.all()) { // the implicit `del name` on every way out
                    Set<Env> cleaned = kill(h.name(), part);
                    part.clear();
                    part.addAll(cleaned);
                }
            }
            total.normal.addAll(ho.normal);
            total.addJumps(ho);
        }
        total.exc.addAll(pending); // no handler matched
        Outcome orelse = block(x.orelse(), body.normal);
        total.normal.addAll(orelse.normal);
        total.addJumps(orelse);
        if (x.finalbody().isEmpty()) {
            o.normal.addAll(total.normal);
            o.addJumps(total);
            return;
        }
        // The finally body runs once per way of leaving, and then that way goes on.
        List<Set<Env>> routes = total.all();
        List<Set<Env>> targets = o.all();
        for (int k = 0; k < routes.size(); k++) {
            if (routes.get(k).isEmpty()) continue;
            Outcome f = block(x.finalbody(), routes.get(k));
            targets.get(k).addAll(f.normal);
            o.addJumps(f);
        }
    }

    private void withStmt(Stmt.With x, List<WithItem> items, int i, Set<Env> in, Outcome o) {
        if (i == items.size()) {
            Outcome b = block(x.body(), in);
            o.normal.addAll(b.normal);
            o.addJumps(b);
            return;
        }
        WithItem item = items.get(i);
        Eval e = new Eval(in);
        Set<Env> entered = e.expr(item.contextExpr(), in);
        o.exc.addAll(e.seen);
        o.exc.addAll(entered); // __enter__ may raise
        if (item.optionalVars() != null) entered = e.bind(name(item.optionalVars()), entered);
        Outcome inner = new Outcome();
        withStmt(x, items, i + 1, entered, inner);
        // __exit__ runs on every way out and may raise; after an exception it may suppress it.
        List<Set<Env>> routes = inner.all();
        List<Set<Env>> targets = o.all();
        for (int k = 0; k < routes.size(); k++) {
            targets.get(k).addAll(routes.get(k));
            o.exc.addAll(routes.get(k));
        }
        o.normal.addAll(inner.exc);
    }

    private void matchStmt(Stmt.Match x, Set<Env> in, Outcome o) {
        Eval e = new Eval(in);
        Set<Env> pending = e.expr(x.subject(), in);
        o.exc.addAll(e.seen);
        for (MatchCase c : x.cases()) {
            if (pending.isEmpty()) break;
            List<List<Capture>> alternatives = new ArrayList<>();
            alternatives(c.pattern(), pending, o, alternatives);
            // Success: one alternative matched and bound all its captures.
            Set<Env> success = new HashSet<>();
            for (List<Capture> alt : alternatives) {
                for (Env env : pending) {
                    Env b = env;
                    for (Capture cap : alt) b = b.with(cap.name, id(cap.node));
                    success.add(b);
                }
            }
            // Failure (when the pattern can fail): any subset of the captures may have been bound.
            Set<Env> failure = new HashSet<>();
            if (!alwaysMatches(c.pattern())) {
                failure.addAll(pending);
                for (List<Capture> alt : alternatives) {
                    for (Capture cap : alt) {
                        Set<Env> more = new HashSet<>();
                        for (Env env : failure) more.add(env.with(cap.name, id(cap.node)));
                        failure.addAll(more);
                    }
                }
            }
            o.exc.addAll(pending); // matching may raise (it calls __eq__ and the like) ...
            o.exc.addAll(success); // ... also after binding
            o.exc.addAll(failure);
            Set<Env> go = success;
            if (c.guard() != null) {
                Eval g = new Eval(success);
                go = g.expr(c.guard(), success);
                o.exc.addAll(g.seen);
                failure.addAll(go); // the guard is false
            }
            Outcome b = block(c.body(), go);
            o.normal.addAll(b.normal);
            o.addJumps(b);
            pending = failure;
        }
        o.normal.addAll(pending); // no case matched
    }

    /** A capture or wildcard matches anything (also as one alternative of an or-pattern, or under {@code as}). */
    private static boolean alwaysMatches(Pattern p) {
        if (p instanceof Pattern.MatchAs as) return as.pattern() == null || alwaysMatches(as.pattern());
        if (p instanceof Pattern.MatchOr or) return or.patterns().stream().anyMatch(PathSemantics::alwaysMatches);
        return false;
    }

    private record Capture(String name, Pattern node) {}

    /** The ways a pattern can bind: one list of captures per alternative; reads values' names. */
    private void alternatives(Pattern p, Set<Env> envs, Outcome o, List<List<Capture>> out) {
        if (p instanceof Pattern.MatchOr or) {
            for (Pattern q : or.patterns()) alternatives(q, envs, o, out);
        } else if (p instanceof Pattern.MatchAs as) {
            List<List<Capture>> inner = new ArrayList<>();
            if (as.pattern() != null) alternatives(as.pattern(), envs, o, inner);
            else inner.add(new ArrayList<>());
            for (List<Capture> alt : inner) {
                List<Capture> l = new ArrayList<>(alt);
                if (as.name() != null) l.add(new Capture(as.name(), as));
                out.add(l);
            }
        } else if (p instanceof Pattern.MatchValue v) {
            if (!(v.value() instanceof Expr.Constant)) throw unsupported(v.value());
            out.add(new ArrayList<>());
        } else {
            throw unsupported(p);
        }
    }

    // ------------------------------------------------------------------ expressions

    /** One step's evaluation: {@code seen} collects every environment at which it may raise. */
    private final class Eval {
        final Set<Env> seen = new HashSet<>();

        Eval(Set<Env> before) {
            seen.addAll(before);
        }

        Set<Env> bind(Expr.Name target, Set<Env> envs) {
            Set<Env> r = new HashSet<>();
            for (Env env : envs) r.add(env.with(target.id(), id(target)));
            seen.addAll(r);
            return r;
        }

        Set<Env> expr(Expr e, Set<Env> in) {
            if (e instanceof Expr.Name n) {
                if (n.ctx() != ExprContext.Load) throw unsupported(n);
                use(n, in);
                return in;
            } else if (e instanceof Expr.Constant) {
                return in;
            } else if (e instanceof Expr.NamedExpr w) {
                return bind(name(w.target()), expr(w.value(), in));
            } else if (e instanceof Expr.BoolOp b) {
                Set<Env> cur = expr(b.values().get(0), in);
                Set<Env> out = new HashSet<>(cur);
                for (int i = 1; i < b.values().size(); i++) {
                    cur = expr(b.values().get(i), cur);
                    out.addAll(cur);
                }
                return out;
            } else if (e instanceof Expr.Compare c) {
                Set<Env> cur = expr(c.comparators().get(0), expr(c.left(), in));
                Set<Env> out = new HashSet<>(cur);
                for (int i = 1; i < c.comparators().size(); i++) {
                    cur = expr(c.comparators().get(i), cur);
                    out.addAll(cur);
                }
                return out;
            } else if (e instanceof Expr.IfExp x) {
                Set<Env> t = expr(x.test(), in);
                Set<Env> out = new HashSet<>(expr(x.body(), t));
                out.addAll(expr(x.orelse(), t));
                return out;
            } else if (e instanceof Expr.BinOp x) {
                return expr(x.right(), expr(x.left(), in));
            } else if (e instanceof Expr.UnaryOp x) {
                return expr(x.operand(), in);
            } else if (e instanceof Expr.Call x) {
                Set<Env> r = expr(x.func(), in);
                for (Expr a : x.args()) r = expr(a, r);
                for (Keyword k : x.keywords()) r = expr(k.value(), r);
                return r;
            } else if (e instanceof Expr.Yield y) {
                return y.value() == null ? in : expr(y.value(), in);
            } else if (e instanceof Expr.Tuple t) {
                Set<Env> r = in;
                for (Expr x : t.elts()) r = expr(x, r);
                return r;
            }
            throw unsupported(e);
        }
    }

    private void use(Expr.Name n, Set<Env> envs) {
        Set<Node> s = reaching.computeIfAbsent(n, k -> Collections.newSetFromMap(new IdentityHashMap<>()));
        for (Env env : envs) {
            Integer d = env.bound().get(n.id());
            if (d != null) s.add(nodes.get(d));
        }
    }

    private static Set<Env> kill(String name, Set<Env> envs) {
        Set<Env> r = new HashSet<>();
        for (Env env : envs) r.add(env.without(name));
        return r;
    }

    private static Expr.Name name(Expr t) {
        if (t instanceof Expr.Name n) return n;
        throw unsupported(t);
    }

    private static UnsupportedOperationException unsupported(Node n) {
        return new UnsupportedOperationException("the reaching-definitions oracle does not model " + n.pyType());
    }
}
