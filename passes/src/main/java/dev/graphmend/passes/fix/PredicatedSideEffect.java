package dev.graphmend.passes.fix;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.model.FixInfo;
import dev.graphmend.passes.model.Safety;
import java.util.ArrayList;
import java.util.List;

/**
 * GM101 {@code if <tensor cond>: warnings.warn("literal")} (or a module logger's call with a literal
 * message, or the in-graph operator GM102's fix already wrote there) → one call of a predicated
 * ordered custom op, {@code T.ops.graphmend.warn_if(cond, …)} / {@code log_if(cond, …)}: the graph
 * computes the condition, the op runs in program order and warns or logs only when it holds. The
 * condition's {@code bool()} is taken inside the op when the graph runs, so a condition of other
 * than one element raises there as the {@code if} did, with the same message; a single condition
 * of unknown shape is therefore accepted (an {@code and}/{@code or} of them is not). The warning or record itself is the one
 * {@link InGraphWarning} or {@link InGraphLogging} makes (same legality, same torch releases).
 * Declined for an {@code if} with an {@code else}, a body of more than that one call, and a
 * condition that is not a pure boolean tensor (issue 43 item 3).
 */
public final class PredicatedSideEffect implements Transformation {
    static final FixInfo INFO = new FixInfo("Warn or log inside the graph when the condition holds", Safety.SAFE, "2.10");

    @Override public FixInfo info() { return INFO; }

    /** The two side effects, their plain and predicated ops, and how a plain op's call lists its line. */
    enum Effect {
        WARN(InGraphWarning.OP, "warn", InGraphWarning.COMMENT, InGraphWarning.SIGNATURE, InGraphWarning.BODY),
        LOG(InGraphLogging.OP, "log", InGraphLogging.COMMENT, InGraphLogging.SIGNATURE, InGraphLogging.BODY);

        final String plainOp, name, comment, signature;
        final List<String> body;

        Effect(String plainOp, String name, String comment, String signature, List<String> body) {
            this.plainOp = plainOp;
            this.name = name;
            this.comment = comment;
            this.signature = signature;
            this.body = body;
        }

        String predicatedOp() { return plainOp + "_if"; }

        /** The predicated op's definition: the plain op's body, after the condition's bool(). */
        String definition(String torch) {
            List<String> lines = new ArrayList<>(List.of("if not bool(when):", "    return"));
            lines.addAll(body);
            return GuardedOp.definition(torch, predicatedOp(), comment.replaceFirst("a ", "a conditional ")
                            + ";\nbool(when) is taken when the graph runs, as the if it replaces took it",
                    "(when: " + torch + ".Tensor, " + signature.substring(1), lines);
        }
    }

