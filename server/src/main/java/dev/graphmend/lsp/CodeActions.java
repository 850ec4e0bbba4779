package dev.graphmend.lsp;

import dev.graphmend.passes.FixAll;
import dev.graphmend.passes.analysis.Project;
import dev.graphmend.passes.analysis.SourceModule;
import dev.graphmend.passes.model.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.WorkspaceEdit;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/**
 * Code actions (docs/lsp.md, "Code actions"): the quick fixes and "Disable GMxxx for this line" of
 * the diagnostics in a range, and fix-all, as actions with their edits or, for clients that resolve
 * them, with the data to build the edit from when chosen. Works on one analysed version; the
 * server gives it the engine, its log, the client's capabilities and the workspace's modules.
 */
final class CodeActions {
    private final Engine engine;
    private final Log log;
    private final Supplier<ClientCaps> caps;
    /** The other modules of the workspace for a document's URI (open ones with their editor text), or null if it is not open. */
    private final Function<String, List<SourceModule>> workspaceModules;

    CodeActions(Engine engine, Log log, Supplier<ClientCaps> caps, Function<String, List<SourceModule>> workspaceModules) {
        this.engine = engine;
        this.log = log;
        this.caps = caps;
        this.workspaceModules = workspaceModules;
    }

    List<Either<Command, CodeAction>> actions(Analysis a, CodeActionParams params) {
        Snapshot s = a.snapshot();
        List<String> only = params.getContext() == null ? null : params.getContext().getOnly();
        boolean quick = wanted(only, CodeActionKind.QuickFix);
        boolean fixAll = wanted(only, GraphmendServer.FIX_ALL_KIND);
        boolean lazy = caps.get().resolveEdit();
        List<Either<Command, CodeAction>> out = new ArrayList<>();
        boolean anyFix = false, fixHere = false;
        for (int i = 0; i < a.engine().size(); i++) {
            Diagnostic d = a.engine().get(i);
            if (d.code().equals("GM000")) continue;
            boolean applicable = false;
            for (Diagnostic.Fix f : d.fixes()) applicable |= f.safety().isSafe() || a.config().unsafeFixes();
            anyFix |= applicable;
            if (!quick || !Positions.intersects(a.lsp().get(i).getRange(), params.getRange())) continue;
            fixHere |= applicable;
            for (int j = 0; j < d.fixes().size(); j++) {
                Diagnostic.Fix f = d.fixes().get(j);
                CodeAction ca = new CodeAction(title(f));
                ca.setKind(CodeActionKind.QuickFix);
                ca.setDiagnostics(List.of(a.lsp().get(i)));
                ca.setIsPreferred(f.safety().isSafe());
                ActionData data = ActionData.fix(s, i, d.code(), j);
                if (lazy) ca.setData(data.toJson());
                else ca.setEdit(editFor(a, data));
                out.add(Either.forRight(ca));
            }
            ActionData data = ActionData.disable(s, i, d.code());
            WorkspaceEdit disable = editFor(a, data);
            if (disable != null) {
                CodeAction ca = new CodeAction("Disable " + d.code() + " for this line");
                ca.setKind(CodeActionKind.QuickFix);
                ca.setDiagnostics(List.of(a.lsp().get(i)));
                if (lazy) ca.setData(data.toJson());
                else ca.setEdit(disable);
                out.add(Either.forRight(ca));
            }
        }
        // in the quick-fix menu too (VS Code's light bulb leaves source actions out), as ruff does
        boolean fixAllHere = fixHere;
        if (fixAllHere) {
            CodeAction ca = fixAllAction(a, "Fix all GraphMend problems in this file"
                    + (a.config().unsafeFixes() ? " (unsafe included)" : ""), CodeActionKind.QuickFix, lazy);
            if (ca == null) return out;
            out.add(Either.forRight(ca));
        }
        // the source action, unless the same entry was just offered to a client that asked for every kind
        if (fixAll && anyFix && !(fixAllHere && (only == null || only.isEmpty()))) {
            CodeAction ca = fixAllAction(a, a.config().unsafeFixes() ? "Fix all GraphMend problems (including unsafe fixes)"
                    : "Fix all GraphMend problems (safe fixes)", GraphmendServer.FIX_ALL_KIND, lazy);
            if (ca != null) out.add(Either.forRight(ca));
        }
        return out;
    }

    /** A fix's title as the menu shows it: an unsafe fix says so, as ruff's do. */
    static String title(Diagnostic.Fix f) {
        return f.safety().isSafe() ? f.title() : f.title() + " (unsafe)";
    }

    /** Fix-all of the file as an action of {@code kind}; null when eager and nothing would change. */
    private CodeAction fixAllAction(Analysis a, String title, String kind, boolean lazy) {
        CodeAction ca = new CodeAction(title);
        ca.setKind(kind);
        ActionData data = ActionData.fixAll(a.snapshot());
        if (lazy) {
            ca.setData(data.toJson());
        } else {
            WorkspaceEdit we = editFor(a, data);
            if (we == null) return null;
            ca.setEdit(we);
        }
        return ca;
    }

    private static boolean wanted(List<String> only, String kind) {
        if (only == null || only.isEmpty()) return true;
        for (String o : only) if (kind.equals(o) || kind.startsWith(o + ".")) return true;
        return false;
    }

