package dev.graphmend.passes.fix;

import dev.graphmend.passes.model.FixInfo;
import dev.graphmend.passes.model.Safety;
import dev.graphmend.ir.ast.BoolOperator;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.ast.UnaryOperator;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.analysis.ValueKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * GM101 → {@code torch.where}: predicated data-dependent control flow. Shapes: the same names
 * assigned in every branch; the else-less update ({@code x = where(c, v, x)}); {@code return} in
 * every branch (also {@code if c: return a} followed by {@code return b}); every branch calling
 * the same callee with one differing argument; {@code elif} chains (nested where); conditional
 * expressions. Legal only when each condition is a one-element bool tensor, every branch value
 * is a tensor (or a number beside a tensor) of the same shape, and evaluating a branch that is
 * not taken can neither raise nor have side effects (pure torch operations only). Unsafe when an
 * unselected branch can produce inf/NaN (its gradient then poisons the selected one) or a number
 * branch becomes a tensor.
 */
public final class WhereRewrite implements Transformation {
    static final String TITLE = "Rewrite to torch.where";
    static final String NOT_ONE_ELEMENT = "the condition is not provably one element";

    static final FixInfo INFO = new FixInfo("Rewrite to `torch.where`", Safety.SAFE);

    @Override public FixInfo info() { return INFO; }

    /** One arm of an if/elif chain: its condition (null for else) and body. */
    private record Arm(Expr cond, List<Stmt> body) {}

    @Override
    public Proposal propose(FixSite site) {
        String optionalTorch = site.optionalTorchProblem();
        if (optionalTorch != null) return Proposal.decline(optionalTorch);
        if (!(site.at() instanceof Expr cond)) return Proposal.decline("internal: not at an expression");
        Stmt s = site.statementOf(cond);
        if (s instanceof Stmt.If i && i.test() == cond) return ifStatement(site, i);
        if (s instanceof Stmt.While) return Proposal.decline("a `while` loop cannot be predicated: the number of iterations depends on the data");
        Expr.IfExp ie = findIfExp(s, cond);
        if (ie != null) return ifExp(site, ie);
        return Proposal.decline("the condition is tested by `and`/`or`/`not` outside an if or conditional expression");
    }

    private static Expr.IfExp findIfExp(Stmt s, Expr cond) {
        if (s == null) return null;
        Expr.IfExp[] found = {null};
        dev.graphmend.passes.analysis.Statements.expressions(s, e -> {
            if (e instanceof Expr.IfExp ie && ie.test() == cond) found[0] = ie;
        });
        return found[0];
    }

    // ---- conditional expression ----

    private Proposal ifExp(FixSite site, Expr.IfExp ie) {
        FunctionContext f = site.function();
        String why = checkCondition(f, ie.test());
        if (why != null) return Proposal.decline(why);
        why = checkValues(site, List.of(ie.body(), ie.orelse()));
        if (why != null) return Proposal.decline(why);
        Torch t = Torch.of(site);
        String text = t.name + ".where(" + condText(site, t, ie.test()) + ", " + site.source().argument(ie.body()) + ", "
                + site.source().argument(ie.orelse()) + ")";
        List<Diagnostic.Edit> edits = new ArrayList<>(t.importEdits);
        edits.add(new Diagnostic.Edit(ie.span(), text));
        return fix(site, List.of(ie.body(), ie.orelse()), edits);
    }

    // ---- if statements ----

    private Proposal ifStatement(FixSite site, Stmt.If first) {
        // an `elif` arm gets the rewrite of its whole chain, from the first `if`
        while (site.source().text(first).startsWith("elif")) {
            FixSite.Place p = site.place(first);
            if (p == null || !(p.owner() instanceof Stmt.If head) || head.orelse().size() != 1 || head.orelse().get(0) != first) {
                return Proposal.decline("internal: cannot find the `if` of this elif chain");
            }
            first = head;
            String why = checkCondition(site.function(), head.test());
            if (why != null) return Proposal.decline(why);
        }
        Proposal split = staticPartSplit(site, first);
        if (split != null) return split;
        List<Arm> arms = new ArrayList<>();
        Stmt.If cur = first;
        List<Stmt> elseBody = null;
        while (true) {
            arms.add(new Arm(cur.test(), cur.body()));
            List<Stmt> orelse = cur.orelse();
            if (orelse.size() == 1 && orelse.get(0) instanceof Stmt.If next && site.source().text(next).startsWith("elif")) {
                cur = next;
                continue;
            }
            elseBody = orelse.isEmpty() ? null : orelse;
            break;
        }
        Proposal prepared = preparedCall(site, first, arms, elseBody);
        if (prepared != null) return prepared;
        // a branch no rewrite shape can hold is the reason to give, whatever the conditions are
        String shape = unsupportedStatement(arms, elseBody);
        if (shape != null) return Proposal.decline(shape);
        FunctionContext f = site.function();
        for (Arm a : arms) {
            String why = checkCondition(f, a.cond());
            if (why != null) return Proposal.decline(why);
        }
        Proposal p = returns(site, first, arms, elseBody);
        if (p != null) return p;
        p = commonCall(site, first, arms, elseBody);
        if (p != null) return p;
        return assignments(site, first, arms, elseBody);
    }

