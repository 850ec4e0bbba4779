package dev.graphmend.passes.fix;

import dev.graphmend.passes.model.FixInfo;
import dev.graphmend.passes.model.Safety;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Keyword;
import dev.graphmend.ir.ast.PyConstant;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.model.Diagnostic;
import dev.graphmend.passes.analysis.FunctionContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GM102 {@code print(...)} → {@code torch._higher_order_ops.print(fmt, name=value, ...)}: torch's
 * in-graph print, an effectful operator that Dynamo puts into the graph (no break, in program order,
 * also in inlined frames and under inductor) and that calls {@code builtins.print(fmt.format(...))}
 * when the graph runs. The format string is built so that the text is the one {@code print} writes:
 * string literals go into it (braces doubled), every other argument becomes a {@code {name!s}} field
 * ({@code print} writes {@code str(arg)}), an f-string's fields keep their conversion and format
 * spec (both formats run on the real values when the graph runs), and a literal {@code sep}/{@code end}
 * is spelled into it. Only tensors, numbers, strings, booleans and None pass through the operator
 * (a torch.Size, tuple or list fails when compiled: observed on torch 2.15), so any other argument
 * declines. Offered from torch 2.15: on 2.10 the operator takes keyword arguments only and fails
 * under inductor with a tensor argument (observed, docs/rules/GM102.md).
 */
public final class InGraphPrint implements Transformation {
    /** The line length past which the rewritten call is split over lines (ruff's and black's default is 88). */
    private static final int MAX_LINE = 88;

    static final FixInfo INFO = new FixInfo("Print inside the graph", Safety.SAFE, "2.15");

    @Override public FixInfo info() { return INFO; }

    @Override
    public Proposal propose(FixSite site) {
        if (!(site.at() instanceof Expr.Call call)) return Proposal.notApplicable();
        FunctionContext f = site.function();
        if (!"builtins.print".equals(f.qualifiedName(call.func()))) return Proposal.notApplicable();
        if (f.config().torchBefore(INFO.sinceTorch())) {
            return Proposal.decline("the in-graph print (torch._higher_order_ops.print) is offered from torch 2.15: on 2.10 it "
                    + "fails under inductor with tensor arguments (torch-version is " + f.config().torchVersion() + ")");
        }
        Stmt.Expr stmt = SideEffectSites.statement(site);
        if (stmt == null) return Proposal.decline("the call's result is used, so it cannot become an in-graph print");
        if (TorchScriptCode.mayCompile(site)) return Proposal.decline(TorchScriptCode.reason("the in-graph print (torch._higher_order_ops.print)"));
        Format fmt = new Format(f, site.source());
        String sep = " ", end = "\n";
        for (Keyword k : call.keywords()) {
            if (k.arg() == null) return Proposal.decline("the call has unpacked keyword arguments (**kwargs)");
            Object v = k.value() instanceof Expr.Constant c ? c.value() : null;
            boolean none = v == PyConstant.Singleton.NONE;
            switch (k.arg()) {
                case "sep" -> {
                    if (!(v instanceof String s) && !none) return Proposal.decline("sep is not a string literal, so the text is not known");
                    if (!none) sep = (String) v;
                }
                case "end" -> {
                    if (!(v instanceof String s) && !none) return Proposal.decline("end is not a string literal, so the text is not known");
                    if (!none) end = (String) v;
                }
                case "file" -> {
                    if (!none) return Proposal.decline("the call prints to a file (file=...); the in-graph print writes to stdout");
                }
                case "flush" -> {
                    if (!Boolean.FALSE.equals(v) && !none) {
                        return Proposal.decline("the call flushes (flush=...); the in-graph print does not");
                    }
                }
                default -> { return Proposal.decline("print has no keyword argument " + k.arg()); }
            }
        }
        if (!end.endsWith("\n")) {
            return Proposal.decline("end does not end with a newline; the in-graph print always ends its line");
        }
        for (int i = 0; i < call.args().size(); i++) {
            if (i > 0) fmt.literal(sep);
            String why = fmt.argument(call.args().get(i));
            if (why != null) return Proposal.decline(why);
        }
        fmt.literal(end.substring(0, end.length() - 1));
        SourceText src = site.source();
        String optionalTorch = site.optionalTorchProblem();
        if (optionalTorch != null) return Proposal.decline(optionalTorch);
        String torch = site.torchName();
        List<Diagnostic.Edit> edits = new ArrayList<>();
        if (torch == null) {
            torch = "torch";
            edits.add(src.insertLinesAfter(src.importInsertionLine(), "import torch"));
        }
        List<String> args = new ArrayList<>();
        args.add(pythonString(fmt.text.toString()));
        for (Map.Entry<String, String> e : fmt.fields.entrySet()) args.add(e.getKey() + "=" + e.getValue());
        String head = torch + "._higher_order_ops.print(";
        String indent = src.indentation(stmt.span().line());
        String oneLine = head + String.join(", ", args) + ")";
        // a long call is laid out one argument per line, as black and ruff format would lay it out
        String unit = indent + src.indentUnit();
        String repl = indent.length() + oneLine.length() <= MAX_LINE ? oneLine
                : head + "\n" + unit + String.join(",\n" + unit, args) + ",\n" + indent + ")";
        edits.add(new Diagnostic.Edit(call.span(), repl));
        return Proposal.of(new Diagnostic.Fix("Print inside the graph (torch._higher_order_ops.print)", Safety.SAFE, edits,
                "Safe: the same text is printed at the same point of the program, eagerly and under torch.compile, where "
                        + "the print becomes an ordered operation of the graph instead of a graph break. One difference: "
                        + "a compiled graph gives the print tensors without autograd history, so a tensor that requires "
                        + "grad prints without its grad_fn=<...> suffix."));
    }

