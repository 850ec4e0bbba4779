package dev.graphmend.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine's shape (docs/architecture.md, "Invariants"): the packages of passes depend on each
 * other without a cycle, the engine holds no global mutable state (two analyses running side by
 * side, as the server's do, cannot see each other), and calls are resolved in one place.
 */
class EngineShapeTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final Path CLASSES = Path.of("target/classes");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    /** An import or a qualified use of a passes class: the package is what precedes the first capitalised name. */
    private static final Pattern REFERENCE = Pattern.compile("\\b(dev\\.graphmend\\.passes(?:\\.[a-z]\\w*)*)\\.[A-Z]");

    @Test
    void thePackagesOfPassesHaveNoImportCycle() throws IOException {
        Map<String, Map<String, String>> edges = new TreeMap<>(); // package -> (package it uses -> a file that does)
        List<Path> files;
        try (Stream<Path> s = Files.walk(SOURCES.resolve("dev/graphmend/passes"))) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertTrue(files.size() > 20, "found only " + files.size() + " source files under " + SOURCES.toAbsolutePath());
        for (Path f : files) {
            String text = Files.readString(f);
            Matcher pm = PACKAGE.matcher(text);
            assertTrue(pm.find(), "no package declaration in " + f);
            String pkg = pm.group(1);
            Map<String, String> out = edges.computeIfAbsent(pkg, k -> new TreeMap<>());
            Matcher m = REFERENCE.matcher(text.substring(pm.end()));
            while (m.find()) {
                if (!m.group(1).equals(pkg)) out.putIfAbsent(m.group(1), SOURCES.relativize(f).toString());
            }
        }
        assertTrue(edges.size() >= 5, "expected the engine's packages, found " + edges.keySet());
        List<String> cycle = findCycle(edges);
        assertTrue(cycle.isEmpty(), () -> {
            StringBuilder b = new StringBuilder("import cycle between the packages of passes:");
            for (int i = 0; i + 1 < cycle.size(); i++) {
                b.append("\n  ").append(cycle.get(i)).append(" -> ").append(cycle.get(i + 1)).append(" (")
                        .append(edges.get(cycle.get(i)).get(cycle.get(i + 1))).append(")");
            }
            return b.toString();
        });
    }

    /** A cycle as [a, b, …, a], or empty. */
    static List<String> findCycle(Map<String, Map<String, String>> edges) {
        Map<String, Integer> state = new TreeMap<>(); // 1 on the path, 2 done
        List<String> path = new ArrayList<>();
        for (String start : edges.keySet()) {
            List<String> c = visit(start, edges, state, path);
            if (!c.isEmpty()) return c;
        }
        return List.of();
    }

    private static List<String> visit(String n, Map<String, Map<String, String>> edges, Map<String, Integer> state, List<String> path) {
        Integer st = state.get(n);
        if (st != null && st == 2) return List.of();
        if (st != null && st == 1) {
            List<String> c = new ArrayList<>(path.subList(path.indexOf(n), path.size()));
            c.add(n);
            return c;
        }
        state.put(n, 1);
        path.add(n);
        for (String m : edges.getOrDefault(n, Map.of()).keySet()) {
            List<String> c = visit(m, edges, state, path);
            if (!c.isEmpty()) return c;
        }
        path.remove(path.size() - 1);
        state.put(n, 2);
        return List.of();
    }

    @Test
    void theCycleFinderFindsACycle() {
        Map<String, Map<String, String>> edges = new TreeMap<>();
        edges.put("a", Map.of("b", "A.java"));
        edges.put("b", Map.of("c", "B.java"));
        edges.put("c", Map.of("a", "C.java"));
        assertEquals(List.of("a", "b", "c", "a"), findCycle(edges));
        edges.put("c", Map.of());
        assertEquals(List.of(), findCycle(edges));
    }

    /**
     * One semantic model: which project function a call runs is decided by {@code CallResolver}
     * alone (region discovery, the rules and the interpreter all ask it through the function's
     * context). {@code CompileRegions} resolves what is not a call: the target handed to
     * {@code torch.compile} and a decorator's wrapper.
     */
    @Test
    void callsAreResolvedInOnePlace() throws IOException {
        Map<String, Integer> users = new TreeMap<>();
        try (Stream<Path> s = Files.walk(SOURCES.resolve("dev/graphmend/passes"))) {
            for (Path f : s.filter(p -> p.toString().endsWith(".java")).toList()) {
                String name = f.getFileName().toString();
                if (name.equals("Project.java")) continue; // where resolveFunction is defined
                int n = Files.readString(f).split("\\.resolveFunction\\(", -1).length - 1;
                if (n > 0) users.put(name, n);
            }
        }
        assertTrue(users.containsKey("CallResolver.java"), "CallResolver no longer resolves calls: " + users);
        users.remove("CallResolver.java");
        users.remove("CompileRegions.java");
        assertTrue(users.isEmpty(), "project functions resolved outside CallResolver: " + users);
    }

    @Test
    void theEngineHoldsNoGlobalMutableState() throws Exception {
        List<String> names;
        try (Stream<Path> s = Files.walk(CLASSES.resolve("dev/graphmend/passes"))) {
            names = s.filter(p -> p.toString().endsWith(".class")).map(p -> {
                String rel = CLASSES.relativize(p).toString();
                return rel.substring(0, rel.length() - ".class".length()).replace('/', '.');
            }).sorted().toList();
        }
        assertTrue(names.size() > 50, "found only " + names.size() + " classes under " + CLASSES.toAbsolutePath());
        TreeSet<String> problems = new TreeSet<>();
        for (String name : names) {
            Class<?> c = Class.forName(name, true, getClass().getClassLoader());
            for (Field f : c.getDeclaredFields()) {
                int mod = f.getModifiers();
                if (!Modifier.isStatic(mod) || f.isSynthetic() || f.isEnumConstant()) continue;
                String where = name + "." + f.getName();
                if (!Modifier.isFinal(mod)) {
                    problems.add(where + ": a static field that is not final");
                    continue;
                }
                if (f.getType().isArray()) {
                    problems.add(where + ": a static array (its elements can be changed)");
                    continue;
                }
                f.setAccessible(true);
                Object v = f.get(null);
                if ((v instanceof Collection || v instanceof Map) && !unmodifiable(v)) {
                    problems.add(where + ": a static " + v.getClass().getName() + " (mutable)");
                } else if (v instanceof StringBuilder || v != null && v.getClass().getName().startsWith("java.util.concurrent.atomic.")) {
                    problems.add(where + ": a static " + v.getClass().getName() + " (mutable)");
                }
            }
        }
        assertTrue(problems.isEmpty(), "global mutable state in the engine:\n  " + String.join("\n  ", problems));
    }

    private static boolean unmodifiable(Object v) {
        String n = v.getClass().getName();
        return n.startsWith("java.util.ImmutableCollections$") || n.startsWith("java.util.Collections$Unmodifiable")
                || n.startsWith("java.util.Collections$Empty") || n.startsWith("java.util.Collections$Singleton");
    }
}
