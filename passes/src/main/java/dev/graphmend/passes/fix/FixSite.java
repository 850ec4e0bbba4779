package dev.graphmend.passes.fix;

import dev.graphmend.ir.ast.ExceptHandler;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.MatchCase;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.analysis.SourceModule;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a diagnostic sits, as a transformation needs it: the function's analysis, the reported
 * node, the statement that holds it, the block and position of every statement of the function
 * (to look at what follows, or whether it is inside a {@code try}), and the source text.
 */
public final class FixSite {
    private final FunctionContext function;
    private final Node at;
    private final SourceText source;
    private Map<Stmt, Place> places;

    /** A statement's block, its index in it, and the compound statement that owns the block (null at function level). */
    public record Place(List<Stmt> block, int index, Stmt owner) {}

    private final ModuleFunctions moduleFunctions;

    /**
     * @param moduleFunctions the compiled functions of the same module (a module-wide edit, such as
     *     a registration, must be legal for all of them)
     */
    public FixSite(FunctionContext function, Node at, ModuleFunctions moduleFunctions) {
        this.function = function;
        this.at = at;
        this.source = SourceText.of(function.module());
        this.moduleFunctions = moduleFunctions;
    }

    /**
     * The module's compiled functions, for a fix that reads their calls of {@code callee}: it then
     * depends on every compiled function's calls of it ({@link FunctionContext#moduleReads}),
     * through what {@code read} digests of them (the memo compares that digest in the next version).
     */
    public ModuleFunctions moduleFunctions(String callee, java.util.function.Function<ModuleFunctions, String> read) {
        function.markModuleRead(callee, read.apply(moduleFunctions));
        return moduleFunctions;
    }

    /** The same function's site at another node (a fix that asks another transformation about a part of its site). */
    public FixSite at(Node other) {
        return new FixSite(function, other, moduleFunctions);
    }

    public FunctionContext function() { return function; }
    public Node at() { return at; }
    public SourceModule module() { return function.module(); }
    public SourceText source() { return source; }

    /**
     * How code at this site names torch: {@code torch} when its function imports torch itself
     * ({@code import torch} in the body, as transformers' optional-torch helpers do), else the
     * module's {@link SourceText#torchAlias()}; null when neither.
     */
    public String torchName() {
        return importsTorchLocally() ? "torch" : source.torchAlias();
    }

    /** Why a fix here may not add {@code import torch} ({@link SourceText#optionalTorchProblem()}); null when the function imports it. */
    public String optionalTorchProblem() {
        return importsTorchLocally() ? null : source.optionalTorchProblem();
    }

    private boolean importsTorchLocally() {
        boolean[] found = {false};
        dev.graphmend.passes.analysis.Statements.everywhere(function.function().def(), st -> {
            if (st instanceof Stmt.Import imp) {
                for (var a : imp.names()) found[0] |= a.name().equals("torch") && a.asname() == null;
            }
        });
        return found[0];
    }

    public Place place(Stmt s) {
        if (places == null) {
            places = new IdentityHashMap<>();
            index(function.function().def().body(), null);
        }
        return places.get(s);
    }

    private void index(List<Stmt> block, Stmt owner) {
        for (int i = 0; i < block.size(); i++) {
            Stmt s = block.get(i);
            places.put(s, new Place(block, i, owner));
            if (s instanceof Stmt.If x) { index(x.body(), s); index(x.orelse(), s); }
            else if (s instanceof Stmt.For x) { index(x.body(), s); index(x.orelse(), s); }
            else if (s instanceof Stmt.While x) { index(x.body(), s); index(x.orelse(), s); }
            else if (s instanceof Stmt.With x) index(x.body(), s);
            else if (s instanceof Stmt.Try x) {
                index(x.body(), s);
                for (ExceptHandler h : x.handlers()) index(h.body(), s);
                index(x.orelse(), s);
                index(x.finalbody(), s);
            } else if (s instanceof Stmt.Match x) {
                for (MatchCase c : x.cases()) index(c.body(), s);
            }
        }
    }

    /** Whether a statement lies (at any depth) in the body of a {@code try} (where raising differently changes which handler runs). */
    public boolean insideTry(Stmt s) {
        for (Place p = place(s); p != null && p.owner() != null; p = place(p.owner())) {
            if (p.owner() instanceof Stmt.Try || p.owner() instanceof Stmt.TryStar) return true;
        }
        return false;
    }

    /** The live statement whose own expressions include {@code e} (not nested statements'), or null. */
    public Stmt statementOf(Expr e) {
        for (Stmt s : function.liveStatements()) {
            boolean[] found = {false};
            dev.graphmend.passes.analysis.Statements.expressions(s, x -> found[0] |= x == e);
            if (found[0]) return s;
        }
        return null;
    }
}
