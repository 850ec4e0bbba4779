package dev.graphmend.ir.cfg;

import dev.graphmend.ir.ast.Node;

/**
 * A place that binds a name. One object per (binding node, name) in a {@link ReachingDefinitions};
 * definitions compare by identity. A node inside a duplicated {@code finally} body is one
 * definition, whichever copy runs.
 *
 * <p>{@code node} per kind: the target {@code Name} (ASSIGN, AUG_ASSIGN, ANN_ASSIGN, FOR_TARGET,
 * WITH_TARGET, WALRUS, TYPE_ALIAS), the {@code Arg} (PARAMETER), the {@code alias} (IMPORT), the
 * {@code ExceptHandler} (EXCEPT_NAME), the {@code FunctionDef}/{@code AsyncFunctionDef}
 * (FUNCTION), the {@code ClassDef} (CLASS), the {@code MatchAs}/{@code MatchStar}/
 * {@code MatchMapping} pattern (MATCH_CAPTURE).
 */
public final class Definition {

    public enum Kind {
        PARAMETER, ASSIGN, AUG_ASSIGN, ANN_ASSIGN, FOR_TARGET, WITH_TARGET, EXCEPT_NAME, IMPORT,
        FUNCTION, CLASS, WALRUS, MATCH_CAPTURE, TYPE_ALIAS
    }

    private final int index;
    private final Node node;
    private final String name;
    private final Kind kind;

    Definition(int index, Node node, String name, Kind kind) {
        this.index = index;
        this.node = node;
        this.name = name;
        this.kind = kind;
    }

    /** Position in {@link ReachingDefinitions#definitions()}. */
    public int index() {
        return index;
    }

    public Node node() {
        return node;
    }

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    /** {@code name@line:col kind}. */
    @Override
    public String toString() {
        var sp = node.span();
        return name + "@" + (sp == null ? "?" : sp.line() + ":" + sp.col()) + " " + kind;
    }
}
