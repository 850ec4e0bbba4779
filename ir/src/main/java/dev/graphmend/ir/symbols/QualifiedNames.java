package dev.graphmend.ir.symbols;

import dev.graphmend.ir.ast.Alias;
import dev.graphmend.ir.ast.Arg;
import dev.graphmend.ir.ast.Arguments;
import dev.graphmend.ir.ast.Node;
import dev.graphmend.ir.ast.Expr;
import dev.graphmend.ir.ast.Stmt;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Maps an expression to the {@link Target} it names, through the module's imports and scopes.
 *
 * <pre>{@code
 * import torch as th                  th.nn.functional.relu  -> Imported torch.nn.functional.relu
 * import torch.nn.functional as F     F.relu                 -> Imported torch.nn.functional.relu
 * from torch import nn, where as w    w                      -> Imported torch.where
 * class Model(nn.Module):             nn.Module              -> Imported torch.nn.Module
 *     def forward(self, x):
 *         return self.proj(x)         self.proj              -> ClassAttribute proj of Model
 * def helper(): ...                   helper                 -> ModuleMember mod.helper
 * }</pre>
 *
 * <p>A name is followed to the variable it denotes (so a local import, a closure over an
 * imported name, or {@code self} used in a nested function all resolve), and it names an import
 * only when every binding of that variable is an import of the same thing; a name an import
 * binds and something else rebinds ({@code try: import numpy as np / except: np = None}) is
 * {@link Target.Unknown}. Immutable and thread-safe.
 */
public final class QualifiedNames {
    /** The names of {@code builtins} in CPython 3.13 (without the module's own dunders). */
    static final Set<String> BUILTINS = Set.of((
            "ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError "
            + "BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError "
            + "ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError Ellipsis EncodingWarning "
            + "EnvironmentError Exception ExceptionGroup False FileExistsError FileNotFoundError FloatingPointError "
            + "FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError IndexError "
            + "InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError "
            + "ModuleNotFoundError NameError None NotADirectoryError NotImplemented NotImplementedError OSError "
            + "OverflowError PendingDeprecationWarning PermissionError ProcessLookupError PythonFinalizationError "
            + "RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration "
            + "StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError True TypeError "
            + "UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError "
            + "UnicodeWarning UserWarning ValueError Warning ZeroDivisionError __build_class__ __debug__ __import__ "
            + "abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile "
            + "complex copyright credits delattr dict dir divmod enumerate eval exec exit filter float format "
            + "frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len license "
            + "list locals map max memoryview min next object oct open ord pow print property quit range repr "
            + "reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip").split(" "));

    /** Names every module has without binding them. */
    static final Set<String> MODULE_DUNDERS = Set.of("__name__", "__file__", "__doc__", "__spec__", "__loader__",
            "__package__", "__builtins__", "__path__", "__cached__", "__annotations__", "__dict__");

    private final SymbolTable table;
    private final Imports imports;
    /**
     * Per variable: the import all its bindings agree on ({@link Target.Imported}), {@link #REBOUND}
     * when an import binds it among other bindings, or {@link #NOT_IMPORTED}. Gathering a
     * variable's bindings from every scope that refers to it costs as much as the scopes are many,
     * and every resolution of a module-level name asked again.
     */
    private final Map<Symbol, Target> importTargets = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Target REBOUND = new Target.Unknown("rebound import");
    private static final Target NOT_IMPORTED = new Target.Unknown("not imported");

    public QualifiedNames(SymbolTable table, Imports imports) {
        this.table = table;
        this.imports = imports;
    }

    /** The resolver of a module with the given dotted name (see {@link Imports#of}). */
    public static QualifiedNames of(SymbolTable table, String moduleName, boolean isPackage) {
        return new QualifiedNames(table, Imports.of(table, moduleName, isPackage));
    }

    public SymbolTable table() { return table; }

    public Imports imports() { return imports; }

    /** The target's qualified name, or null when it has none. */
    public String qualifiedName(Expr e) {
        return resolve(e).qualifiedName();
    }

    /** What an expression of this module's tree names. */
    public Target resolve(Expr e) {
        if (e instanceof Expr.Name) return resolveName((Expr.Name) e);
        if (e instanceof Expr.Attribute) {
            Expr.Attribute a = (Expr.Attribute) e;
            if (a.value() instanceof Expr.Name) {
                Target self = selfAttribute((Expr.Name) a.value(), a.attr());
                if (self != null) return self;
            }
            return attribute(resolve(a.value()), a.attr());
        }
        return new Target.Unknown("a " + e.pyType() + " expression");
    }

    private Target attribute(Target base, String attr) {
        if (base instanceof Target.Imported) {
            return new Target.Imported(base.qualifiedName() + "." + attr);
        }
        if (base instanceof Target.ModuleMember) {
            Target.ModuleMember m = (Target.ModuleMember) base;
            if (m.symbol() != null && m.path().indexOf('.') < 0) {
                Stmt.ClassDef c = onlyClassDefinition(m.symbol());
                if (c != null) return new Target.ClassAttribute(c, table.scopeOpenedBy(c), attr, imports.moduleName());
            }
            return new Target.ModuleMember(m.module(), m.path() + "." + attr, m.symbol());
        }
        if (base instanceof Target.Builtin) {
            return new Target.Builtin(((Target.Builtin) base).name() + "." + attr);
        }
        if (base instanceof Target.ClassAttribute) {
            return new Target.Unknown("attribute " + attr + " of " + ((Target.ClassAttribute) base).attribute()
                    + ", whose value is not known statically");
        }
        if (base instanceof Target.Local) {
            return new Target.Unknown("attribute " + attr + " of local " + ((Target.Local) base).symbol().name());
        }
        return base;
    }

