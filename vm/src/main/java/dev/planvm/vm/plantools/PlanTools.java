package dev.planvm.vm.plantools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanSignature;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Plan tools: plans that name themselves ({@link PlanSignature}), loaded from directories and checked
 * as a whole before a VM offers them. A plan tool that calls itself, directly or through other plan
 * tools, cannot be used, and neither can a chain of plan tools calling plan tools deeper than the VM allows
 * ({@code maxPlanDepth}, default {@value #DEFAULT_MAX_DEPTH}): with tool names fixed in the plans, that
 * bounds the depth of child runs before anything runs.
 *
 * <p>One plan tool that cannot be used (its file does not load, it reaches itself, its name is taken twice)
 * takes nothing else down: the others are offered, and only a plan that can reach it — it calls it, or calls a
 * plan tool that does — is refused, before it runs, with the reason ({@link Checked#unusable()}, which
 * {@code planvm tools} lists too).
 */
public final class PlanTools {

    /** How deep plan tools may call plan tools, unless configured otherwise (the caller is depth 0). */
    public static final int DEFAULT_MAX_DEPTH = 8;

    private PlanTools() {}

    /**
     * The plan files of some directories: the plans that load and name themselves; why each file that cannot be a
     * plan tool cannot, by the name it gives itself when that can be read (a call of that name is then refused
     * with the reason); and the problems of the files whose name cannot be read, each naming its file.
     */
    public record Read(List<Plan> plans, Map<String, String> unusable, List<String> unnamed) {
        public Read {
            plans = List.copyOf(plans);
            unusable = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(unusable));
            unnamed = List.copyOf(unnamed);
        }
    }

    /**
     * Plan tools checked as a whole: the plans a VM offers as tools, why each other one cannot be used (by tool
     * name), and the problems of the plan-tool files whose name cannot be read (each naming its file).
     */
    public record Checked(List<Plan> usable, Map<String, String> unusable, List<String> unnamed) {
        public Checked {
            usable = List.copyOf(usable);
            unusable = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(unusable));
            unnamed = List.copyOf(unnamed);
        }
    }

    /** A plain StackVM JSON plan file ({@code *.json} but cassettes and expectations). */
    public static boolean isJsonPlanFile(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".json") && !name.endsWith(".cassette.json") && !name.endsWith(".expected.json");
    }

    /**
     * Every plan file of {@code dirs} (not recursive) that {@code isPlan} accepts, loaded by {@code load}.
     *
     * @throws PlanToolsException listing every file that does not load, or loads without a name
     */
    public static List<Plan> load(List<Path> dirs, Predicate<Path> isPlan, Function<Path, LoadResult> load) {
        Read read = read(dirs, isPlan, load);
        if (!read.unusable().isEmpty() || !read.unnamed().isEmpty()) {
            List<String> problems = new ArrayList<>(read.unusable().values());
            problems.addAll(read.unnamed());
            throw new PlanToolsException(problems);
        }
        return read.plans();
    }

    /**
     * Every plan file of {@code dirs} (not recursive) that {@code isPlan} accepts, loaded by {@code load}; a file
     * that does not load, or loads without a name, is one entry of {@link Read#unusable()}.
     *
     * @throws PlanToolsException when one of {@code dirs} is not a directory (a configuration to fix, not a tool)
     */
    public static Read read(List<Path> dirs, Predicate<Path> isPlan, Function<Path, LoadResult> load) {
        List<String> missing = new ArrayList<>();
        List<Plan> plans = new ArrayList<>();
        Map<String, String> unusable = new LinkedHashMap<>();
        List<String> unnamed = new ArrayList<>();
        for (Path dir : dirs) {
            if (!Files.isDirectory(dir)) {
                missing.add(dir + ": not a directory of plan tools");
                continue;
            }
            List<Path> files;
            try (Stream<Path> listed = Files.list(dir)) {
                files = listed.filter(f -> Files.isRegularFile(f) && isPlan.test(f))
                        .sorted()
                        .toList();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
            }
            for (Path file : files) {
                LoadResult loaded = load.apply(file);
                if (loaded.plan() == null) {
                    List<String> errors = new ArrayList<>();
                    for (Diagnostic error : loaded.errors()) {
                        errors.add(error.format(file.toString()));
                    }
                    String name = nameIn(file);
                    if (name == null) {
                        unnamed.add(String.join("; ", errors));
                    } else {
                        unusable.merge(name, String.join("; ", errors), (a, b) -> a + "; " + b);
                    }
                } else if (loaded.plan().signature().map(PlanSignature::name).isEmpty()) {
                    unnamed.add(
                            file + ": a plan tool names itself: {\"name\": ..., \"inputs\": {...}, \"plan\": [...]}");
                } else {
                    plans.add(loaded.plan());
                }
            }
        }
        if (!missing.isEmpty()) {
            throw new PlanToolsException(missing);
        }
        return new Read(plans, unusable, unnamed);
    }

    /** The {@code name} a JSON plan-tool file gives itself, when it can be read although the plan does not load. */
    private static String nameIn(Path file) {
        if (!file.getFileName().toString().endsWith(".json")) {
            return null;
        }
        try {
            if (Files.size(file) > JsonLimits.PLAN.maxDocumentLength()) {
                return null;
            }
            JsonNode document = JsonMappers.mapper(JsonLimits.PLAN).readTree(file.toFile());
            JsonNode name = document == null ? null : document.get("name");
            return name != null && name.isTextual() && PlanSignature.isName(name.asText()) ? name.asText() : null;
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
    }

    /**
     * Checks the plans {@code read} found and {@code more} (given one by one) as a whole, with the files it could
     * not use: a plan tool is usable when its
     * name is its own (no other tool, no other plan tool has it), it does not reach itself, its chain of plan-tool
     * calls is at most {@code maxDepth} deep, and it calls no plan tool that cannot be used.
     */
    public static Checked check(Read read, List<Plan> more, Set<String> otherTools, int maxDepth) {
        Map<String, String> unusable = new LinkedHashMap<>(read.unusable());
        List<String> unnamed = new ArrayList<>(read.unnamed());
        Map<String, Plan> byName = new LinkedHashMap<>();
        List<Plan> plans = new ArrayList<>(more);
        plans.addAll(read.plans());
        for (Plan plan : plans) {
            String name = plan.signature().map(PlanSignature::name).orElse(null);
            if (name == null) {
                unnamed.add(plan.source() + ": a plan tool names itself (\"name\")");
            } else if (otherTools.contains(name)) {
                unusable.put(
                        name,
                        plan.source() + ": plan tool '" + name + "' has the name of another tool, so a call of '" + name
                                + "' cannot tell them apart");
            } else if (unusable.containsKey(name) && !byName.containsKey(name)) {
                unusable.put(
                        name,
                        plan.source() + ": plan tool '" + name + "' has the name of another plan-tool"
                                + " file that does not load (" + unusable.get(name) + ")");
            } else if (byName.containsKey(name)) {
                unusable.put(
                        name,
                        "two plan tools are named '" + name + "': "
                                + byName.get(name).source() + " and " + plan.source());
            } else {
                byName.put(name, plan);
            }
        }
        byName.keySet().removeIf(unusable::containsKey);
        Map<String, List<String>> chains = new LinkedHashMap<>();
        for (String name : byName.keySet()) {
            deepest(name, byName, unusable, chains, new ArrayList<>(), maxDepth);
        }
        List<Plan> usable = new ArrayList<>();
        byName.forEach((name, plan) -> {
            if (!unusable.containsKey(name)) {
                usable.add(plan);
            }
        });
        return new Checked(usable, unusable, unnamed);
    }

    /** The plan tools of {@code checked} for {@code vm}: the usable ones. */
    public static List<PlanTool> of(Checked checked, ChildRuns vm) {
        List<PlanTool> tools = new ArrayList<>();
        checked.usable().forEach(plan -> tools.add(new PlanTool(plan, vm)));
        return tools;
    }

    /**
     * The longest chain of plan-tool calls from {@code name} (memoised in {@code chains}), or {@code null} when
     * {@code name} cannot be used; then {@code unusable} says why: it reaches itself (every tool of the cycle is
     * marked), its chain is deeper than {@code maxDepth}, or it calls a plan tool that cannot be used.
     */
    private static List<String> deepest(
            String name,
            Map<String, Plan> byName,
            Map<String, String> unusable,
            Map<String, List<String>> chains,
            List<String> path,
            int maxDepth) {
        if (unusable.containsKey(name)) {
            return null;
        }
        if (chains.containsKey(name)) {
            return chains.get(name);
        }
        if (path.contains(name)) {
            List<String> cycle = new ArrayList<>(path.subList(path.indexOf(name), path.size()));
            cycle.add(name);
            for (int i = 0; i < cycle.size() - 1; i++) { // each tool of the cycle reaches itself
                List<String> turn = new ArrayList<>(cycle.subList(i, cycle.size() - 1));
                turn.addAll(cycle.subList(0, i + 1));
                unusable.putIfAbsent(
                        turn.get(0),
                        "it calls itself" + (turn.size() == 2 ? "" : " through " + String.join(" → ", turn))
                                + ": a plan tool may not reach itself");
            }
            return null;
        }
        path.add(name);
        List<String> longest = List.of(name);
        for (String callee : callees(byName.get(name), byName, unusable)) {
            List<String> below = deepest(callee, byName, unusable, chains, path, maxDepth);
            if (below == null) {
                path.remove(path.size() - 1);
                unusable.putIfAbsent(
                        name, "it calls plan tool '" + callee + "', which cannot be used: " + unusable.get(callee));
                return null;
            }
            if (below.size() + 1 > longest.size()) {
                List<String> chain = new ArrayList<>();
                chain.add(name);
                chain.addAll(below);
                longest = chain;
            }
        }
        path.remove(path.size() - 1);
        if (unusable.containsKey(name)) { // on a cycle found below
            return null;
        }
        if (longest.size() - 1 > maxDepth) {
            unusable.put(
                    name,
                    "it calls plan tools " + (longest.size() - 1) + " deep (" + String.join(" → ", longest)
                            + "); the limit is " + maxDepth + " (--max-plan-depth)");
            return null;
        }
        chains.put(name, longest);
        return longest;
    }

    /** The plan tools (usable or not) {@code plan} calls, each once, in order. */
    private static List<String> callees(Plan plan, Map<String, Plan> byName, Map<String, String> unusable) {
        List<String> callees = new ArrayList<>();
        for (Instruction instruction : plan.instructions()) {
            if (instruction instanceof Calling calling
                    && (byName.containsKey(calling.tool()) || unusable.containsKey(calling.tool()))
                    && !callees.contains(calling.tool())) {
                callees.add(calling.tool());
            }
        }
        return callees;
    }
}
