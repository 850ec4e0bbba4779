package dev.graphmend.passes.fix;

import dev.graphmend.passes.model.FixInfo;
import dev.graphmend.passes.model.Safety;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Span;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.rules.SideEffectCall;
import java.util.ArrayList;
import java.util.List;

/**
 * GM102 → defer the output until after the graph: register the callee once per module in
 * {@code torch._dynamo.config.reorderable_logging_functions}, right after the line that makes it
 * available ({@code import torch} for print, the logger's assignment, {@code import warnings});
 * Dynamo then records the call and replays it after the graph. Tensor arguments are cloned so a
 * later in-place update cannot change what is printed. Legal when the call's result is unused,
 * it has no keyword or unpacked arguments, and every argument is a tensor, a constant or a
 * string (Dynamo rejects anything else: GB0296).
 */
public final class DeferSideEffect implements Transformation {
    static final FixInfo INFO = new FixInfo("Defer until after the graph", Safety.SAFE);

    @Override public FixInfo info() { return INFO; }

    @Override
    public Proposal propose(FixSite site) {
        Stmt.Expr stmt = SideEffectSites.statement(site);
        if (stmt == null) return Proposal.decline("the call's result is used, so it cannot be deferred");
        Expr.Call call = (Expr.Call) stmt.value();
        FunctionContext f = site.function();
        String why = whyNotDeferrable(f, stmt, call);
        if (why != null) return Proposal.decline(why);
        Expr.Call inGraph = inGraphEffect(site, call);
        if (inGraph != null) {
            return Proposal.decline("the side effect at line " + inGraph.span().line() + " of this function stays in the "
                    + "graph in program order (an in-graph print, record or warning), and a deferred call would move "
                    + "after it");
        }
        SourceText src = site.source();
        String qn = f.qualifiedName(call.func());
        String callee;
        int after;
        String torch = src.unconditionalTorchAlias();
        if ("builtins.print".equals(qn)) {
            callee = "print";
            after = SideEffectSites.torchImportLine(site);
        } else if ("warnings.warn".equals(qn)) {
            callee = src.text(call.func());
            after = Math.max(SideEffectSites.torchImportLine(site), SideEffectSites.importLine(site, "warnings"));
        } else if (call.func() instanceof Expr.Attribute a && a.value() instanceof Expr.Name logger && SideEffectSites.isModuleLogger(site, logger)) {
            callee = logger.id() + "." + a.attr();
            after = Math.max(SideEffectSites.torchImportLine(site), SideEffectSites.assignmentLine(site, logger.id()));
        } else {
            return Proposal.decline("only print, warnings.warn and methods of a module-level logger can be deferred "
                    + "(a logger created inside the function or a logging-module function cannot be registered)");
        }
        if (after <= 0) return Proposal.decline("cannot find where " + callee + " becomes available at module level");
        after = Math.max(after, src.lastImportLine()); // never between imports (E402, I001)
        // the registration covers every call of the callee: each one in this module's compiled code must
        // be deferrable, and each gets its tensor arguments cloned (the call is replayed after the graph,
        // and a clone keeps the value the tensor has at the call, whatever later in-place updates do)
        // both computed once per callee and analysis: every site of the callee asks the same
        String reads = callee;
        ModuleFunctions module = site.moduleFunctions(callee, m -> undeferrableDigest(m, reads));
        List<Undeferrable> undeferrable = undeferrable(module, callee);
        for (Undeferrable u : undeferrable) {
            if (u.call() == call) continue;
            return Proposal.decline("the registration would also defer " + callee + " at line " + u.call().span().line()
                    + ", where " + u.why());
        }
        int registerAfter = after;
        java.util.function.Supplier<List<Diagnostic.Edit>> shared = () -> module.once(List.of("defer: edits", callee), () -> {
            // the registration first: two sites' fixes then overlap at their first edit
            List<Diagnostic.Edit> out = new ArrayList<>();
            String registration = (torch == null ? "torch" : torch) + "._dynamo.config.reorderable_logging_functions.add(" + callee + ")";
            if (!SideEffectCall.isRegistered(site.module(), callee)) {
                // an added import is a block of its own, a blank line before the code (isort's rule, ruff's I001)
                out.add(src.insertLinesAfter(registerAfter, torch == null ? "import torch\n\n" + registration : registration));
            }
            for (ModuleFunctions.OutputCall other : module.outputCalls(callee)) {
                cloneTensorArguments(other.function(), other.call(), src, out);
            }
            return List.copyOf(out);
        });
        boolean listed = module.outputCalls(callee).stream().anyMatch(o -> o.call() == call);
        java.util.function.Supplier<List<Diagnostic.Edit>> edits = listed ? shared : () -> {
            List<Diagnostic.Edit> out = new ArrayList<>(shared.get());
            cloneTensorArguments(f, call, src, out);
            return out;
        };
        String title = "Defer " + callee + " until after the graph";
        return Proposal.lazy(title, Safety.SAFE, "Safe: the call runs with the same arguments after "
                + "the compiled graph (registered in torch._dynamo.config.reorderable_logging_functions, which "
                + "applies to every call of " + callee + " that Dynamo traces); tensor arguments are cloned so the "
                + "output shows their values at the call. Output now comes after the graph's work instead of in the "
                + "middle of it.", edits);
    }

