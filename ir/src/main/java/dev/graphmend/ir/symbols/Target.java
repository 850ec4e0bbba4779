package dev.graphmend.ir.symbols;

import dev.graphmend.ir.ast.Stmt;

/** What an expression such as {@code th.nn.functional.relu}, {@code w} or {@code self.proj} names; see {@link QualifiedNames}. */
public sealed interface Target {

    /** The absolute dotted name, when the target has one ({@code torch.where}, {@code pkg.mod.f}, {@code builtins.len}); else null. */
    String qualifiedName();

    /**
     * A module, or a member of one, reached through an import: {@code torch.nn.functional.relu}.
     * Whether it is a module, a function or a class attribute is not known from this file.
     */
    record Imported(String qualifiedName) implements Target {}

    /**
     * A module-level name of the module itself, or an attribute path below one
     * ({@code helper}, {@code Config.DEFAULT}).
     *
     * @param module the module's dotted name ("" for a script)
     * @param path the name and attributes below it, dotted
     * @param symbol the module-level symbol of the first name
     */
    record ModuleMember(String module, String path, Symbol symbol) implements Target {
        @Override public String qualifiedName() {
            return module.isEmpty() ? path : module + "." + path;
        }
    }

    /**
     * An attribute of a class defined in this module, reached through {@code self} or
     * {@code cls} in one of its methods, or through the class's name: attribute {@code proj}
     * of class {@code Model}. The attribute may be set anywhere (in {@code __init__}, the class
     * body, a base class); this says which name on which class, not where it is assigned.
     */
    record ClassAttribute(Stmt.ClassDef classDef, Scope classScope, String attribute, String module) implements Target {
        public String className() { return classDef.name(); }

        /** {@code module.Class.attribute} for a module-level class; null for a class nested in a function. */
        @Override public String qualifiedName() {
            String path = classPath(classScope);
            if (path == null) return null;
            return (module.isEmpty() ? "" : module + ".") + path + "." + attribute;
        }

        private static String classPath(Scope s) {
            StringBuilder sb = new StringBuilder(s.name());
            for (Scope p = s.parent(); p != null && p.kind() != ScopeKind.MODULE; p = p.parent()) {
                if (p.kind() == ScopeKind.TYPE_PARAMETERS) continue;
                if (p.kind() != ScopeKind.CLASS) return null;
                sb.insert(0, p.name() + ".");
            }
            return sb.toString();
        }
    }

    /**
     * A builtin ({@code len}, {@code print}), or an attribute path below one ({@code str.join}):
     * a name of CPython 3.13's {@code builtins} that the module binds nowhere (a star import
     * could still shadow it; we assume it does not).
     */
    record Builtin(String name) implements Target {
        @Override public String qualifiedName() { return "builtins." + name; }
    }

    /** A local variable, parameter or closure variable of a function: its value is not known statically. */
    record Local(Symbol symbol) implements Target {
        @Override public String qualifiedName() { return null; }
    }

    /** Nothing we can name: a call result, a subscript, a rebound import, a name a star import may bring. */
    record Unknown(String reason) implements Target {
        @Override public String qualifiedName() { return null; }
    }
}