    /**
     * {@code if S and T: body} (no else), where {@code S} are leading conjuncts Dynamo decides while
     * tracing ({@code x.dtype == torch.float16}, {@code mask is not None}) and {@code T} the tensor ones:
     * {@code if S:} stays a Python {@code if} and only {@code T} goes into torch.where, so the static
     * part keeps guarding what it guarded (a None mask is never touched). Null when the condition is
     * not of that form, so the ordinary rewrite decides.
     */
    private Proposal staticPartSplit(FixSite site, Stmt.If first) {
        if (!first.orelse().isEmpty() || !(first.test() instanceof Expr.BoolOp b) || b.op() != BoolOperator.And) return null;
        FunctionContext f = site.function();
        int k = 0;
        while (k < b.values().size() && f.kind(b.values().get(k)) == ValueKind.STATIC) k++;
        if (k == 0 || k == b.values().size()) return null;
        List<Expr> tensorParts = b.values().subList(k, b.values().size());
        Expr tensorCond = tensorParts.size() == 1 ? tensorParts.get(0) : new Expr.BoolOp(BoolOperator.And, tensorParts,
                Span.between(tensorParts.get(0).span(), tensorParts.get(tensorParts.size() - 1).span()));
        List<Arm> arms = List.of(new Arm(tensorCond, first.body()));
        String shape = unsupportedStatement(arms, null);
        if (shape != null) return Proposal.decline(shape);
        for (Expr t : tensorParts) {
            String why = checkCondition(f, t);
            if (why != null) return Proposal.decline(why);
        }
        Proposal p = commonCall(site, first, arms, null);
        if (p == null) p = assignments(site, first, arms, null);
        if (!p.offered()) return p;
        SourceText src = site.source();
        String indent = src.indentation(first.span().line());
        String unit = src.indentUnit();
        List<Expr> staticParts = b.values().subList(0, k);
        StringBuilder head = new StringBuilder("if ");
        for (int i = 0; i < staticParts.size(); i++) head.append(i > 0 ? " and " : "").append(src.argument(staticParts.get(i)));
        head.append(':');
        String comment = src.comment(first.span().line()); // the if line's comment stays on the if line
        List<Diagnostic.Edit> edits = new ArrayList<>();
        for (Diagnostic.Edit e : p.fix().edits()) {
            boolean region = e.span().line() == first.span().line() && e.span().col() == first.span().col();
            if (!region) {
                edits.add(e);
                continue;
            }
            String body = e.newText();
            int nl = body.indexOf('\n');
            String firstLine = nl < 0 ? body : body.substring(0, nl);
            if (comment != null && firstLine.endsWith("  " + comment)) {
                body = firstLine.substring(0, firstLine.length() - comment.length() - 2) + (nl < 0 ? "" : body.substring(nl));
            }
            String text = head + (comment != null ? "  " + comment : "") + "\n" + indent + unit
                    + body.replace("\n" + indent, "\n" + indent + unit);
            edits.add(new Diagnostic.Edit(e.span(), text));
        }
        return Proposal.of(new Diagnostic.Fix(p.fix().title(), p.fix().safety(), edits, p.fix().note()
                + " The part of the condition Dynamo decides while tracing (" + staticParts.stream().map(src::text)
                .reduce((x, y) -> x + " and " + y).orElse("") + ") stays a Python if."));
    }

    /**
     * Why no shape (returns, a common call, assignments) can take these branches: one of them
     * holds a compound statement or another statement none of them rewrites; null otherwise.
     */
    private static String unsupportedStatement(List<Arm> arms, List<Stmt> elseBody) {
        List<List<Stmt>> bodies = new ArrayList<>();
        for (Arm a : arms) bodies.add(a.body());
        if (elseBody != null) bodies.add(elseBody);
        for (List<Stmt> body : bodies) {
            for (Stmt s : body) {
                if (!(s instanceof Stmt.Assign || s instanceof Stmt.AugAssign || s instanceof Stmt.AnnAssign
                        || s instanceof Stmt.Return || s instanceof Stmt.Expr || s instanceof Stmt.Pass)) {
                    return moreThanAssignments(s);
                }
            }
        }
        return null;
    }