    /**
     * Another output of the same function that the graph makes in program order: a call of an
     * in-graph operator ({@code T.ops.graphmend.*}, {@code T._higher_order_ops.print}) or a call
     * that an in-graph rewrite of GM102 takes. Deferred calls run after the graph, so such an output
     * would come before a deferred one that came first (one graph's outputs among themselves: the
     * function's own; callers inlining it are not looked at).
     */
    private static Expr.Call inGraphEffect(FixSite site, Expr.Call self) {
        FunctionContext f = site.function();
        String torch = site.source().unconditionalTorchAlias();
        for (Stmt s : f.liveStatements()) {
            if (!(s instanceof Stmt.Expr es) || !(es.value() instanceof Expr.Call c) || c == self) continue;
            String text = site.source().text(c.func());
            if (torch != null && (text.startsWith(torch + ".ops.graphmend.") || text.equals(torch + "._higher_order_ops.print"))) {
                return c;
            }
            if (SideEffectCall.sideEffect(f, c) == null) continue;
            FixSite other = site.at(c);
            for (Transformation t : IN_GRAPH) if (t.propose(other).offered()) return c;
        }
        return null;
    }

    private static final List<Transformation> IN_GRAPH = List.of(new InGraphPrint(), new InGraphLogging(), new InGraphWarning());

    /** A call a registration of its callee would cover that cannot be deferred, in which function, and why. */
    private record Undeferrable(FunctionContext function, Expr.Call call, String why) {}

    /** The calls of {@code callee} in the module's compiled code that cannot be deferred; once per callee and analysis. */
    private static List<Undeferrable> undeferrable(ModuleFunctions module, String callee) {
        return module.once(List.of("defer: undeferrable calls", callee), () -> {
            List<Undeferrable> out = new ArrayList<>();
            for (ModuleFunctions.OutputCall other : module.outputCalls(callee)) {
                String otherWhy = whyNotDeferrable(other.function(), other.statement(), other.call());
                if (otherWhy != null) out.add(new Undeferrable(other.function(), other.call(), otherWhy));
            }
            return out;
        });
    }

    /**
     * What a site's proposal reads of the module's other calls of {@code callee}: the calls that
     * cannot be deferred (where, and why). Equal digests in two versions: equal proposals. It is
     * each compiled function's part ({@link #undeferrableDigest(FunctionContext, String)}) in the
     * order of {@link ModuleFunctions#functions}, anchored at the function's line ({@link
     * #appendDigestPart}): a part can be kept with its function from one version to the next, lines
     * moved or not, while what it read stands.
     */
    public static String undeferrableDigest(ModuleFunctions module, String callee) {
        // the calls come in the order of the functions (ModuleFunctions#outputCalls), each function's together
        StringBuilder b = new StringBuilder();
        StringBuilder part = new StringBuilder();
        FunctionContext of = null;
        for (Undeferrable u : undeferrable(module, callee)) {
            if (u.function() != of) {
                if (of != null) appendDigestPart(b, definitionLine(of), part.toString());
                part.setLength(0);
                of = u.function();
            }
            appendRelative(part, of, u);
        }
        if (of != null) appendDigestPart(b, definitionLine(of), part.toString());
        return b.toString();
    }