    @Override
    public Proposal propose(FixSite site) {
        if (!(site.at() instanceof Expr cond) || !(site.statementOf(cond) instanceof Stmt.If guard) || guard.test() != cond) {
            return Proposal.notApplicable();
        }
        if (guard.body().size() != 1 || !(guard.body().get(0) instanceof Stmt.Expr stmt)
                || !(stmt.value() instanceof Expr.Call call)) {
            return Proposal.notApplicable();
        }
        FunctionContext f = site.function();
        SourceText src = site.source();
        String torch = src.unconditionalTorchAlias();
        if (f.config().torchBefore(INFO.sinceTorch())) {
            return Proposal.decline("the predicated in-graph warning and logger call were observed to work from torch "
                    + INFO.sinceTorch() + " (torch-version is " + f.config().torchVersion() + ")");
        }
        Effect effect = inGraphCall(call, torch);
        Proposal plain = null;
        if (effect == null) {
            // a warnings.warn or logger call: the in-graph rewrite of GM102 decides whether it has one
            String qn = f.qualifiedName(call.func());
            boolean warn = "warnings.warn".equals(qn);
            boolean log = call.func() instanceof Expr.Attribute a && a.value() instanceof Expr.Name logger
                    && SideEffectSites.isModuleLogger(site, logger);
            if (!warn && !log) return Proposal.notApplicable();
            plain = warn ? new InGraphWarning().propose(site.at(call)) : new InGraphLogging().propose(site.at(call));
            if (!plain.offered()) {
                return plain.declineReason() == null ? Proposal.notApplicable()
                        : Proposal.decline("the side effect in the branch has no in-graph form: " + plain.declineReason());
            }
            effect = warn ? Effect.WARN : Effect.LOG;
        } else if (TorchScriptCode.mayCompile(site)) {
            return Proposal.decline(TorchScriptCode.reason("the predicated in-graph operator"));
        }
        if (!guard.orelse().isEmpty()) {
            return Proposal.decline("the if has an else branch, which a predicated call cannot take");
        }
        String why = WhereRewrite.checkCondition(f, cond);
        // the operator takes bool() of the condition when the graph runs, as the if did: a single
        // boolean tensor of any shape keeps Python's meaning (many elements raise the same error);
        // an and/or of such operands would not (Python takes bool() of each in turn)
        if (why != null && !WhereRewrite.onlyItsShapeIsUnknown(f, cond, why)) return Proposal.decline(why);
        if (torch == null) return Proposal.decline("torch is not imported unconditionally at module level in this file");
        Effect chosen = effect;
        Proposal plainRewrite = plain;
        boolean alreadyInGraph = plain == null;
        return Proposal.lazy("Warn or log inside the graph when the condition holds (a predicated ordered custom op)", Safety.SAFE,
                "Safe: the graph computes the condition and the operator, called in program order, " + chosen.name
                        + "s only when it holds, as the branch did, under the filters, levels and handlers in force when "
                        + "it runs; no break at the if. The fix adds, once per file, a guarded definition of the "
                        + chosen.predicatedOp() + " operator after the imports.", () -> {
            // the plain in-graph call GM102's rewrite writes (built only now, as every lazy fix's edits are)
            String plainText = alreadyInGraph ? src.text(call) : replacementOf(plainRewrite.fix().edits(), call);
            List<Diagnostic.Edit> edits = new ArrayList<>();
            int line;
            Stmt plainDefinition = alreadyInGraph ? lastUseDefinition(site, torch, chosen) : null;
            if (plainDefinition != null) {
                // GM102's rewrite came first and this was its operator's last call: the predicated
                // operator's definition takes the plain one's place, which nothing calls any more
                String definition = chosen.definition(torch);
                boolean defined = site.module().ir().document().text().contains("\"" + chosen.predicatedOp() + "\"");
                int before = plainDefinition.span().endLine() - plainDefinition.span().line() + 1;
                int now = defined ? 0 : (int) definition.chars().filter(ch -> ch == '\n').count() + 1;
                edits.add(defined ? new Diagnostic.Edit(new dev.graphmend.ir.ast.Span(plainDefinition.span().line(), 0,
                                plainDefinition.span().endLine() + 1, 0), "")
                        : new Diagnostic.Edit(plainDefinition.span(), definition));
                line = guard.span().line() + (plainDefinition.span().line() < guard.span().line() ? now - before : 0);
            } else {
                int after = Math.max(SideEffectSites.torchImportLine(site), src.lastImportLine());
                line = GuardedOp.define(site, chosen.predicatedOp(), after, chosen.definition(torch), guard.span().line(), edits);
            }
            String predicated = predicatedCall(plainText, chosen, WhereRewrite.condText(site, new WhereRewrite.Torch(torch, List.of()), cond), line);
            String comment = src.comment(guard.span().line());
            edits.add(new Diagnostic.Edit(guard.span(), predicated + (comment != null ? "  " + comment : "")));
            return edits;
        });
    }

    /**
     * The module-level definition of the plain operator when the call at the site is the module's
     * only call of it; else null.
     */
    private static Stmt lastUseDefinition(FixSite site, String torch, Effect effect) {
        String text = site.module().ir().document().text();
        String callText = ".ops.graphmend." + effect.name + "(";
        if (text.indexOf(callText) != text.lastIndexOf(callText)) return null;
        String head = "if not hasattr(" + torch + ".ops.graphmend, \"" + effect.name + "\"):";
        for (Stmt st : site.module().ir().module().body()) {
            if (st instanceof Stmt.If && site.source().text(st).startsWith(head)) return st;
        }
        return null;
    }

    /** The effect of a call of {@code <torch>.ops.graphmend.warn/log(…)}, or null. */
    private static Effect inGraphCall(Expr.Call call, String torch) {
        if (torch == null || !(call.func() instanceof Expr.Attribute op && op.value() instanceof Expr.Attribute ns
                && ns.attr().equals("graphmend") && ns.value() instanceof Expr.Attribute ops && ops.attr().equals("ops")
                && ops.value() instanceof Expr.Name t && t.id().equals(torch))) {
            return null;
        }
        return switch (op.attr()) {
            case "warn" -> Effect.WARN;
            case "log" -> Effect.LOG;
            default -> null;
        };
    }

    /** The text that replaces the call among a plain rewrite's edits (InGraphWarning and InGraphLogging always write one). */
    private static String replacementOf(List<Diagnostic.Edit> edits, Expr.Call call) {
        for (Diagnostic.Edit e : edits) if (e.span().equals(call.span())) return e.newText();
        throw new IllegalStateException("internal: the in-graph rewrite wrote no call at " + call.span());
    }

    /**
     * {@code T.ops.graphmend.warn(args…, __file__, N…)} → {@code T.ops.graphmend.warn_if(cond, args…,
     * __file__, line…)}: the call now starts on the if's line, which the record or warning names.
     */
    static String predicatedCall(String plainCall, Effect effect, String cond, int line) {
        String head = ".ops.graphmend." + effect.name + "(";
        int at = plainCall.indexOf(head);
        String text = plainCall.substring(0, at) + ".ops.graphmend." + effect.name + "_if(" + cond + ", "
                + plainCall.substring(at + head.length());
        return text.replaceFirst(", __file__, \\d+", ", __file__, " + line);
    }
}