    private static String moreThanAssignments(Stmt s) {
        return "a branch does more than assignments to names (" + describe(s) + ")";
    }

    /** {@code return} in every arm (the else may be the statement after the if). */
    private Proposal returns(FixSite site, Stmt.If first, List<Arm> arms, List<Stmt> elseBody) {
        List<Expr> values = new ArrayList<>();
        for (Arm a : arms) {
            if (a.body().size() != 1 || !(a.body().get(0) instanceof Stmt.Return r) || r.value() == null) return null;
            values.add(r.value());
        }
        Span region = first.span();
        if (elseBody != null) {
            if (elseBody.size() != 1 || !(elseBody.get(0) instanceof Stmt.Return r) || r.value() == null) return null;
            values.add(r.value());
        } else {
            FixSite.Place place = site.place(first);
            if (place == null || place.index() + 1 >= place.block().size()
                    || !(place.block().get(place.index() + 1) instanceof Stmt.Return r) || r.value() == null) {
                return Proposal.decline("an `if` that returns has no `else` value: no `return` follows it");
            }
            values.add(r.value());
            region = first.span().withEnd(r.span());
        }
        String why = checkValues(site, values);
        if (why != null) return Proposal.decline(why);
        Torch t = Torch.of(site);
        String text = "return " + nested(site, t, arms, values);
        return replace(site, first, region, List.of(text), values, t);
    }

    /** Every arm a single statement calling the same callee, with the arguments differing in one place. */
    private Proposal commonCall(FixSite site, Stmt.If first, List<Arm> arms, List<Stmt> elseBody) {
        if (elseBody == null) return null;
        List<Stmt> lasts = new ArrayList<>();
        for (Arm a : arms) {
            if (a.body().size() != 1) return null;
            lasts.add(a.body().get(0));
        }
        if (elseBody.size() != 1) return null;
        lasts.add(elseBody.get(0));
        CallMatch m = matchCall(site.source(), lasts);
        if (m == null) return null;
        if (m.decline() != null) return Proposal.decline(m.decline());
        String why = checkValues(site, m.values());
        if (why != null) return Proposal.decline(why);
        Torch t = Torch.of(site);
        return replace(site, first, first.span(), List.of(m.statement(site.source(), nested(site, t, arms, m.values()))),
                m.values(), t);
    }

    /**
     * The statements of a common call: each one calls the same callee (alone, assigned, or returned)
     * with the arguments differing in exactly one place ({@code differing}).
     */
    private record CallMatch(String outer, Expr.Call call, int differing, List<Expr> values, String decline) {
        /** The statement with {@code where} in place of the differing argument. */
        String statement(SourceText src, String where) {
            String callText = src.text(call);
            Expr arg = argAt(call, differing);
            int from = (int) offsetIn(src, call, arg);
            return outer + callText.substring(0, from) + where + callText.substring(from + src.text(arg).length());
        }
    }

    /** Null when the statements are not calls of one callee in one statement shape. */
    private static CallMatch matchCall(SourceText src, List<Stmt> statements) {
        List<Expr.Call> calls = new ArrayList<>();
        String shape = null; // the statement around the call, with the call cut out
        for (Stmt s : statements) {
            Expr value = s instanceof Stmt.Assign a && a.targets().size() == 1 ? a.value()
                    : s instanceof Stmt.Return r ? r.value() : s instanceof Stmt.Expr e ? e.value() : null;
            if (!(value instanceof Expr.Call c)) return null;
            String st = src.text(s);
            String outer = st.substring(0, st.length() - src.text(c).length());
            if (!st.endsWith(src.text(c)) || shape != null && !shape.equals(outer)) return null;
            shape = outer;
            calls.add(c);
        }
        Expr.Call c0 = calls.get(0);
        for (Expr.Call c : calls) {
            if (!src.text(c.func()).equals(src.text(c0.func())) || c.args().size() != c0.args().size()
                    || c.keywords().size() != c0.keywords().size()) {
                return null;
            }
            for (int k = 0; k < c.keywords().size(); k++) {
                if (!Objects.equals(c.keywords().get(k).arg(), c0.keywords().get(k).arg())) return null;
            }
        }
        int differing = -1;
        int n = c0.args().size() + c0.keywords().size();
        for (int pos = 0; pos < n; pos++) {
            Set<String> texts = new HashSet<>();
            for (Expr.Call c : calls) texts.add(src.text(argAt(c, pos)));
            if (texts.size() > 1) {
                if (differing >= 0) {
                    return new CallMatch(shape, c0, -1, List.of(),
                            "the branches call the same function but differ in more than one argument");
                }
                differing = pos;
            }
        }
        if (differing < 0) return null;
        List<Expr> values = new ArrayList<>();
        for (Expr.Call c : calls) values.add(argAt(c, differing));
        return new CallMatch(shape, c0, differing, values, null);
    }