    /**
     * The edit a code action's data describes, computed on the analysis of the same version; null
     * when there is none. A diagnostic or fix index that this analysis does not have, or a
     * diagnostic of another rule at the index, is {@code ContentModified}: the same version is
     * analysed again when another file changes, and its diagnostics may change with it.
     */
    WorkspaceEdit editFor(Analysis a, ActionData data) {
        Snapshot s = a.snapshot();
        Positions pos = s.positions(caps.get().encoding());
        String kind = data.kind();
        if (kind.equals(ActionData.FIX_ALL)) {
            FixAllEdit f = fixAllEdit(a);
            return f == null ? new WorkspaceEdit() : f.edit();
        }
        int i = data.diagnostic();
        if (i >= a.engine().size() || !a.engine().get(i).code().equals(data.code())) {
            throw new ResponseErrorException(new ResponseError(ResponseErrorCode.ContentModified, "the diagnostic this action was made for ("
                    + data.code() + ", number " + i + " of version " + s.version + ") is gone; ask for code actions again", null));
        }
        Diagnostic d = a.engine().get(i);
        if (kind.equals(ActionData.DISABLE)) {
            Suppress.Insert ins = Suppress.forLine(s.ir.lines(), d.span().line(), d.span().endLine(), d.code());
            if (ins == null) return null;
            Position at = pos.fromUtf16(ins.line() - 1, ins.utf16Col());
            return Edits.workspaceEdit(caps.get(), s.uri, s.version, List.of(new TextEdit(new Range(at, at), ins.text())),
                    new Edits.Annotation("graphmend.suppress", "Suppress " + d.code() + " on this line",
                            "Adds a '# graphmend: ignore[" + d.code() + "]' comment; the code is unchanged.", false));
        }
        if (kind.equals(ActionData.FIX)) {
            int j = data.fix();
            if (j >= d.fixes().size()) {
                throw new ResponseErrorException(new ResponseError(ResponseErrorCode.ContentModified, "the diagnostic " + d.code()
                        + " at line " + d.span().line() + " has " + d.fixes().size() + " fixes now, not fix number " + j
                        + "; ask for code actions again", null));
            }
            Diagnostic.Fix described = d.fixes().get(j);
            // the analysis only described the fix: its edits are built now, on this version, and re-parse-checked
            Diagnostic.Fix f = a.findings().fixesFor(s.module(), d).stream()
                    .filter(b -> b.title().equals(described.title()) && b.safety().equals(described.safety()))
                    .findFirst().orElse(null);
            if (f == null) {
                log.error("the fix '" + described.title() + "' at " + s.uri + ":" + d.span().line()
                        + " could not be built (its rewrite did not parse); please report this");
                throw new ResponseErrorException(new ResponseError(ResponseErrorCode.InternalError,
                        "the fix could not be built; the server's log says why", null));
            }
            List<TextEdit> edits = new ArrayList<>();
            for (Diagnostic.Edit ed : f.edits()) edits.add(new TextEdit(pos.range(ed.span()), ed.newText()));
            boolean safe = f.safety().isSafe();
            String description = safe ? "Safe: behaviour is the same for every input."
                    : "Unsafe: behaviour changes" + (f.note() == null ? "; review the edit before applying it." : ": " + f.note());
            if (safe && f.note() != null) description += " " + f.note();
            return Edits.workspaceEdit(caps.get(), s.uri, s.version, edits,
                    new Edits.Annotation("graphmend.fix." + f.safety(), (safe ? "Safe fix: " : "Unsafe fix: ") + f.title(),
                            description, !safe));
        }
        throw new ResponseErrorException(new ResponseError(ResponseErrorCode.InvalidParams, "unknown action kind " + kind, null));
    }

    record FixAllEdit(WorkspaceEdit edit, FixAll.Result result) {}

    /** Fix-all of the analysed version as one edit (the changed span), or null when nothing changes. */
    FixAllEdit fixAllEdit(Analysis a) {
        Snapshot s = a.snapshot();
        // the modules fix-all reads: the same policy as `graphmend fix` (FixAll.neighbourhood), not the workspace
        List<SourceModule> others = new ArrayList<>();
        List<SourceModule> workspace = workspaceModules.apply(s.uri);
        if (workspace != null) {
            List<SourceModule> all = new ArrayList<>(workspace);
            SourceModule mine = s.module();
            all.add(mine);
            others = FixAll.neighbourhood(mine, all, new Project(all, a.config()), a.engine());
        }
        FixAll.Result r = engine.fixAll(s.path, s.text(), a.config(), others);
        for (String err : r.internalErrors()) log.error(err + " (during fix-all; please report this)");
        TextEdit edit = Edits.diff(s.text(), r.text(), s.positions(caps.get().encoding()));
        if (edit == null) return null;
        StringBuilder desc = new StringBuilder();
        boolean unsafe = false;
        for (FixAll.Applied ap : r.applied()) {
            unsafe |= !ap.safety().isSafe();
            desc.append(desc.length() == 0 ? "" : "; ").append(ap.code()).append(" line ").append(ap.line())
                    .append(": ").append(ap.title()).append(" (").append(ap.safety()).append(")");
        }
        String label = a.config().unsafeFixes() ? "Fix all (including unsafe fixes)" : "Fix all (safe fixes)";
        return new FixAllEdit(Edits.workspaceEdit(caps.get(), s.uri, s.version, List.of(edit),
                new Edits.Annotation("graphmend.fixAll", label, desc.toString(), unsafe)), r);
    }
}
