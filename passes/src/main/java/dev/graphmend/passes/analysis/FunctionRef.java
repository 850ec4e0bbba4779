package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.Stmt;

/**
 * A function of the project: its module, its definition and, for a method, its class.
 * Equality is by the definition node's identity (records compare subtrees by value, and two
 * identical functions in different places are different functions).
 */
public final class FunctionRef {
    private final SourceModule module;
    private final Stmt.FunctionDef def;
    private final ClassInfo owner;

    public FunctionRef(SourceModule module, Stmt.FunctionDef def, ClassInfo owner) {
        this.module = module;
        this.def = def;
        this.owner = owner;
    }

    public SourceModule module() { return module; }
    public Stmt.FunctionDef def() { return def; }
    /** The class this function is a method of, or null. */
    public ClassInfo owner() { return owner; }
    public String name() { return owner == null ? def.name() : owner.name() + "." + def.name(); }

    @Override public boolean equals(Object o) {
        return o instanceof FunctionRef f && f.def == def;
    }

    @Override public int hashCode() {
        return System.identityHashCode(def);
    }

    @Override public String toString() {
        return module.path() + ":" + def.span().line() + " " + name();
    }
}