    /**
     * Every arm ends in the same call with one differing argument, after statements that prepare
     * it (Phi-3's longrope update: factors built lazily in one arm, a device move in the other, then
     * {@code register_buffer} of one or the other). The preparations run one after another, in arm
     * order, and the call takes torch.where of the differing argument. Always unsafe: a preparation
     * whose arm is not taken now runs. Legal only when running them all changes nothing another
     * part reads: no preparation writes (by assignment) a name or attribute that the condition, a
     * later preparation, another arm's argument or the call's common parts read, and none writes
     * what another writes. Null when the arms are not of this shape, so the other shapes decide.
     */
    private Proposal preparedCall(FixSite site, Stmt.If first, List<Arm> arms, List<Stmt> elseBody) {
        if (elseBody == null) return null;
        List<List<Stmt>> bodies = new ArrayList<>();
        for (Arm a : arms) bodies.add(a.body());
        bodies.add(elseBody);
        if (bodies.stream().allMatch(b -> b.size() == 1)) return null; // the plain common call
        List<Stmt> lasts = new ArrayList<>();
        for (List<Stmt> b : bodies) lasts.add(b.get(b.size() - 1));
        SourceText src = site.source();
        CallMatch m = matchCall(src, lasts);
        if (m == null) return null;
        if (m.decline() != null) return Proposal.decline(m.decline());
        FunctionContext f = site.function();
        String shapeRisk = "";
        for (Arm a : arms) {
            String why = checkCondition(f, a.cond());
            if (why != null && why.startsWith(NOT_ONE_ELEMENT)) {
                // the if already needs a one-element condition (bool() of a larger tensor raises); what is
                // unproven is that it has no extra dimensions, which torch.where would broadcast to
                shapeRisk = " The condition " + src.text(a.cond()).strip() + " is not provably 0-d (it compares values of"
                        + " unknown kind); if it has more dimensions, torch.where broadcasts the argument to them.";
            } else if (why != null) {
                return Proposal.decline(why);
            }
        }
        List<Set<String>> writes = new ArrayList<>();
        List<Set<String>> reads = new ArrayList<>();
        for (List<Stmt> b : bodies) {
            Set<String> w = new LinkedHashSet<>(), r = new LinkedHashSet<>();
            for (Stmt s : b.subList(0, b.size() - 1)) {
                String why = preparationProblem(s);
                if (why != null) return Proposal.decline(why);
                AccessPaths.collect(s, w, r);
            }
            writes.add(w);
            reads.add(r);
        }
        Set<String> condReads = new LinkedHashSet<>();
        for (Arm a : arms) AccessPaths.reads(a.cond(), condReads);
        Set<String> commonReads = new LinkedHashSet<>();
        AccessPaths.reads(m.call().func(), commonReads);
        for (int pos = 0; pos < m.call().args().size() + m.call().keywords().size(); pos++) {
            if (pos != m.differing()) AccessPaths.reads(argAt(m.call(), pos), commonReads);
        }
        if (lasts.get(0) instanceof Stmt.Assign a) AccessPaths.reads(a.targets().get(0), commonReads);
        for (int j = 0; j < bodies.size(); j++) {
            for (String w : writes.get(j)) {
                String hit = AccessPaths.touching(w, condReads);
                if (hit == null) hit = AccessPaths.touching(w, commonReads);
                for (int k = 0; hit == null && k < bodies.size(); k++) {
                    if (k > j) hit = AccessPaths.touching(w, reads.get(k));
                    if (hit == null && k != j) {
                        Set<String> valueReads = new LinkedHashSet<>();
                        AccessPaths.reads(m.values().get(k), valueReads);
                        hit = AccessPaths.touching(w, valueReads);
                    }
                    if (hit == null && k != j) hit = AccessPaths.touching(w, writes.get(k));
                }
                if (hit != null) {
                    return Proposal.decline("a preparation assigns " + w + ", which " + (hit.equals(w) ? "" : hit + " in ")
                            + "another part of the if reads or assigns; running every branch's preparation would change it");
                }
            }
        }
        for (Expr v : m.values()) {
            ValueKind k = f.kind(v);
            if (k == ValueKind.STATIC || k == ValueKind.NONE || k == ValueKind.MODULE || k == ValueKind.TENSOR_SEQUENCE) {
                return Proposal.decline("a branch value is not a tensor (" + src.text(v).strip() + " is " + describe(k) + ")");
            }
            String imp = Purity.impurity(f, v);
            if (imp != null) {
                return Proposal.decline("a branch has side effects or may raise when it is not taken (" + imp
                        + "); torch.where evaluates both branches");
            }
        }
        Torch t = Torch.of(site);
        String indent = src.indentation(first.span().line());
        List<String> out = new ArrayList<>();
        Set<Integer> copied = new HashSet<>();
        List<String> prepared = new ArrayList<>();
        for (List<Stmt> b : bodies) {
            if (b.size() < 2) continue;
            int from = b.get(0).span().line(), to = b.get(b.size() - 2).span().endLine();
            while (from - 1 > first.span().line() && src.lines().lineText(from - 1).strip().startsWith("#")) from--;
            String bodyIndent = src.indentation(b.get(0).span().line());
            for (int l = from; l <= to; l++) {
                String line = src.lines().lineText(l);
                if (line.isBlank()) {
                    out.add("");
                } else if (line.startsWith(bodyIndent)) {
                    out.add(indent + line.substring(bodyIndent.length()));
                } else {
                    return Proposal.decline("internal: a preparation's line is not indented like its branch");
                }
                copied.add(l);
            }
            for (Stmt s : b.subList(0, b.size() - 1)) prepared.add(src.text(s).lines().findFirst().orElse("").strip());
        }
        List<String> lines = new ArrayList<>();
        String headComment = src.comment(first.span().line());
        if (headComment != null) lines.add(indent + headComment);
        for (int l = first.span().line() + 1; l <= first.span().endLine(); l++) {
            String c = src.comment(l);
            if (c != null && !copied.contains(l)) lines.add(indent + c); // comments outside the copies move above
        }
        lines.addAll(out);
        lines.add(indent + m.statement(src, nested(site, t, arms, m.values())));
        String body = String.join("\n", lines).substring(indent.length());
        List<Diagnostic.Edit> edits = new ArrayList<>(t.importEdits);
        edits.add(new Diagnostic.Edit(first.span(), body));
        return Proposal.of(new Diagnostic.Fix(TITLE, Safety.UNSAFE, edits, "Unsafe: every branch's preparation now runs "
                + "whatever the condition (" + String.join("; ", prepared) + "), and the call gets a new tensor chosen by "
                + "torch.where instead of the branch's own; calls in a preparation may also change what another branch "
                + "reads, and the branch values must have one shape. Review that running them all is harmless." + shapeRisk));
    }

