package dev.graphmend.ir.grammar;

import java.util.ArrayList;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;

/**
 * The base of every parse-tree node of {@code PythonParser} (the grammar's
 * {@code contextSuperClass}). Most nodes of a Python tree have one or two children (each
 * precedence level of an expression is a node), yet ANTLR gives each a list of ten, grown by a
 * copy on the first child: a list of two halves the parser's allocation.
 */
public class PythonRuleContext extends ParserRuleContext {
    public PythonRuleContext() {}

    public PythonRuleContext(ParserRuleContext parent, int invokingStateNumber) {
        super(parent, invokingStateNumber);
    }

    @Override
    public <T extends ParseTree> T addAnyChild(T t) {
        if (children == null) children = new ArrayList<>(2);
        children.add(t);
        return t;
    }
}
