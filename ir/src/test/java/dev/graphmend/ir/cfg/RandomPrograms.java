package dev.graphmend.ir.cfg;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Small random Python functions from a tiny grammar, one statement per line: assignments,
 * augmented assignments, {@code del}, walrus in conditions (also in the right operand of
 * {@code and}/{@code or}), if/elif/else, while/else (bounded by a counter incremented first
 * thing in the body, so every run terminates), for/else over {@code range}, break, continue,
 * return, raise, assert, try/except/else/finally (typed, named, tuple and bare handlers), with,
 * match (literal, or-, capture, guarded and wildcard cases), and {@code yield} in generator mode.
 * Nesting depth and size are bounded. No test is a constant (the graphs drop the impossible branch
 * of a constant test, path enumeration would not).
 *
 * <p>At run time the parameters {@code a, b, c} are small ints, {@code CM} is a context manager
 * that suppresses exceptions when its value is odd, and {@code v0..v2} start at 0; division by a
 * parameter-dependent divisor, {@code del}, failed asserts and raises give exceptional paths.
 */
final class RandomPrograms {

    /** Which constructs to use. */
    record Options(boolean generator, boolean exceptions, boolean with, boolean match, boolean walrus,
                   boolean del, int maxDepth, int maxStatements) {
        static Options all() {
            return new Options(false, true, true, true, true, true, 3, 22);
        }
    }

    private static final String[] VARS = {"v0", "v1", "v2"};
    private static final String[] PARAMS = {"a", "b", "c"};

    private final Random rnd;
    private final Options opt;
    private final StringBuilder out = new StringBuilder();
    private int statements;
    private int counters;
    private int captures;

    private RandomPrograms(Random rnd, Options opt) {
        this.rnd = rnd;
        this.opt = opt;
    }

    /** A function {@code def name(a, b, c):} with a random body. */
    static String function(Random rnd, String name, Options opt) {
        RandomPrograms g = new RandomPrograms(rnd, opt);
        g.line(0, "def " + name + "(a, b, c):");
        g.line(1, "v0 = v1 = v2 = 0");
        g.block(1, new Ctx(false, false), 2 + rnd.nextInt(4));
        // A generator function needs a yield somewhere, even if the random body has none.
        g.line(1, opt.generator ? "yield " + g.expr() : "return " + g.expr());
        return g.out.toString();
    }

    record Ctx(boolean inLoop, boolean inHandlerOrFinally) {}

    private void line(int indent, String text) {
        out.append("    ".repeat(indent)).append(text).append('\n');
    }

    private void block(int indent, Ctx ctx, int n) {
        for (int i = 0; i < n; i++) {
            stmt(indent, ctx);
            if (statements >= opt.maxStatements) break;
        }
    }

    /** A body of one to three statements. */
    private void body(int indent, Ctx ctx) {
        block(indent, ctx, 1 + rnd.nextInt(3));
    }

    private void stmt(int indent, Ctx ctx) {
        statements++;
        int depth = indent - 1;
        boolean nest = depth < opt.maxDepth && statements < opt.maxStatements;
        List<Runnable> choices = new ArrayList<>();
        List<Integer> weights = new ArrayList<>();
        add(choices, weights, 30, () -> line(indent, var() + " = " + expr()));
        add(choices, weights, 10, () -> line(indent, var() + " " + pick("+=", "-=", "*=") + " " + atom()));
        add(choices, weights, 2, () -> line(indent, "pass"));
        add(choices, weights, 3, () -> line(indent, "print(" + expr() + ")"));
        if (opt.del) add(choices, weights, 2, () -> line(indent, "del " + var()));
        if (opt.generator) add(choices, weights, 6, () -> line(indent, "yield " + expr()));
        if (opt.exceptions) {
            add(choices, weights, 2, () -> line(indent, "raise " + pick("ValueError(", "KeyError(") + atom() + ")"));
            add(choices, weights, 2, () -> line(indent, "assert " + cond() + ", \"failed\""));
        }
        add(choices, weights, 2, () -> line(indent, opt.generator ? "return" : "return " + expr()));
        if (ctx.inLoop) {
            add(choices, weights, 4, () -> line(indent, "break"));
            add(choices, weights, 3, () -> line(indent, "continue"));
        }
        if (nest) {
            add(choices, weights, 14, () -> ifStmt(indent, ctx));
            add(choices, weights, 6, () -> whileStmt(indent, ctx));
            add(choices, weights, 6, () -> forStmt(indent, ctx));
            if (opt.exceptions) add(choices, weights, 9, () -> tryStmt(indent, ctx));
            if (opt.with) add(choices, weights, 4, () -> withStmt(indent, ctx));
            if (opt.match) add(choices, weights, 4, () -> matchStmt(indent, ctx));
        }
        int total = weights.stream().mapToInt(Integer::intValue).sum();
        int r = rnd.nextInt(total);
        for (int i = 0; i < choices.size(); i++) {
            r -= weights.get(i);
            if (r < 0) {
                choices.get(i).run();
                return;
            }
        }
    }

    private static void add(List<Runnable> cs, List<Integer> ws, int w, Runnable r) {
        cs.add(r);
        ws.add(w);
    }