    /**
     * One compiled function's part of {@link #undeferrableDigest(ModuleFunctions, String)}: its calls
     * of {@code callee} that cannot be deferred, with lines counted from the function's own line.
     */
    public static String undeferrableDigest(FunctionContext f, String callee) {
        StringBuilder b = new StringBuilder();
        for (Stmt s : f.liveStatements()) {
            if (!(s instanceof Stmt.Expr es) || !(es.value() instanceof Expr.Call c)) continue;
            if (!callee.equals(SideEffectCall.calleeKey(c)) || SideEffectCall.sideEffect(f, c) == null) continue;
            String why = whyNotDeferrable(f, es, c);
            if (why != null) appendRelative(b, f, new Undeferrable(f, c, why));
        }
        return b.toString();
    }

    /**
     * Appends a function's part to a module's digest, anchored at the function's line {@code
     * definitionLine}: the digest names every call's line, as the proposal's text does.
     */
    public static void appendDigestPart(StringBuilder digest, int definitionLine, String part) {
        if (!part.isEmpty()) digest.append('@').append(definitionLine).append('\n').append(part);
    }

    /**
     * A digest with its functions' lines left out: what a proposal whose text names no line read
     * (whether, and which, calls cannot be deferred decides whether the deferral is offered; their
     * lines appear only in the reason it is declined). It stays the same when lines move.
     */
    public static String withoutLines(String digest) {
        if (digest.isEmpty()) return digest;
        StringBuilder b = new StringBuilder(digest.length());
        for (String line : digest.split("\n", -1)) {
            if (line.startsWith("@")) b.append('@');
            else b.append(line);
            b.append('\n');
        }
        b.setLength(b.length() - 1);
        return b.toString();
    }

    private static int definitionLine(FunctionContext f) {
        return f.function().def().span().line();
    }

    private static void appendRelative(StringBuilder b, FunctionContext f, Undeferrable u) {
        int line = definitionLine(f);
        Span at = u.call().span();
        b.append(at.line() - line).append(':').append(at.col()).append('-').append(at.endLine() - line).append(':')
                .append(at.endCol()).append(' ').append(u.why()).append('\n');
    }

    private static void cloneTensorArguments(FunctionContext f, Expr.Call call, SourceText src, List<Diagnostic.Edit> edits) {
        for (Expr a : call.args()) {
            if (!f.kind(a).isTensor()) continue;
            if (a instanceof Expr.Call c && c.func() instanceof Expr.Attribute at && at.attr().equals("clone")) continue;
            boolean atomic = a instanceof Expr.Name || a instanceof Expr.Attribute || a instanceof Expr.Subscript
                    || a instanceof Expr.Call;
            edits.add(new Diagnostic.Edit(a.span(), (atomic ? src.text(a) : "(" + src.text(a) + ")") + ".clone()"));
        }
    }

    /** Why one call cannot be deferred, or null: what Dynamo 2.15 accepts and replays faithfully. */
    static String whyNotDeferrable(FunctionContext f, Stmt.Expr stmt, Expr.Call call) {
        if (!call.keywords().isEmpty()) {
            return "the call has keyword arguments, which Dynamo's deferred logging rejects (GB0296)";
        }
        if (!f.isRoot()) {
            return "the call is not in the compiled frame: Dynamo inlines this function into its caller, and torch 2.15 "
                    + "drops the deferred output of inlined functions";
        }
        boolean tensorArgs = false;
        for (Expr a : call.args()) {
            if (a instanceof Expr.Starred) return "the call has unpacked arguments (*args), which cannot be deferred";
            if (f.kind(a).isTensor()) {
                tensorArgs = true;
            } else if (!(a instanceof Expr.Constant || a instanceof Expr.JoinedStr)) {
                String text = a.pyType().equals("Name") ? ((Expr.Name) a).id() : "an " + a.pyType() + " expression";
                return "an argument (" + text + ") is not a tensor, a constant or a format string, which Dynamo's "
                        + "deferred logging rejects (GB0296)";
            }
        }
        boolean loggerMethod = call.func() instanceof Expr.Attribute && !"warnings.warn".equals(f.qualifiedName(call.func()));
        if (tensorArgs && loggerMethod) {
            return "a logger method with a tensor argument still breaks when deferred (torch 2.15 cannot format the "
                    + "tensor while tracing)";
        }
        if (loggerMethod && f.config().torchBefore(2, 15)) {
            return "a deferred logger call still breaks before torch 2.15 (observed on 2.10; torch-version is "
                    + f.config().torchVersion() + ")";
        }
        return null;
    }
}
