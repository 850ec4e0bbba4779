package dev.graphmend.passes.fix;

import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.passes.analysis.FunctionContext;
import dev.graphmend.passes.rules.SideEffectCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The compiled functions of one module in one analysis, for fixes whose edit is module-wide (a
 * registration must be legal for every call it covers), with the output calls of their traced
 * statements indexed by callee once, not scanned again at every site.
 */
public final class ModuleFunctions {
    /** An output call statement in a compiled function. */
    public record OutputCall(FunctionContext function, Stmt.Expr statement, Expr.Call call) {}

    private final java.util.function.Supplier<List<FunctionContext>> make;
    private List<FunctionContext> functions; // guarded by this; made on first use
    private Map<String, List<OutputCall>> byCallee; // guarded by this
    private final Map<Object, Object> once = new HashMap<>(); // guarded by this

    /** {@code make}: the functions' contexts, made when a fix first asks (most analyses never do). */
    public ModuleFunctions(java.util.function.Supplier<List<FunctionContext>> make) {
        this.make = make;
    }

    public synchronized List<FunctionContext> functions() {
        if (functions == null) functions = List.copyOf(make.get());
        return functions;
    }

    /**
     * What {@code compute} gives for {@code key}, computed once per analysis: a module-wide fact every
     * site of a fix asks for (whether each call a registration covers is legal, the registration's
     * edits). {@code compute} must not ask for another key.
     */
    @SuppressWarnings("unchecked")
    public synchronized <T> T once(Object key, java.util.function.Supplier<T> compute) {
        Object v = once.get(key);
        if (v == null) {
            v = compute.get();
            once.put(key, v);
        }
        return (T) v;
    }

    /** The traced output calls ({@link SideEffectCall#sideEffect}) whose callee a registration names {@code callee}. */
    public synchronized List<OutputCall> outputCalls(String callee) {
        if (byCallee == null) {
            byCallee = new HashMap<>();
            for (FunctionContext f : functions()) {
                for (Stmt s : f.liveStatements()) {
                    if (!(s instanceof Stmt.Expr es) || !(es.value() instanceof Expr.Call c)) continue;
                    String key = SideEffectCall.calleeKey(c);
                    if (key == null || SideEffectCall.sideEffect(f, c) == null) continue;
                    byCallee.computeIfAbsent(key, k -> new ArrayList<>()).add(new OutputCall(f, es, c));
                }
            }
        }
        return byCallee.getOrDefault(callee, List.of());
    }
}
