package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
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
 * docs/architecture.md ("What is public").
 */
class ArchitectureTest {

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^public\\s+(?:(?:final|abstract|sealed|non-sealed|strictfp)\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)",
            Pattern.MULTILINE);
    private static final Pattern IMPORT =
            Pattern.compile("^import\\s+(?:static\\s+)?(dev\\.planvm\\.[\\w.]+)\\.[\\w*]+;", Pattern.MULTILINE);

    /** The public top-level types outside {@code .internal}, as docs/architecture.md counts them. */
    private static final int PUBLIC_TYPES = 255;

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
