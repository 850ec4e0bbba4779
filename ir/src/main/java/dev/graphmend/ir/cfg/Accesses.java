package dev.graphmend.ir.cfg;

import dev.graphmend.ir.ast.Alias;
import dev.graphmend.ir.ast.Arg;
import dev.graphmend.ir.ast.Arguments;
import dev.graphmend.ir.ast.Comprehension;
import dev.graphmend.ir.ast.ExceptHandler;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.ExprContext;
import dev.graphmend.ir.ast.Keyword;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Pattern;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.WithItem;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a step reads and binds, in evaluation order: name uses, definitions and deletions of the
 * scope's names. Names only; which scope a name belongs to ({@code global}, {@code nonlocal},
 * free variables) is the symbol table's business.
 *
 * <p>The events form a small tree, because parts of an expression run conditionally: a
 * {@link Choice} runs exactly one of its alternatives (an empty alternative means "skipped"): the
 * later operands of {@code and}/{@code or} and of a comparison chain, the branches of a
 * conditional expression, an assert's message, the alternatives of an or-pattern. A
 * {@link Repeat} runs zero or more times: the inside of a comprehension. So a walrus in the second
 * operand of {@code and} is certain for the third operand and only possible after the expression.
 * Inside a comprehension, names bound by its {@code for} targets are the comprehension's own: they
 * are neither definitions nor uses here; its first iterable is evaluated outside, everything else
 * inside (for a generator expression, later, when it is consumed; the uses are counted here).
 * A lambda's defaults are evaluated here; its body is another scope. A nested {@code def} or
 * {@code class} evaluates its decorators, defaults, annotations, bases and keywords here, then
 * binds its name.
 */
final class Accesses {

    sealed interface Event permits Use, Def, Kill, Choice, Repeat {}

    /** A name read; for {@code x += 1} the target {@code Name} itself (it is read, then written). */
    record Use(Expr.Name name) implements Event {}

    record Def(Node node, String name, Definition.Kind kind) implements Event {}

    /** {@code del x}, or the implicit deletion of an {@code except ... as x} name. */
    record Kill(String name) implements Event {}

    /** Exactly one of the alternatives runs. */
    record Choice(List<List<Event>> alternatives) implements Event {}

    /** The events run zero or more times. */
    record Repeat(List<Event> body) implements Event {}

    private List<Event> out = new ArrayList<>();
    private final List<Set<String>> shadows = new ArrayList<>();

    private Accesses() {}

    static List<Event> of(Step step) {
        Accesses a = new Accesses();
        a.step(step);
        return a.out;
    }

    private void step(Step s) {
        Node n = s.node();
        switch (s.kind()) {
            case PARAMETERS -> params((Arguments) n);
            case STATEMENT -> stmt((Stmt) n);
            case TEST, ITER, SUBJECT, EVAL -> expr((Expr) n);
            case NEXT, EXIT -> { }
            case BIND -> target((Expr) n, s.statement() instanceof Stmt.For || s.statement() instanceof Stmt.AsyncFor
                    ? Definition.Kind.FOR_TARGET : Definition.Kind.WITH_TARGET);
            case ENTER -> expr(((WithItem) n).contextExpr());
            case MATCH -> pattern((Pattern) n);
            case EXCEPT -> {
                ExceptHandler h = (ExceptHandler) n;
                if (h.type() != null) expr(h.type());
            }
            case HANDLER -> {
                ExceptHandler h = (ExceptHandler) n;
                if (h.name() != null) out.add(new Def(h, h.name(), Definition.Kind.EXCEPT_NAME));
            }
            case UNBIND -> out.add(new Kill(((ExceptHandler) n).name()));
        }
    }

    /** The events {@code r} emits, collected apart from the current list. */
    private List<Event> sub(Runnable r) {
        List<Event> saved = out;
        out = new ArrayList<>();
        try {
            r.run();
            return out;
        } finally {
            out = saved;
        }
    }

