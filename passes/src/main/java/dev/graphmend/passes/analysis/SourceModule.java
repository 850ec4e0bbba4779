package dev.graphmend.passes.analysis;

import dev.graphmend.ir.ast.Stmt;
import dev.graphmend.ir.document.UniIR;
import dev.graphmend.ir.symbols.QualifiedNames;
import dev.graphmend.ir.symbols.SymbolTable;
import java.util.ArrayList;
import java.util.List;

/**
 * One Python file of the analysed project: its path as shown to the user, its dotted module
 * name within the workspace, its UniIR, name resolver and suppression comments.
 */
public final class SourceModule {
    private final String path;
    private final String moduleName;
    private final boolean isPackage;
    private final UniIR ir;
    private final QualifiedNames names;
    private volatile Suppressions suppressions;

    public SourceModule(String path, String moduleName, boolean isPackage, UniIR ir) {
        this.path = path;
        this.moduleName = moduleName;
        this.isPackage = isPackage;
        this.ir = ir;
        this.names = QualifiedNames.of(ir.symbols(), moduleName, isPackage);
    }

    public String path() { return path; }
    public String moduleName() { return moduleName; }
    public boolean isPackage() { return isPackage; }
    public UniIR ir() { return ir; }
    public SymbolTable symbols() { return ir.symbols(); }
    public QualifiedNames names() { return names; }

    public Suppressions suppressions() {
        Suppressions s = suppressions;
        if (s == null) suppressions = s = Suppressions.scan(ir.lines());
        return s;
    }

    private volatile java.util.Set<String> declaredGlobal;

    /** Names some function of this module declares {@code global}: it may rebind them, so their module-level value is not a constant. */
    public java.util.Set<String> declaredGlobal() {
        java.util.Set<String> g = declaredGlobal;
        if (g == null) {
            java.util.Set<String> out = new java.util.HashSet<>();
            Statements.everywhere(ir.module(), s -> {
                if (s instanceof Stmt.Global gl) out.addAll(gl.names());
            });
            declaredGlobal = g = out;
        }
        return g;
    }

    private volatile List<Stmt.ClassDef> classes;

    /** Top-level classes, and classes nested in classes (not those inside functions). */
    public List<Stmt.ClassDef> classes() {
        List<Stmt.ClassDef> c = classes;
        if (c == null) {
            List<Stmt.ClassDef> out = new ArrayList<>();
            collectClasses(ir.module().body(), out);
            classes = c = List.copyOf(out);
        }
        return c;
    }

    private static void collectClasses(List<Stmt> body, List<Stmt.ClassDef> out) {
        for (Stmt s : body) {
            if (s instanceof Stmt.ClassDef c) {
                out.add(c);
                collectClasses(c.body(), out);
            } else if (s instanceof Stmt.If i) { // `if TYPE_CHECKING:` / version switches
                collectClasses(i.body(), out);
                collectClasses(i.orelse(), out);
            }
        }
    }

    @Override
    public String toString() {
        return path;
    }
}