    /** Why a statement cannot be run as a preparation (it can leave the branch, or is of a kind not copied); null if it can. */
    private static String preparationProblem(Stmt s) {
        if (!(s instanceof Stmt.Assign || s instanceof Stmt.AugAssign || s instanceof Stmt.AnnAssign || s instanceof Stmt.Expr
                || s instanceof Stmt.Pass || s instanceof Stmt.If || s instanceof Stmt.For)) {
            return "a preparation before the common call holds " + describe(s);
        }
        String[] exit = {null};
        java.util.function.Consumer<Stmt> check = x -> {
            if (exit[0] == null && (x instanceof Stmt.Return || x instanceof Stmt.Raise || x instanceof Stmt.Break
                    || x instanceof Stmt.Continue || x instanceof Stmt.FunctionDef || x instanceof Stmt.ClassDef
                    || x instanceof Stmt.Global || x instanceof Stmt.Nonlocal)) {
                exit[0] = x.pyType();
            }
        };
        check.accept(s);
        dev.graphmend.passes.analysis.Statements.everywhere(s, check);
        if (exit[0] != null) return "a preparation can leave the branch (a " + exit[0] + " statement)";
        boolean[] yields = {false};
        dev.graphmend.passes.analysis.Statements.everywhere(s, x -> dev.graphmend.passes.analysis.Statements.expressions(x,
                e -> yields[0] |= e instanceof Expr.Yield || e instanceof Expr.YieldFrom || e instanceof Expr.Await));
        dev.graphmend.passes.analysis.Statements.expressions(s,
                e -> yields[0] |= e instanceof Expr.Yield || e instanceof Expr.YieldFrom || e instanceof Expr.Await);
        if (yields[0]) return "a preparation can leave the branch (a yield or await)";
        return null;
    }

    private static Expr argAt(Expr.Call c, int pos) {
        return pos < c.args().size() ? c.args().get(pos) : c.keywords().get(pos - c.args().size()).value();
    }

    /** Where {@code arg}'s text starts inside {@code call}'s text. */
    private static long offsetIn(SourceText src, Expr.Call call, Expr arg) {
        Span cs = call.span(), as = arg.span();
        return src.text(new Span(cs.line(), cs.col(), as.line(), as.col())).length();
    }