    /** {@code r} may run or not. */
    private void maybe(Runnable r) {
        List<Event> events = sub(r);
        if (!events.isEmpty()) out.add(new Choice(List.of(List.of(), events)));
    }

    private void params(Arguments a) {
        for (Arg x : allArgs(a)) out.add(new Def(x, x.arg(), Definition.Kind.PARAMETER));
    }

    private static List<Arg> allArgs(Arguments a) {
        List<Arg> all = new ArrayList<>(a.posonlyargs());
        all.addAll(a.args());
        if (a.vararg() != null) all.add(a.vararg());
        all.addAll(a.kwonlyargs());
        if (a.kwarg() != null) all.add(a.kwarg());
        return all;
    }

    private void stmt(Stmt s) {
        if (s instanceof Stmt.Assign x) {
            expr(x.value());
            for (Expr t : x.targets()) target(t, Definition.Kind.ASSIGN);
        } else if (s instanceof Stmt.AugAssign x) {
            if (x.target() instanceof Expr.Name name) {
                out.add(new Use(name));
                expr(x.value());
                out.add(new Def(name, name.id(), Definition.Kind.AUG_ASSIGN));
            } else {
                targetParts(x.target());
                expr(x.value());
            }
        } else if (s instanceof Stmt.AnnAssign x) {
            if (x.value() != null) {
                expr(x.value());
                target(x.target(), Definition.Kind.ANN_ASSIGN);
            } else if (!(x.target() instanceof Expr.Name)) {
                targetParts(x.target());
            }
            expr(x.annotation());
        } else if (s instanceof Stmt.Delete x) {
            for (Expr t : x.targets()) delete(t);
        } else if (s instanceof Stmt.Expr x) {
            expr(x.value());
        } else if (s instanceof Stmt.Return x) {
            if (x.value() != null) expr(x.value());
        } else if (s instanceof Stmt.Raise x) {
            if (x.exc() != null) expr(x.exc());
            if (x.cause() != null) expr(x.cause());
        } else if (s instanceof Stmt.Assert x) {
            expr(x.test());
            if (x.msg() != null) maybe(() -> expr(x.msg())); // evaluated only when the test fails
        } else if (s instanceof Stmt.Import x) {
            for (Alias a : x.names()) {
                String bound = a.asname() != null ? a.asname() : firstComponent(a.name());
                out.add(new Def(a, bound, Definition.Kind.IMPORT));
            }
        } else if (s instanceof Stmt.ImportFrom x) {
            for (Alias a : x.names()) {
                if ("*".equals(a.name())) continue; // binds names nobody can list here
                out.add(new Def(a, a.asname() != null ? a.asname() : a.name(), Definition.Kind.IMPORT));
            }
        } else if (s instanceof Stmt.FunctionDef x) {
            function(x.decoratorList(), x.args(), x.returns());
            out.add(new Def(x, x.name(), Definition.Kind.FUNCTION));
        } else if (s instanceof Stmt.AsyncFunctionDef x) {
            function(x.decoratorList(), x.args(), x.returns());
            out.add(new Def(x, x.name(), Definition.Kind.FUNCTION));
        } else if (s instanceof Stmt.ClassDef x) {
            for (Expr d : x.decoratorList()) expr(d);
            for (Expr b : x.bases()) expr(b);
            for (Keyword k : x.keywords()) expr(k.value());
            out.add(new Def(x, x.name(), Definition.Kind.CLASS));
        } else if (s instanceof Stmt.TypeAlias x) {
            // The value is evaluated lazily, in a scope of its own.
            if (x.name() instanceof Expr.Name name) out.add(new Def(name, name.id(), Definition.Kind.TYPE_ALIAS));
        }
        // Pass, Break, Continue, Global, Nonlocal: nothing. Compound statements are never steps.
    }

    private static String firstComponent(String dotted) {
        int dot = dotted.indexOf('.');
        return dot < 0 ? dotted : dotted.substring(0, dot);
    }