    private Target resolveName(Expr.Name n) {
        Resolution r = table.resolve(n);
        if (r == null) return new Target.Unknown("not a node of this module's tree");
        return fromResolution(r, n.id());
    }

    private Target fromResolution(Resolution r, String id) {
        switch (r.kind()) {
            case BUILTIN_OR_UNBOUND:
                // A star import could shadow a builtin too; we bet it does not.
                if (MODULE_DUNDERS.contains(id)) return new Target.ModuleMember(imports.moduleName(), id, null);
                if (BUILTINS.contains(id)) return new Target.Builtin(id);
                if (r.mayComeFromStarImport()) return new Target.Unknown(id + " may come from a star import");
                return new Target.Unknown(id + " is bound nowhere");
            case CLASS_CELL:
                return new Target.Unknown(id + " is the implicit class cell");
            case CLASS_NAMESPACE: {
                Scope cls = r.definingScope();
                Target imported = importTarget(r.definition());
                if (imported != null) return imported;
                return new Target.ClassAttribute((Stmt.ClassDef) cls.node(), cls, r.definition().name(), imports.moduleName());
            }
            default:
                break;
        }
        Symbol def = r.definition();
        Target imported = importTarget(def);
        if (imported != null) return imported;
        if (hasImportBinding(def)) return new Target.Unknown(def.name() + " is bound by an import and rebound");
        Scope owner = def.scope();
        if (owner.kind() == ScopeKind.MODULE) return new Target.ModuleMember(imports.moduleName(), def.name(), def);
        if (owner.kind() == ScopeKind.CLASS) {
            return new Target.ClassAttribute((Stmt.ClassDef) owner.node(), owner, def.name(), imports.moduleName());
        }
        return new Target.Local(def);
    }

    /** The import every binding of the variable agrees on, or null. */
    private Target importTarget(Symbol def) {
        Target t = importInfo(def);
        return t == REBOUND || t == NOT_IMPORTED ? null : t;
    }

    private boolean hasImportBinding(Symbol def) {
        return importInfo(def) != NOT_IMPORTED;
    }

    private Target importInfo(Symbol def) {
        Target t = importTargets.get(def);
        if (t == null) {
            Target agreed = agreedImport(def);
            t = agreed != null ? agreed : anyImportBinding(def) ? REBOUND : NOT_IMPORTED;
            importTargets.put(def, t);
        }
        return t;
    }

    private Target agreedImport(Symbol def) {
        List<Binding> bindings = table.bindingsOf(def);
        if (bindings.isEmpty()) return null;
        String q = null;
        for (Binding b : bindings) {
            if (b.kind() != Binding.Kind.IMPORT) return null;
            Imports.Import i = imports.of((Alias) b.node());
            if (i == null || i.qualifiedName() == null) return null;
            if (q != null && !q.equals(i.qualifiedName())) return null;
            q = i.qualifiedName();
        }
        return new Target.Imported(q);
    }

    private boolean anyImportBinding(Symbol def) {
        for (Binding b : table.bindingsOf(def)) if (b.kind() == Binding.Kind.IMPORT) return true;
        return false;
    }

    private Stmt.ClassDef onlyClassDefinition(Symbol s) {
        List<Binding> bs = table.bindingsOf(s);
        if (bs.size() != 1 || bs.get(0).kind() != Binding.Kind.CLASS_DEFINITION) return null;
        return (Stmt.ClassDef) bs.get(0).node();
    }

    /**
     * {@code self.attr} / {@code cls.attr}: the name is the first parameter of a method (not a
     * static method) and is never rebound.
     */
    private Target selfAttribute(Expr.Name n, String attr) {
        Resolution r = table.resolve(n);
        if (r == null || r.definition() == null) return null;
        Symbol def = r.definition();
        Scope fn = def.scope();
        if (fn.kind() != ScopeKind.FUNCTION || !def.isParameter()) return null;
        Scope cls = fn.parent();
        if (cls.kind() == ScopeKind.TYPE_PARAMETERS) cls = cls.parent();
        if (cls.kind() != ScopeKind.CLASS) return null;
        List<Binding> bindings = table.bindingsOf(def);
        if (bindings.size() != 1 || bindings.get(0).kind() != Binding.Kind.PARAMETER) return null;
        Arg first = firstParameter(fn.node());
        if (first == null || bindings.get(0).node() != first) return null;
        if (isStaticMethod(fn.node())) return null;
        return new Target.ClassAttribute((Stmt.ClassDef) cls.node(), cls, attr, imports.moduleName());
    }

    private static Arg firstParameter(Node fn) {
        Arguments args;
        if (fn instanceof Stmt.FunctionDef) args = ((Stmt.FunctionDef) fn).args();
        else if (fn instanceof Stmt.AsyncFunctionDef) args = ((Stmt.AsyncFunctionDef) fn).args();
        else return null;
        if (!args.posonlyargs().isEmpty()) return args.posonlyargs().get(0);
        if (!args.args().isEmpty()) return args.args().get(0);
        return null;
    }

    private boolean isStaticMethod(Node fn) {
        List<Expr> decorators = fn instanceof Stmt.FunctionDef ? ((Stmt.FunctionDef) fn).decoratorList()
                : ((Stmt.AsyncFunctionDef) fn).decoratorList();
        for (Expr d : decorators) {
            Target t = resolve(d);
            if ("builtins.staticmethod".equals(t.qualifiedName())) return true;
        }
        return false;
    }
}