    private void ifStmt(int indent, Ctx ctx) {
        line(indent, "if " + cond() + ":");
        body(indent + 1, ctx);
        int elifs = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(2) : 0;
        for (int i = 0; i < elifs; i++) {
            line(indent, "elif " + cond() + ":");
            body(indent + 1, ctx);
        }
        if (rnd.nextBoolean()) {
            line(indent, "else:");
            body(indent + 1, ctx);
        }
    }

    private void whileStmt(int indent, Ctx ctx) {
        String k = "k" + counters++;
        line(indent, k + " = 0");
        // The extra condition is parenthesised: `k < 3 and x or y` would not be bounded by k.
        line(indent, "while " + k + " < " + (1 + rnd.nextInt(3)) + (rnd.nextInt(3) == 0 ? " and (" + cond() + ")" : "") + ":");
        line(indent + 1, k + " += 1");
        body(indent + 1, new Ctx(true, ctx.inHandlerOrFinally));
        if (rnd.nextInt(3) == 0) {
            line(indent, "else:");
            body(indent + 1, ctx);
        }
    }

    private void forStmt(int indent, Ctx ctx) {
        line(indent, "for " + pick("i", "j", "v1") + " in range(" + pick("3", "2", "a % 3", "b % 4") + "):");
        body(indent + 1, new Ctx(true, ctx.inHandlerOrFinally));
        if (rnd.nextInt(3) == 0) {
            line(indent, "else:");
            body(indent + 1, ctx);
        }
    }

    private void tryStmt(int indent, Ctx ctx) {
        line(indent, "try:");
        body(indent + 1, ctx);
        int handlers = rnd.nextInt(3);
        boolean fin = handlers == 0 || rnd.nextInt(3) == 0;
        Ctx inner = new Ctx(ctx.inLoop, true);
        for (int i = 0; i < handlers; i++) {
            boolean bare = i == handlers - 1 && rnd.nextInt(5) == 0;
            if (bare) {
                line(indent, "except:");
            } else {
                String type = pick("ZeroDivisionError", "ValueError", "(KeyError, AssertionError)", "Exception",
                        "UnboundLocalError");
                line(indent, "except " + type + (rnd.nextBoolean() ? " as e" : "") + ":");
            }
            body(indent + 1, inner);
        }
        if (handlers > 0 && rnd.nextInt(3) == 0) {
            line(indent, "else:");
            body(indent + 1, ctx);
        }
        if (fin) {
            line(indent, "finally:");
            body(indent + 1, inner);
        }
    }

    private void withStmt(int indent, Ctx ctx) {
        line(indent, "with CM(" + expr() + ")" + (rnd.nextBoolean() ? " as " + var() : "") + ":");
        body(indent + 1, ctx);
    }

    private void matchStmt(int indent, Ctx ctx) {
        line(indent, "match (" + expr() + ") % 5:");
        int cases = 1 + rnd.nextInt(3);
        for (int i = 0; i < cases; i++) {
            boolean last = i == cases - 1;
            int kind = rnd.nextInt(last ? 6 : 4);
            String z = "z" + captures++;
            String pattern = switch (kind) {
                case 0 -> String.valueOf(rnd.nextInt(5));
                case 1 -> rnd.nextInt(5) + " | " + rnd.nextInt(5);
                case 2 -> "(" + rnd.nextInt(5) + " as " + z + ") | (" + rnd.nextInt(5) + " as " + z + ")";
                case 3 -> z + " if " + z + " > " + rnd.nextInt(4);
                case 4 -> z;
                default -> "_";
            };
            line(indent + 1, "case " + pattern + ":");
            if (kind >= 2 && kind <= 4 && rnd.nextBoolean()) line(indent + 2, var() + " = " + z);
            body(indent + 2, ctx);
        }
    }

    // ------------------------------------------------------------------ expressions

    private String pick(String... xs) {
        return xs[rnd.nextInt(xs.length)];
    }

    private String var() {
        return VARS[rnd.nextInt(VARS.length)];
    }

    private String atom() {
        return switch (rnd.nextInt(3)) {
            case 0 -> String.valueOf(rnd.nextInt(6));
            case 1 -> var();
            default -> PARAMS[rnd.nextInt(PARAMS.length)];
        };
    }

    private String expr() {
        return switch (rnd.nextInt(6)) {
            case 0, 1 -> atom();
            case 2 -> atom() + " + " + atom();
            case 3 -> atom() + " - " + atom();
            case 4 -> atom() + " * 2";
            default -> rnd.nextInt(3) == 0 ? atom() + " // (" + pick("a", "b", "c") + " - 1)" : atom() + " % 3";
        };
    }

    private String cond() {
        String base = switch (rnd.nextInt(5)) {
            case 0 -> expr() + " > " + rnd.nextInt(4);
            case 1 -> expr() + " % 2 == 0";
            case 2 -> atom() + " == " + atom();
            case 3 -> "not " + var();
            default -> opt.walrus ? "(" + var() + " := " + expr() + ") > 1" : atom() + " < 3";
        };
        if (rnd.nextInt(4) == 0) {
            String second = opt.walrus && rnd.nextBoolean() ? "(" + var() + " := " + atom() + ")" : atom() + " > 2";
            return base + " " + pick("and", "or") + " " + second;
        }
        return base;
    }
}