    /** The same names assigned in every arm (or kept, in a missing else): one where per name. */
    private Proposal assignments(FixSite site, Stmt.If first, List<Arm> arms, List<Stmt> elseBody) {
        List<List<Stmt>> bodies = new ArrayList<>();
        for (Arm a : arms) bodies.add(a.body());
        if (elseBody != null) bodies.add(elseBody);
        List<String> names = null;
        List<List<Expr>> valuesPerBody = new ArrayList<>();
        for (List<Stmt> body : bodies) {
            List<String> ns = new ArrayList<>();
            List<Expr> vs = new ArrayList<>();
            for (Stmt s : body) {
                if (!(s instanceof Stmt.Assign a) || a.targets().size() != 1 || !(a.targets().get(0) instanceof Expr.Name n)) {
                    return Proposal.decline(moreThanAssignments(s));
                }
                if (ns.contains(n.id())) return Proposal.decline("a branch assigns " + n.id() + " twice");
                ns.add(n.id());
                vs.add(a.value());
            }
            if (names == null) names = ns;
            else if (!new HashSet<>(names).equals(new HashSet<>(ns))) {
                return Proposal.decline("the branches assign different names (" + names + " and " + ns + ")");
            }
            // values in the order of the first branch
            List<Expr> ordered = new ArrayList<>();
            for (String name : names) ordered.add(vs.get(ns.indexOf(name)));
            valuesPerBody.add(ordered);
            for (int k = 0; k < vs.size(); k++) {
                // a value reading a name an earlier assignment of the same branch set depends on the order
                for (String name : readNames(vs.get(k))) {
                    if (ns.subList(0, k).contains(name)) {
                        return Proposal.decline("a value reads a name the same branch assigns before it (" + name + ")");
                    }
                }
            }
        }
        if (names == null || names.isEmpty()) return Proposal.decline("the branches assign nothing");
        FunctionContext f = site.function();
        List<String> lines = new ArrayList<>();
        Torch t = Torch.of(site);
        List<Expr> allValues = new ArrayList<>();
        List<Arm> usedArms = arms;
        boolean hoist = names.size() > 1;
        if (hoist) {
            // several names: evaluate each condition once, before the first where
            List<Arm> hoisted = new ArrayList<>();
            Set<String> taken = new HashSet<>(namesInFunction(site));
            for (int k = 0; k < arms.size(); k++) {
                Arm a = arms.get(k);
                if (a.cond() instanceof Expr.Name) {
                    hoisted.add(a);
                    continue;
                }
                String tmp = fresh(k == 0 ? "_gm_cond" : "_gm_cond" + (k + 1), taken);
                lines.add(tmp + " = " + condText(site, t, a.cond()));
                hoisted.add(new Arm(new Expr.Name(tmp, dev.graphmend.ir.ast.ExprContext.Load, a.cond().span()), a.body()));
            }
            usedArms = hoisted;
        }
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            List<Expr> values = new ArrayList<>();
            for (List<Expr> vs : valuesPerBody) values.add(vs.get(i));
            if (elseBody == null && !hasValueBefore(site, first, name)) {
                return Proposal.decline("the else-less update of " + name + " has no value before the if");
            }
            String why = checkValues(site, values);
            if (why != null) return Proposal.decline(why);
            if (elseBody == null) {
                // the else-less update keeps the name's value: the new value must have its shape
                // (an elementwise function of it)
                for (Expr v : values) {
                    String key = Purity.shapeKey(f, v, site.source());
                    if (!name.equals(key) && !Purity.SCALAR.equals(key)) {
                        return Proposal.decline("the branch values may have different shapes (" + site.source().text(v).strip()
                                + " is not an elementwise function of " + name + ")");
                    }
                }
                values.add(null); // the name itself
            }
            allValues.addAll(values.stream().filter(Objects::nonNull).toList());
            lines.add(name + " = " + nestedWithKeep(site, t, usedArms, values, name, hoist));
        }
        return replace(site, first, first.span(), lines, allValues, t);
    }

    /** Whether the name surely has a value at the if: a parameter, or assigned earlier in the if's block or a block around it. */
    private static boolean hasValueBefore(FixSite site, Stmt.If first, String name) {
        FunctionContext f = site.function();
        if (f.params().containsKey(name)) return true;
        for (FixSite.Place p = site.place(first); p != null; p = p.owner() == null ? null : site.place(p.owner())) {
            for (Stmt s : p.block().subList(0, p.index())) {
                if (s instanceof Stmt.Assign a) {
                    for (Expr t : a.targets()) if (t instanceof Expr.Name n && n.id().equals(name)) return true;
                } else if (s instanceof Stmt.AnnAssign a && a.value() != null && a.target() instanceof Expr.Name n
                        && n.id().equals(name)) {
                    return true;
                }
            }
            if (p.owner() == null) break;
        }
        return false;
    }

    private static Set<String> namesInFunction(FixSite site) {
        Set<String> out = new HashSet<>();
        var scope = site.module().symbols().scopeOpenedBy(site.function().function().def());
        if (scope != null) scope.symbols().forEach(sym -> out.add(sym.name()));
        return out;
    }

    private static String fresh(String base, Set<String> taken) {
        String n = base;
        for (int i = 2; taken.contains(n); i++) n = base + "_" + i;
        taken.add(n);
        return n;
    }

    private static Set<String> readNames(Expr e) {
        Set<String> out = new LinkedHashSet<>();
        visit(e, out);
        return out;
    }

    private static void visit(dev.graphmend.ir.ast.Node n, Set<String> out) {
        if (n instanceof Expr.Name nm) out.add(nm.id());
        n.forEachChild(c -> visit(c, out));
    }

    private static String describe(Stmt s) {
        String t = s.pyType();
        return switch (t) {
            case "Expr" -> "an expression statement";
            case "AugAssign" -> "an augmented assignment";
            case "Assign" -> "an assignment to something other than one name";
            default -> ("AEIOU".indexOf(t.charAt(0)) >= 0 ? "an " : "a ") + t + " statement";
        };
    }

    // ---- checks ----

    /** Null when the condition can drive torch.where; else why not. */
    static String checkCondition(FunctionContext f, Expr c) {
        if (c instanceof Expr.BoolOp b) {
            for (Expr v : b.values()) {
                String why = checkCondition(f, v);
                if (why != null) return why;
            }
            return null;
        }
        if (c instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not) return checkCondition(f, u.operand());
        if (f.kind(c) != ValueKind.BOOL_TENSOR) {
            return "the condition is not a boolean tensor (" + (f.kind(c).isTensor() ? "a tensor of numbers" : "a Python value")
                    + "); the rewrite needs one";
        }
        if (!Purity.isOneElement(f, c)) {
            return NOT_ONE_ELEMENT + " (it may have more than one dimension), so torch.where "
                    + "could broadcast the result to a new shape";
        }
        String imp = Purity.impurity(f, c);
        if (imp != null) return "the condition has side effects or may raise (" + imp + ")";
        return null;
    }

    /**
     * Whether {@link #checkCondition}'s objection {@code why} is only that the condition may have
     * other than one element, and the condition is a single pure boolean tensor (one {@code not}
     * allowed, no {@code and}/{@code or}): a rewrite that takes Python's {@code bool()} of it
     * where the graph runs keeps the {@code if}'s meaning, error for many elements included.
     */
    static boolean onlyItsShapeIsUnknown(FunctionContext f, Expr c, String why) {
        if (why == null || !why.startsWith(NOT_ONE_ELEMENT)) return false;
        Expr e = c instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not ? u.operand() : c;
        return !(e instanceof Expr.BoolOp) && !(e instanceof Expr.UnaryOp)
                && f.kind(e) == ValueKind.BOOL_TENSOR && Purity.impurity(f, e) == null;
    }

    /** Null when every value can be computed unconditionally and the results have one shape; else why not. */
    private String checkValues(FixSite site, List<Expr> values) {
        FunctionContext f = site.function();
        String shape = null;
        boolean anyTensor = false;
        for (Expr v : values) {
            ValueKind k = f.kind(v);
            boolean number = v instanceof Expr.Constant c && c.value() instanceof Number
                    || v instanceof Expr.UnaryOp u && u.operand() instanceof Expr.Constant c2 && c2.value() instanceof Number;
            if (!k.isTensor() && !number) {
                return "a branch value is not a tensor or a number (" + site.source().text(v).strip() + " is "
                        + describe(k) + ")";
            }
            anyTensor |= k.isTensor();
            String imp = Purity.impurity(f, v);
            if (imp != null) {
                return "a branch has side effects or may raise when it is not taken (" + imp
                        + "); torch.where evaluates both branches";
            }
            String dtype = Purity.dtypeChange(f, v);
            if (dtype != null) return "the branch values may have different dtypes (" + dtype + ")";
            String key = Purity.shapeKey(f, v, site.source());
            if (key == null) return "the branch values may have different shapes (cannot tell the shape of "
                    + site.source().text(v).strip() + ")";
            if (key.equals(Purity.SCALAR)) continue;
            if (shape == null) shape = key;
            else if (!shape.equals(key)) return "the branch values may have different shapes (" + shape + " and " + key + ")";
        }
        if (!anyTensor) return "no branch value is a tensor";
        return null;
    }

    private static String describe(ValueKind k) {
        return switch (k) {
            case NONE -> "None";
            case STATIC -> "a Python value";
            case TENSOR_SEQUENCE -> "a sequence of tensors";
            case MODULE -> "a module";
            default -> "of unknown kind";
        };
    }

    // ---- building the text ----

    static String condText(FixSite site, Torch t, Expr c) {
        if (c instanceof Expr.BoolOp b) {
            String fn = t.name + (b.op() == BoolOperator.And ? ".logical_and(" : ".logical_or(");
            String acc = condText(site, t, b.values().get(0));
            for (int i = 1; i < b.values().size(); i++) acc = fn + acc + ", " + condText(site, t, b.values().get(i)) + ")";
            return acc;
        }
        if (c instanceof Expr.UnaryOp u && u.op() == UnaryOperator.Not) {
            return t.name + ".logical_not(" + condText(site, t, u.operand()) + ")";
        }
        return site.source().argument(c);
    }

    /** where(c1, v1, where(c2, v2, … vElse)). */
    private static String nested(FixSite site, Torch t, List<Arm> arms, List<Expr> values) {
        String acc = site.source().argument(values.get(values.size() - 1));
        for (int i = arms.size() - 1; i >= 0; i--) {
            acc = t.name + ".where(" + condText(site, t, arms.get(i).cond()) + ", " + site.source().argument(values.get(i))
                    + ", " + acc + ")";
        }
        return acc;
    }

    /** Like {@link #nested}, where a null last value keeps {@code name}, and hoisted conditions are plain names. */
    private static String nestedWithKeep(FixSite site, Torch t, List<Arm> arms, List<Expr> values, String name, boolean hoisted) {
        Expr last = values.get(values.size() - 1);
        String acc = last == null ? name : site.source().argument(last);
        for (int i = arms.size() - 1; i >= 0; i--) {
            Expr c = arms.get(i).cond();
            String ct = hoisted && c instanceof Expr.Name n ? n.id() : condText(site, t, c);
            acc = t.name + ".where(" + ct + ", " + site.source().argument(values.get(i)) + ", " + acc + ")";
        }
        return acc;
    }

    /** Replaces the region (the if, or the if and the return after it) by new statements, keeping comments. */
    private Proposal replace(FixSite site, Stmt.If first, Span region, List<String> statements, List<Expr> values, Torch t) {
        SourceText src = site.source();
        String indent = src.indentation(first.span().line());
        StringBuilder b = new StringBuilder();
        // comments inside the region move above the new statements; the first line's stays at its end
        for (int l = region.line() + 1; l < region.endLine(); l++) {
            String c = src.comment(l);
            if (c != null) b.append(c).append('\n').append(indent);
        }
        for (int i = 0; i < statements.size(); i++) {
            if (i > 0) b.append('\n').append(indent);
            b.append(statements.get(i));
            if (i == 0) {
                String c = src.comment(region.line());
                if (c != null) b.append("  ").append(c);
            }
        }
        List<Diagnostic.Edit> edits = new ArrayList<>(t.importEdits);
        edits.add(new Diagnostic.Edit(region, b.toString()));
        return fix(site, values, edits);
    }

    private Proposal fix(FixSite site, List<Expr> values, List<Diagnostic.Edit> edits) {
        FunctionContext f = site.function();
        for (Expr v : values) {
            String risk = Purity.risk(f, v);
            if (risk != null) {
                return Proposal.of(new Diagnostic.Fix(TITLE, Safety.UNSAFE, edits, "Unsafe: a branch computes " + risk
                        + ", which can be inf/NaN where that branch is not selected; torch.where computes both, and "
                        + "the gradient of the unselected branch can turn into NaN."));
            }
        }
        for (Expr v : values) {
            if (!f.kind(v).isTensor()) {
                return Proposal.of(new Diagnostic.Fix(TITLE, Safety.UNSAFE, edits, "Unsafe: the branch that was the number "
                        + site.source().text(v).strip() + " now gives a tensor."));
            }
        }
        return Proposal.of(new Diagnostic.Fix(TITLE, Safety.SAFE, edits,
                "Safe: both branches are pure tensor expressions of one shape; torch.where selects elementwise."));
    }

    /** How to name torch here, and the edit that imports it when the module does not. */
    record Torch(String name, List<Diagnostic.Edit> importEdits) {
        static Torch of(FixSite site) {
            String alias = site.torchName();
            if (alias != null) return new Torch(alias, List.of());
            return new Torch("torch", List.of(site.source().insertLinesAfter(site.source().importInsertionLine(), "import torch")));
        }
    }

}
