package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.Stmt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A class of the project, with what the analysis needs of it: its methods, its workspace base
 * classes, whether it is an nn.Module, and the abstract values of its attributes (computed by
 * {@link Project} on first use).
 */
public final class ClassInfo {
    private final SourceModule module;
    private final Stmt.ClassDef def;
    final List<ClassInfo> bases = new ArrayList<>();
    final List<String> externalBases = new ArrayList<>();
    boolean isModule;
    private final Map<String, Stmt.FunctionDef> methods = new LinkedHashMap<>();
    volatile Map<String, Val> attributes; // filled by Project
    volatile List<ClassInfo> submoduleEvidence; // filled by Project
    /** Each {@code self.attr = value} of the class's own methods, by attribute, with its method; filled by Project. */
    volatile Map<String, List<Project.SelfAssignment>> selfAssignments;

    ClassInfo(SourceModule module, Stmt.ClassDef def) {
        this.module = module;
        this.def = def;
        for (Stmt s : def.body()) {
            if (s instanceof Stmt.FunctionDef f) methods.put(f.name(), f);
        }
    }

    public SourceModule module() { return module; }
    public Stmt.ClassDef def() { return def; }
    public String name() { return def.name(); }
    public boolean isModule() { return isModule; }
    public List<ClassInfo> bases() { return bases; }

    /** The method of that name on this class or, by the MRO's depth-first approximation, a base. */
    public FunctionRef method(String name) {
        return method(name, 0);
    }

    private FunctionRef method(String name, int depth) {
        Stmt.FunctionDef f = methods.get(name);
        if (f != null) return new FunctionRef(module, f, this);
        if (depth > 20) return null;
        for (ClassInfo b : bases) {
            FunctionRef r = b.method(name, depth + 1);
            if (r != null) return r;
        }
        return null;
    }

    /** The method of that name on a base class (for {@code super().name(...)}). */
    public FunctionRef superMethod(String name) {
        for (ClassInfo b : bases) {
            FunctionRef r = b.method(name);
            if (r != null) return r;
        }
        return null;
    }

    public Map<String, Stmt.FunctionDef> ownMethods() { return methods; }

    @Override public String toString() {
        return module.moduleName() + "." + name();
    }
}
