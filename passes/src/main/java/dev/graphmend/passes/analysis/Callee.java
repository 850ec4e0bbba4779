package dev.graphmend.passes.analysis;

/**
 * A call's resolved target, from {@link FunctionContext#callee}: the project function it runs,
 * and whether the call passes {@code self} implicitly ({@code bound}: a method called on an
 * instance, a module called, {@code super().m()}).
 */
public record Callee(FunctionRef function, boolean bound) {}
