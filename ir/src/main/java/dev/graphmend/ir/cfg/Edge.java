package dev.graphmend.ir.cfg;

/**
 * A directed edge of a control-flow graph. Blocks compare by identity, so an edge equals another
 * when it joins the same two blocks with the same kind.
 */
public record Edge(Block source, EdgeKind kind, Block target) {
    @Override
    public String toString() {
        return source + " -> " + target + (kind == EdgeKind.NORMAL ? "" : " [" + kind + "]");
    }
}