    /** The format string and its fields ({@code name → source text}), in argument order. */
    private static final class Format {
        final FunctionContext f;
        final SourceText src;
        final StringBuilder text = new StringBuilder();
        final Map<String, String> fields = new LinkedHashMap<>();

        Format(FunctionContext f, SourceText src) {
            this.f = f;
            this.src = src;
        }

        void literal(String s) {
            text.append(s.replace("{", "{{").replace("}", "}}"));
        }

        /** Adds one positional argument of print; returns why it cannot be passed, or null. */
        String argument(Expr a) {
            if (a instanceof Expr.Starred) return "the call has unpacked arguments (*args), whose number is not known";
            if (a instanceof Expr.Constant c && c.value() instanceof String s) {
                literal(s);
                return null;
            }
            if (a instanceof Expr.Constant c && printedText(c) != null) {
                literal(printedText(c));
                return null;
            }
            if (a instanceof Expr.JoinedStr js) {
                for (Expr part : js.values()) {
                    if (part instanceof Expr.Constant c && c.value() instanceof String s) {
                        literal(s);
                    } else if (part instanceof Expr.FormattedValue fv) {
                        String why = field(fv.value(), fv.conversion(), fv.formatSpec());
                        if (why != null) return why;
                    } else {
                        return "the f-string has a part that is not text or a field";
                    }
                }
                return null;
            }
            return field(a, 's', null);
        }

        private String field(Expr value, int conversion, Expr spec) {
            String why = whyNotPassable(value);
            if (why != null) return why;
            String specText = "";
            if (spec instanceof Expr.JoinedStr js) {
                StringBuilder sb = new StringBuilder(":");
                for (Expr p : js.values()) {
                    if (!(p instanceof Expr.Constant c && c.value() instanceof String s)) {
                        return "a format spec has a nested field ({...} inside the spec)";
                    }
                    sb.append(s);
                }
                specText = sb.toString();
            } else if (spec != null) {
                return "a format spec is not literal text";
            }
            String name = nameFor(value);
            text.append('{').append(name);
            if (conversion > 0) text.append('!').append((char) conversion);
            text.append(specText).append('}');
            return null;
        }

        /** A keyword for the value: its own name where it is a plain name, else the attribute's, else argN. */
        private String nameFor(Expr value) {
            String code = src.text(value);
            String base = value instanceof Expr.Name n ? n.id() : value instanceof Expr.Attribute at ? at.attr() : "arg";
            if (value instanceof Expr.Name && code.equals(fields.get(base))) return base; // the same name again
            if (base.equals("format_str")) base = "format_str_"; // the operator's own first parameter
            String name = base.equals("arg") ? "arg" + fields.size() : base;
            for (int i = 1; fields.containsKey(name); i++) name = base + i;
            fields.put(name, value instanceof Expr.Name || value instanceof Expr.Attribute ? code : src.argument(value));
            return name;
        }

        /** Why the value cannot go through the operator, or null: tensors and Python scalars only. */
        private String whyNotPassable(Expr v) {
            if (f.kind(v).isTensor() || Scalars.isScalar(f, v, 0)) return null;
            String text = v instanceof Expr.Name n ? n.id() : v instanceof Expr.Attribute at ? "." + at.attr() : "an " + v.pyType() + " expression";
            return "an argument (" + text + ") is not known to be a tensor, a number, a string, a bool or None, the values "
                    + "the in-graph print passes through the graph (a torch.Size, tuple or list fails when compiled)";
        }
    }

    /** What {@code print} writes for an int, bool or None literal (a float's text is Python's to decide: null). */
    private static String printedText(Expr.Constant c) {
        if (c.value() instanceof java.math.BigInteger i) return i.toString();
        if (c.value() instanceof Boolean b) return b ? "True" : "False";
        if (c.value() == PyConstant.Singleton.NONE) return "None";
        return null;
    }

    /** A Python string literal (double-quoted) whose value is {@code s}. */
    static String pythonString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            switch (cp) {
                case '\\' -> b.append("\\\\");
                case '"' -> b.append("\\\"");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (cp < 0x20 || cp == 0x7f) b.append(String.format("\\x%02x", cp));
                    else if (cp >= 0xd800 && cp <= 0xdfff) b.append(String.format("\\u%04x", cp));
                    else b.appendCodePoint(cp);
                }
            }
        }
        return b.append('"').toString();
    }
}