    private void function(List<Expr> decorators, Arguments args, Expr returns) {
        for (Expr d : decorators) expr(d);
        for (Expr d : args.defaults()) expr(d);
        for (Expr d : args.kwDefaults()) if (d != null) expr(d);
        for (Arg a : allArgs(args)) if (a.annotation() != null) expr(a.annotation());
        if (returns != null) expr(returns);
    }

    // ------------------------------------------------------------------ targets

    /** A binding target: names are defined, attribute and subscript targets read their parts. */
    private void target(Expr t, Definition.Kind kind) {
        if (t instanceof Expr.Name n) {
            if (!shadowed(n.id())) out.add(new Def(n, n.id(), kind));
        } else if (t instanceof Expr.Tuple x) {
            for (Expr e : x.elts()) target(e, kind);
        } else if (t instanceof Expr.List x) {
            for (Expr e : x.elts()) target(e, kind);
        } else if (t instanceof Expr.Starred x) {
            target(x.value(), kind);
        } else {
            targetParts(t);
        }
    }

    /** The reads an attribute or subscript target makes before the store. */
    private void targetParts(Expr t) {
        if (t instanceof Expr.Attribute a) {
            expr(a.value());
        } else if (t instanceof Expr.Subscript s) {
            expr(s.value());
            expr(s.slice());
        } else if (!(t instanceof Expr.Name)) {
            expr(t);
        }
    }

    private void delete(Expr t) {
        if (t instanceof Expr.Name n) {
            if (!shadowed(n.id())) out.add(new Kill(n.id()));
        } else if (t instanceof Expr.Tuple x) {
            for (Expr e : x.elts()) delete(e);
        } else if (t instanceof Expr.List x) {
            for (Expr e : x.elts()) delete(e);
        } else {
            targetParts(t);
        }
    }

    // ------------------------------------------------------------------ expressions

    private boolean shadowed(String name) {
        for (Set<String> s : shadows) if (s.contains(name)) return true;
        return false;
    }

    private void expr(Expr e) {
        if (e == null) return;
        if (e instanceof Expr.Name n) {
            if (shadowed(n.id())) return;
            if (n.ctx() == ExprContext.Load) out.add(new Use(n));
            else if (n.ctx() == ExprContext.Del) out.add(new Kill(n.id()));
            else out.add(new Def(n, n.id(), Definition.Kind.ASSIGN));
        } else if (e instanceof Expr.NamedExpr x) {
            expr(x.value());
            // In a comprehension the walrus binds in the enclosing scope (the Repeat makes it possible, not certain).
            if (x.target() instanceof Expr.Name n) out.add(new Def(n, n.id(), Definition.Kind.WALRUS));
            else target(x.target(), Definition.Kind.WALRUS);
        } else if (e instanceof Expr.BoolOp x) {
            chain(x.values(), 0);
        } else if (e instanceof Expr.IfExp x) {
            expr(x.test());
            out.add(new Choice(List.of(sub(() -> expr(x.body())), sub(() -> expr(x.orelse())))));
        } else if (e instanceof Expr.Compare x) {
            List<Expr> operands = new ArrayList<>();
            operands.add(x.left());
            operands.addAll(x.comparators());
            // a < b < c evaluates a, b; then c only when a < b held.
            expr(operands.get(0));
            expr(operands.get(1));
            chain(operands, 2);
        } else if (e instanceof Expr.Lambda x) {
            for (Expr d : x.args().defaults()) expr(d);
            for (Expr d : x.args().kwDefaults()) if (d != null) expr(d);
        } else if (e instanceof Expr.Dict x) {
            for (int i = 0; i < x.values().size(); i++) {
                if (i < x.keys().size() && x.keys().get(i) != null) expr(x.keys().get(i));
                expr(x.values().get(i));
            }
        } else if (e instanceof Expr.ListComp x) {
            comprehension(x.generators(), List.of(x.elt()));
        } else if (e instanceof Expr.SetComp x) {
            comprehension(x.generators(), List.of(x.elt()));
        } else if (e instanceof Expr.GeneratorExp x) {
            comprehension(x.generators(), List.of(x.elt()));
        } else if (e instanceof Expr.DictComp x) {
            comprehension(x.generators(), List.of(x.key(), x.value()));
        } else {
            e.forEachChild(this::child);
        }
    }

