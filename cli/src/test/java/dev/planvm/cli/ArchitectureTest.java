package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layout holds: no cycle between packages of planvm's main sources, and no module imports
 * another module's {@code .internal} packages. A hand-written scan of the {@code import}
 * statements of every module's {@code src/main/java} (the repository is the parent of this
 * module's directory).
 *
 * <p>It also counts the public API: the public top-level types outside {@code .internal} packages of each
 * module's main sources (the benches excluded), printed on every run and held at the figures of
 * docs/architecture.md ("What is public"), and checks that no public or protected member of those types names a
 * type of an {@code .internal} package (for the modules on this module's test class path): what an embedder can
 * reach never leads into the internals.
 */
class ArchitectureTest {

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^public\\s+(?:(?:final|abstract|sealed|non-sealed|strictfp)\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)",
            Pattern.MULTILINE);
    private static final Pattern IMPORT =
            Pattern.compile("^import\\s+(?:static\\s+)?(dev\\.planvm\\.[\\w.]+)\\.[\\w*]+;", Pattern.MULTILINE);

    /** The public top-level types outside {@code .internal}, as docs/architecture.md counts them. */
    private static final int PUBLIC_TYPES = 262;

    /** Package → the planvm packages it imports. */
    private static final Map<String, Set<String>> imports = new TreeMap<>();
    /** Package → the module (top-level directory) it lives in. */
    private static final Map<String, String> moduleOf = new HashMap<>();
    /** Module → its public top-level types outside {@code .internal} packages (qualified names). */
    private static final Map<String, Set<String>> publicTypes = new TreeMap<>();
    /** "file imports package" lines that cross into another module's internals. */
    private static final List<String> internalImports = new ArrayList<>();

    @BeforeAll
    static void scan() throws IOException {
        Path repository = Path.of("").toAbsolutePath().getParent();
        List<Path> sources;
        try (Stream<Path> files = Files.walk(repository, 24)) {
            sources = files.filter(
                            p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .toList();
        }
        for (Path source : sources) {
            String module = repository.relativize(source).getName(0).toString();
            String text = Files.readString(source);
            Matcher pkg = PACKAGE.matcher(text);
            if (!pkg.find()) {
                continue;
            }
            String from = pkg.group(1);
            moduleOf.put(from, module);
            if (!from.contains(".internal") && !module.equals("bench")) {
                Matcher type = PUBLIC_TYPE.matcher(text);
                while (type.find()) {
                    publicTypes.computeIfAbsent(module, m -> new TreeSet<>()).add(from + "." + type.group(1));
                }
            }
            Set<String> targets = imports.computeIfAbsent(from, p -> new TreeSet<>());
            Matcher imported = IMPORT.matcher(text);
            while (imported.find()) {
                String to = ownerPackage(imported.group(1));
                if (!to.equals(from)) {
                    targets.add(to);
                }
            }
        }
        imports.forEach((from, targets) -> targets.forEach(to -> {
            if (to.contains(".internal")
                    && moduleOf.containsKey(to)
                    && !moduleOf.get(to).equals(moduleOf.get(from))) {
                internalImports.add(
                        from + " (" + moduleOf.get(from) + ") imports " + to + " (" + moduleOf.get(to) + ")");
            }
        }));
    }

    /** {@code dev.planvm.vm.PlanVmBuilder} imported as a nested type: its package is the part before the first capital. */
    private static String ownerPackage(String qualifier) {
        StringBuilder pkg = new StringBuilder();
        for (String part : qualifier.split("\\.")) {
            if (Character.isUpperCase(part.charAt(0))) {
                break;
            }
            pkg.append(pkg.length() == 0 ? "" : ".").append(part);
        }
        return pkg.toString();
    }

    @Test
    void the_scan_sees_every_module() {
        assertThat(Set.copyOf(moduleOf.values())).contains("json", "instructions", "tools", "llm", "vm", "cli");
        assertThat(imports.get("dev.planvm.vm")).contains("dev.planvm.vm.internal", "dev.planvm.tools.chain");
        assertThat(imports)
                .containsKeys(
                        "dev.planvm.vm.internal.handlers",
                        "dev.planvm.tools.chain.internal",
                        "dev.planvm.instructions.expr");
    }

    @Test
    void no_module_imports_another_modules_internal_packages() {
        assertThat(internalImports).isEmpty();
    }

    /**
     * The public API does not grow unnoticed: a new public type outside {@code .internal} fails here until it
     * is either moved into an {@code .internal} package (or made package-private), or counted below and in
     * docs/architecture.md. Fewer is always fine: lower the figure then.
     */
    @Test
    void the_public_types_outside_internal_packages_are_the_counted_ones() {
        Map<String, Integer> counted = new TreeMap<>();
        publicTypes.forEach((module, types) -> counted.put(module, types.size()));
        int total = counted.values().stream().mapToInt(Integer::intValue).sum();
        System.out.println("public top-level types outside .internal (main sources): " + total + " " + counted);
        assertThat(total)
                .as("public top-level types outside .internal packages, per module: %s", counted)
                .isLessThanOrEqualTo(PUBLIC_TYPES);
    }

    @Test
    void no_public_signature_outside_internal_packages_names_an_internal_type() {
        List<String> leaks = new ArrayList<>();
        int checked = 0;
        for (Set<String> types : publicTypes.values()) {
            for (String name : types) {
                Class<?> type = loaded(name);
                if (type != null) {
                    checked++;
                    leaks(type, leaks);
                }
            }
        }
        assertThat(checked).as("public types loaded from the class path").isGreaterThan(150);
        assertThat(leaks).isEmpty();
    }

    /** The class of {@code name}, or {@code null} when its module is not on this test class path. */
    private static Class<?> loaded(String name) {
        try {
            return Class.forName(name, false, ArchitectureTest.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** Adds "type.member names internal type" for each public or protected member of {@code type} that does. */
    private static void leaks(Class<?> type, List<String> leaks) {
        if (!Modifier.isPublic(type.getModifiers())) {
            return;
        }
        String owner = type.getName();
        check(owner + " extends", type.getGenericSuperclass(), leaks);
        for (Type implemented : type.getGenericInterfaces()) {
            check(owner + " implements", implemented, leaks);
        }
        for (Constructor<?> constructor : type.getDeclaredConstructors()) {
            if (visible(constructor.getModifiers())) {
                String where = owner + ".<init>";
                for (Type parameter : constructor.getGenericParameterTypes()) {
                    check(where, parameter, leaks);
                }
                for (Type thrown : constructor.getGenericExceptionTypes()) {
                    check(where, thrown, leaks);
                }
            }
        }
        for (Method method : type.getDeclaredMethods()) {
            if (visible(method.getModifiers()) && !method.isSynthetic() && !method.isBridge()) {
                String where = owner + "." + method.getName();
                check(where, method.getGenericReturnType(), leaks);
                for (Type parameter : method.getGenericParameterTypes()) {
                    check(where, parameter, leaks);
                }
                for (Type thrown : method.getGenericExceptionTypes()) {
                    check(where, thrown, leaks);
                }
            }
        }
        for (Field field : type.getDeclaredFields()) {
            if (visible(field.getModifiers()) && !field.isSynthetic()) {
                check(owner + "." + field.getName(), field.getGenericType(), leaks);
            }
        }
        for (Class<?> nested : type.getDeclaredClasses()) {
            leaks(nested, leaks);
        }
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static void check(String where, Type type, List<String> leaks) {
        Set<Class<?>> named = new HashSet<>();
        collect(type, named, new HashSet<>());
        for (Class<?> c : named) {
            if (c.getName().startsWith("dev.planvm.") && c.getPackageName().contains(".internal")) {
                leaks.add(where + " names " + c.getName());
            }
        }
    }

    /** The classes {@code type} names: itself, its type arguments, bounds and array components. */
    private static void collect(Type type, Set<Class<?>> named, Set<Type> seen) {
        if (type == null || !seen.add(type)) {
            return;
        }
        if (type instanceof Class<?> c) {
            named.add(c.isArray() ? c.getComponentType() : c);
            if (c.isArray()) {
                collect(c.getComponentType(), named, seen);
            }
        } else if (type instanceof ParameterizedType p) {
            collect(p.getRawType(), named, seen);
            collect(p.getOwnerType(), named, seen);
            for (Type argument : p.getActualTypeArguments()) {
                collect(argument, named, seen);
            }
        } else if (type instanceof WildcardType w) {
            for (Type bound : w.getUpperBounds()) {
                collect(bound, named, seen);
            }
            for (Type bound : w.getLowerBounds()) {
                collect(bound, named, seen);
            }
        } else if (type instanceof TypeVariable<?> v) {
            for (Type bound : v.getBounds()) {
                collect(bound, named, seen);
            }
        } else if (type instanceof GenericArrayType a) {
            collect(a.getGenericComponentType(), named, seen);
        }
    }

    @Test
    void there_is_no_cycle_between_packages() {
        assertThat(cycles()).isEmpty();
    }

    /** The strongly connected components of more than one package (Tarjan), each as a sorted list. */
    private static List<List<String>> cycles() {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<List<String>> found = new ArrayList<>();
        int[] counter = {0};
        for (String pkg : imports.keySet()) {
            if (!index.containsKey(pkg)) {
                connect(pkg, index, low, stack, onStack, found, counter);
            }
        }
        return found;
    }

    private static void connect(
            String v,
            Map<String, Integer> index,
            Map<String, Integer> low,
            Deque<String> stack,
            Set<String> onStack,
            List<List<String>> found,
            int[] counter) {
        index.put(v, counter[0]);
        low.put(v, counter[0]++);
        stack.push(v);
        onStack.add(v);
        for (String w : imports.getOrDefault(v, Set.of())) {
            if (!imports.containsKey(w)) {
                continue; // a package of test sources or another tree
            }
            if (!index.containsKey(w)) {
                connect(w, index, low, stack, onStack, found, counter);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                component.sort(null);
                found.add(component);
            }
        }
    }
}
