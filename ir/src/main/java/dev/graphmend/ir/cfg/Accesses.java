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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a step reads and binds, in evaluation order: name uses, definitions and deletions of the
 * scope's names. Names only; which scope a name belongs to ({@code global}, {@code nonlocal},
 * free variables) is the symbol table's business.
 *
 * <p>Conditionally evaluated parts of an expression (the right operands of {@code and}/{@code or},
 * the branches of a conditional expression, the later comparisons of a chain, the inside of a
 * comprehension, an assert's message) may or may not run: a walrus there is a <em>weak</em>
 * definition, which adds itself without removing the definitions it would replace.
 * Inside a comprehension, names bound by its {@code for} targets are the comprehension's own: they
 * are neither definitions nor uses here; its first iterable is evaluated outside, everything else
 * inside (for a generator expression, later, when it is consumed; the uses are counted here).
 * A lambda's defaults are evaluated here; its body is another scope. A nested {@code def} or
 * {@code class} evaluates its decorators, defaults, annotations, bases and keywords here, then
 * binds its name.
 */
final class Accesses {

    sealed interface Event permits Use, Def, Kill {}

    /** A name read; for {@code x += 1} the target {@code Name} itself (it is read, then written). */
    record Use(Expr.Name name) implements Event {}

    record Def(Node node, String name, Definition.Kind kind, boolean strong) implements Event {}

    /** {@code del x}, or the implicit deletion of an {@code except ... as x} name. */
    record Kill(String name) implements Event {}

    private final List<Event> out = new ArrayList<>();
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
            case TEST, ITER, SUBJECT, EVAL -> expr((Expr) n, false);
            case NEXT, EXIT -> { }
            case BIND -> target((Expr) n, s.statement() instanceof Stmt.For || s.statement() instanceof Stmt.AsyncFor
                    ? Definition.Kind.FOR_TARGET : Definition.Kind.WITH_TARGET, false);
            case ENTER -> expr(((WithItem) n).contextExpr(), false);
            case MATCH -> pattern((Pattern) n, false);
            case EXCEPT -> {
                ExceptHandler h = (ExceptHandler) n;
                if (h.type() != null) expr(h.type(), false);
            }
            case HANDLER -> {
                ExceptHandler h = (ExceptHandler) n;
                if (h.name() != null) out.add(new Def(h, h.name(), Definition.Kind.EXCEPT_NAME, true));
            }
            case UNBIND -> out.add(new Kill(((ExceptHandler) n).name()));
        }
    }

    private void params(Arguments a) {
        List<Arg> all = new ArrayList<>(a.posonlyargs());
        all.addAll(a.args());
        if (a.vararg() != null) all.add(a.vararg());
        all.addAll(a.kwonlyargs());
        if (a.kwarg() != null) all.add(a.kwarg());
        for (Arg x : all) out.add(new Def(x, x.arg(), Definition.Kind.PARAMETER, true));
    }

    private void stmt(Stmt s) {
        if (s instanceof Stmt.Assign x) {
            expr(x.value(), false);
            for (Expr t : x.targets()) target(t, Definition.Kind.ASSIGN, false);
        } else if (s instanceof Stmt.AugAssign x) {
            if (x.target() instanceof Expr.Name name) {
                out.add(new Use(name));
                expr(x.value(), false);
                out.add(new Def(name, name.id(), Definition.Kind.AUG_ASSIGN, true));
            } else {
                targetParts(x.target(), false);
                expr(x.value(), false);
            }
        } else if (s instanceof Stmt.AnnAssign x) {
            if (x.value() != null) {
                expr(x.value(), false);
                target(x.target(), Definition.Kind.ANN_ASSIGN, false);
            } else if (!(x.target() instanceof Expr.Name)) {
                targetParts(x.target(), false);
            }
            expr(x.annotation(), false);
        } else if (s instanceof Stmt.Delete x) {
            for (Expr t : x.targets()) delete(t);
        } else if (s instanceof Stmt.Expr x) {
            expr(x.value(), false);
        } else if (s instanceof Stmt.Return x) {
            if (x.value() != null) expr(x.value(), false);
        } else if (s instanceof Stmt.Raise x) {
            if (x.exc() != null) expr(x.exc(), false);
            if (x.cause() != null) expr(x.cause(), false);
        } else if (s instanceof Stmt.Assert x) {
            expr(x.test(), false);
            if (x.msg() != null) expr(x.msg(), true);
        } else if (s instanceof Stmt.Import x) {
            for (Alias a : x.names()) {
                String bound = a.asname() != null ? a.asname() : firstComponent(a.name());
                out.add(new Def(a, bound, Definition.Kind.IMPORT, true));
            }
        } else if (s instanceof Stmt.ImportFrom x) {
            for (Alias a : x.names()) {
                if ("*".equals(a.name())) continue; // binds names nobody can list here
                out.add(new Def(a, a.asname() != null ? a.asname() : a.name(), Definition.Kind.IMPORT, true));
            }
        } else if (s instanceof Stmt.FunctionDef x) {
            function(x.decoratorList(), x.args(), x.returns());
            out.add(new Def(x, x.name(), Definition.Kind.FUNCTION, true));
        } else if (s instanceof Stmt.AsyncFunctionDef x) {
            function(x.decoratorList(), x.args(), x.returns());
            out.add(new Def(x, x.name(), Definition.Kind.FUNCTION, true));
        } else if (s instanceof Stmt.ClassDef x) {
            for (Expr d : x.decoratorList()) expr(d, false);
            for (Expr b : x.bases()) expr(b, false);
            for (Keyword k : x.keywords()) expr(k.value(), false);
            out.add(new Def(x, x.name(), Definition.Kind.CLASS, true));
        } else if (s instanceof Stmt.TypeAlias x) {
            // The value is evaluated lazily, in a scope of its own.
            if (x.name() instanceof Expr.Name name) out.add(new Def(name, name.id(), Definition.Kind.TYPE_ALIAS, true));
        }
        // Pass, Break, Continue, Global, Nonlocal: nothing. Compound statements are never steps.
    }

    private static String firstComponent(String dotted) {
        int dot = dotted.indexOf('.');
        return dot < 0 ? dotted : dotted.substring(0, dot);
    }

    private void function(List<Expr> decorators, Arguments args, Expr returns) {
        for (Expr d : decorators) expr(d, false);
        for (Expr d : args.defaults()) expr(d, false);
        for (Expr d : args.kwDefaults()) if (d != null) expr(d, false);
        List<Arg> all = new ArrayList<>(args.posonlyargs());
        all.addAll(args.args());
        if (args.vararg() != null) all.add(args.vararg());
        all.addAll(args.kwonlyargs());
        if (args.kwarg() != null) all.add(args.kwarg());
        for (Arg a : all) if (a.annotation() != null) expr(a.annotation(), false);
        if (returns != null) expr(returns, false);
    }

    // ------------------------------------------------------------------ targets

    /** A binding target: names are defined, attribute and subscript targets read their parts. */
    private void target(Expr t, Definition.Kind kind, boolean weak) {
        if (t instanceof Expr.Name n) {
            if (!shadowed(n.id())) out.add(new Def(n, n.id(), kind, !weak));
        } else if (t instanceof Expr.Tuple x) {
            for (Expr e : x.elts()) target(e, kind, weak);
        } else if (t instanceof Expr.List x) {
            for (Expr e : x.elts()) target(e, kind, weak);
        } else if (t instanceof Expr.Starred x) {
            target(x.value(), kind, weak);
        } else {
            targetParts(t, weak);
        }
    }

    /** The reads an attribute or subscript target makes before the store. */
    private void targetParts(Expr t, boolean weak) {
        if (t instanceof Expr.Attribute a) {
            expr(a.value(), weak);
        } else if (t instanceof Expr.Subscript s) {
            expr(s.value(), weak);
            expr(s.slice(), weak);
        } else if (!(t instanceof Expr.Name)) {
            expr(t, weak);
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
            targetParts(t, false);
        }
    }

    // ------------------------------------------------------------------ expressions

    private boolean shadowed(String name) {
        for (Set<String> s : shadows) if (s.contains(name)) return true;
        return false;
    }

    private void expr(Expr e, boolean weak) {
        if (e == null) return;
        if (e instanceof Expr.Name n) {
            if (shadowed(n.id())) return;
            if (n.ctx() == ExprContext.Load) out.add(new Use(n));
            else if (n.ctx() == ExprContext.Del) out.add(new Kill(n.id()));
            else out.add(new Def(n, n.id(), Definition.Kind.ASSIGN, !weak));
        } else if (e instanceof Expr.NamedExpr x) {
            expr(x.value(), weak);
            if (x.target() instanceof Expr.Name n) {
                // A walrus in a comprehension binds in the enclosing scope, but may run zero times.
                out.add(new Def(n, n.id(), Definition.Kind.WALRUS, !weak && shadows.isEmpty()));
            } else {
                target(x.target(), Definition.Kind.WALRUS, weak);
            }
        } else if (e instanceof Expr.BoolOp x) {
            for (int i = 0; i < x.values().size(); i++) expr(x.values().get(i), weak || i > 0);
        } else if (e instanceof Expr.IfExp x) {
            expr(x.test(), weak);
            expr(x.body(), true);
            expr(x.orelse(), true);
        } else if (e instanceof Expr.Compare x) {
            expr(x.left(), weak);
            for (int i = 0; i < x.comparators().size(); i++) expr(x.comparators().get(i), weak || i > 0);
        } else if (e instanceof Expr.Lambda x) {
            for (Expr d : x.args().defaults()) expr(d, weak);
            for (Expr d : x.args().kwDefaults()) if (d != null) expr(d, weak);
        } else if (e instanceof Expr.Dict x) {
            for (int i = 0; i < x.values().size(); i++) {
                if (i < x.keys().size() && x.keys().get(i) != null) expr(x.keys().get(i), weak);
                expr(x.values().get(i), weak);
            }
        } else if (e instanceof Expr.ListComp x) {
            comprehension(x.generators(), List.of(x.elt()), weak);
        } else if (e instanceof Expr.SetComp x) {
            comprehension(x.generators(), List.of(x.elt()), weak);
        } else if (e instanceof Expr.GeneratorExp x) {
            comprehension(x.generators(), List.of(x.elt()), weak);
        } else if (e instanceof Expr.DictComp x) {
            comprehension(x.generators(), List.of(x.key(), x.value()), weak);
        } else {
            e.forEachChild(c -> child(c, weak));
        }
    }

    private void child(Node c, boolean weak) {
        if (c instanceof Expr x) expr(x, weak);
        else if (c instanceof Keyword k) expr(k.value(), weak);
        else c.forEachChild(cc -> child(cc, weak));
    }

    private void comprehension(List<Comprehension> gens, List<Expr> elements, boolean weak) {
        expr(gens.get(0).iter(), weak);
        Set<String> bound = new HashSet<>();
        for (Comprehension g : gens) storedNames(g.target(), bound);
        shadows.add(bound);
        for (int i = 0; i < gens.size(); i++) {
            Comprehension g = gens.get(i);
            if (i > 0) expr(g.iter(), true);
            target(g.target(), Definition.Kind.ASSIGN, true); // shadowed names vanish; parts are read
            for (Expr cond : g.ifs()) expr(cond, true);
        }
        for (Expr el : elements) expr(el, true);
        shadows.remove(shadows.size() - 1);
    }

    private static void storedNames(Expr t, Set<String> into) {
        if (t instanceof Expr.Name n) into.add(n.id());
        else if (t instanceof Expr.Tuple x) for (Expr e : x.elts()) storedNames(e, into);
        else if (t instanceof Expr.List x) for (Expr e : x.elts()) storedNames(e, into);
        else if (t instanceof Expr.Starred x) storedNames(x.value(), into);
    }

    // ------------------------------------------------------------------ patterns

    private void pattern(Pattern p, boolean weak) {
        if (p instanceof Pattern.MatchValue x) {
            expr(x.value(), weak);
        } else if (p instanceof Pattern.MatchSequence x) {
            for (Pattern q : x.patterns()) pattern(q, weak);
        } else if (p instanceof Pattern.MatchMapping x) {
            for (Expr k : x.keys()) expr(k, weak);
            for (Pattern q : x.patterns()) pattern(q, weak);
            if (x.rest() != null) capture(x, x.rest(), weak);
        } else if (p instanceof Pattern.MatchClass x) {
            expr(x.cls(), weak);
            for (Pattern q : x.patterns()) pattern(q, weak);
            for (Pattern q : x.kwdPatterns()) pattern(q, weak);
        } else if (p instanceof Pattern.MatchStar x) {
            if (x.name() != null) capture(x, x.name(), weak);
        } else if (p instanceof Pattern.MatchAs x) {
            if (x.pattern() != null) pattern(x.pattern(), weak);
            if (x.name() != null) capture(x, x.name(), weak);
        } else if (p instanceof Pattern.MatchOr x) {
            // Exactly one alternative binds, and every alternative binds the same names.
            if (!weak) {
                Set<String> names = new LinkedHashSet<>();
                for (Pattern q : x.patterns()) captures(q, names);
                for (String name : names) out.add(new Kill(name));
            }
            for (Pattern q : x.patterns()) pattern(q, true);
        }
        // MatchSingleton: nothing.
    }

    private void capture(Pattern p, String name, boolean weak) {
        out.add(new Def(p, name, Definition.Kind.MATCH_CAPTURE, !weak));
    }

    static void captures(Pattern p, Set<String> into) {
        if (p instanceof Pattern.MatchAs x) {
            if (x.pattern() != null) captures(x.pattern(), into);
            if (x.name() != null) into.add(x.name());
        } else if (p instanceof Pattern.MatchStar x) {
            if (x.name() != null) into.add(x.name());
        } else if (p instanceof Pattern.MatchMapping x) {
            for (Pattern q : x.patterns()) captures(q, into);
            if (x.rest() != null) into.add(x.rest());
        } else if (p instanceof Pattern.MatchSequence x) {
            for (Pattern q : x.patterns()) captures(q, into);
        } else if (p instanceof Pattern.MatchClass x) {
            for (Pattern q : x.patterns()) captures(q, into);
            for (Pattern q : x.kwdPatterns()) captures(q, into);
        } else if (p instanceof Pattern.MatchOr x) {
            for (Pattern q : x.patterns()) captures(q, into);
        }
    }
}