    /** {@code values[i]} runs, then possibly the rest: the short-circuit tail of a chain. */
    private void chain(List<Expr> values, int i) {
        if (i == 0) {
            expr(values.get(0));
            chain(values, 1);
            return;
        }
        if (i >= values.size()) return;
        maybe(() -> {
            expr(values.get(i));
            chain(values, i + 1);
        });
    }

    private void child(Node c) {
        if (c instanceof Expr x) expr(x);
        else if (c instanceof Keyword k) expr(k.value());
        else c.forEachChild(this::child);
    }

    private void comprehension(List<Comprehension> gens, List<Expr> elements) {
        expr(gens.get(0).iter());
        Set<String> bound = new HashSet<>();
        for (Comprehension g : gens) storedNames(g.target(), bound);
        shadows.add(bound);
        generator(gens, 0, elements);
        shadows.remove(shadows.size() - 1);
    }

    /** One {@code for} clause: its iterations run zero or more times. */
    private void generator(List<Comprehension> gens, int i, List<Expr> elements) {
        Comprehension g = gens.get(i);
        if (i > 0) expr(g.iter());
        List<Event> body = sub(() -> {
            target(g.target(), Definition.Kind.ASSIGN); // shadowed names vanish; attribute targets are read
            filters(g.ifs(), 0, () -> {
                if (i + 1 < gens.size()) generator(gens, i + 1, elements);
                else for (Expr el : elements) expr(el);
            });
        });
        if (!body.isEmpty()) out.add(new Repeat(body));
    }

    /** {@code if} clauses: each one decides whether the rest of the iteration runs. */
    private void filters(List<Expr> ifs, int j, Runnable rest) {
        if (j == ifs.size()) {
            rest.run();
            return;
        }
        expr(ifs.get(j));
        maybe(() -> filters(ifs, j + 1, rest));
    }

    private static void storedNames(Expr t, Set<String> into) {
        if (t instanceof Expr.Name n) into.add(n.id());
        else if (t instanceof Expr.Tuple x) for (Expr e : x.elts()) storedNames(e, into);
        else if (t instanceof Expr.List x) for (Expr e : x.elts()) storedNames(e, into);
        else if (t instanceof Expr.Starred x) storedNames(x.value(), into);
    }

    // ------------------------------------------------------------------ patterns

    private void pattern(Pattern p) {
        if (p instanceof Pattern.MatchValue x) {
            expr(x.value());
        } else if (p instanceof Pattern.MatchSequence x) {
            for (Pattern q : x.patterns()) pattern(q);
        } else if (p instanceof Pattern.MatchMapping x) {
            for (Expr k : x.keys()) expr(k);
            for (Pattern q : x.patterns()) pattern(q);
            if (x.rest() != null) capture(x, x.rest());
        } else if (p instanceof Pattern.MatchClass x) {
            expr(x.cls());
            for (Pattern q : x.patterns()) pattern(q);
            for (Pattern q : x.kwdPatterns()) pattern(q);
        } else if (p instanceof Pattern.MatchStar x) {
            if (x.name() != null) capture(x, x.name());
        } else if (p instanceof Pattern.MatchAs x) {
            if (x.pattern() != null) pattern(x.pattern());
            if (x.name() != null) capture(x, x.name());
        } else if (p instanceof Pattern.MatchOr x) {
            // The alternative that matches binds (all alternatives bind the same names).
            List<List<Event>> alternatives = new ArrayList<>();
            for (Pattern q : x.patterns()) alternatives.add(sub(() -> pattern(q)));
            out.add(new Choice(alternatives));
        }
        // MatchSingleton: nothing.
    }

    private void capture(Pattern p, String name) {
        out.add(new Def(p, name, Definition.Kind.MATCH_CAPTURE));
    }
}
