package dev.planvm.vm.plantools;

import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanSignature;
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
 * tools, is refused, and so is a chain of plan tools calling plan tools deeper than the VM allows
 * ({@code maxPlanDepth}, default {@value #DEFAULT_MAX_DEPTH}): with tool names fixed in the plans,
 * that bounds the depth of child runs before anything runs.
 */
public final class PlanTools {

    /** How deep plan tools may call plan tools, unless configured otherwise (the caller is depth 0). */
    public static final int DEFAULT_MAX_DEPTH = 8;

    private PlanTools() {}

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
        List<String> problems = new ArrayList<>();
        List<Plan> plans = new ArrayList<>();
        for (Path dir : dirs) {
            if (!Files.isDirectory(dir)) {
                problems.add(dir + ": not a directory of plan tools");
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
                    for (Diagnostic error : loaded.errors()) {
                        problems.add(error.format(file.toString()));
                    }
                } else if (loaded.plan().signature().map(PlanSignature::name).isEmpty()) {
                    problems.add(
                            file + ": a plan tool names itself: {\"name\": ..., \"inputs\": {...}, \"plan\": [...]}");
                } else {
                    plans.add(loaded.plan());
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new PlanToolsException(problems);
        }
        return plans;
    }

    /**
     * The plan tools of {@code plans} for {@code vm}, after checking them as a whole: unique names that
     * no other tool has, no plan tool reaching itself, no chain deeper than {@code maxDepth}.
     *
     * @throws PlanToolsException listing every problem
     */
    public static List<PlanTool> of(List<Plan> plans, Set<String> otherTools, int maxDepth, ChildRuns vm) {
        List<String> problems = new ArrayList<>();
        Map<String, Plan> byName = new LinkedHashMap<>();
        for (Plan plan : plans) {
            String name = plan.signature().map(PlanSignature::name).orElse(null);
            if (name == null) {
                problems.add(plan.source() + ": a plan tool names itself (\"name\")");
            } else if (otherTools.contains(name)) {
                problems.add(plan.source() + ": plan tool '" + name + "' has the name of another tool");
            } else if (byName.putIfAbsent(name, plan) != null) {
                problems.add(plan.source() + ": plan tool '" + name + "' is also "
                        + byName.get(name).source());
            }
        }
        for (String name : byName.keySet()) {
            List<String> chain = deepest(name, byName, new ArrayList<>(), problems);
            if (chain != null && chain.size() - 1 > maxDepth) {
                problems.add("plan tool '" + name + "' calls plan tools " + (chain.size() - 1) + " deep ("
                        + String.join(" → ", chain) + "); the limit is " + maxDepth + " (--max-plan-depth)");
            }
        }
        if (!problems.isEmpty()) {
            throw new PlanToolsException(problems.stream().distinct().toList());
        }
        List<PlanTool> tools = new ArrayList<>();
        byName.values().forEach(plan -> tools.add(new PlanTool(plan, vm)));
        return tools;
    }

    /** The longest chain of plan-tool calls from {@code name}; null (and a problem) when it reaches a cycle. */
    private static List<String> deepest(
            String name, Map<String, Plan> byName, List<String> path, List<String> problems) {
        if (path.contains(name)) {
            List<String> cycle = new ArrayList<>(path.subList(path.indexOf(name), path.size()));
            cycle.add(name);
            problems.add("plan tool '" + cycle.get(0) + "' calls itself"
                    + (cycle.size() == 2 ? "" : " through " + String.join(" → ", cycle))
                    + ": a plan tool may not reach itself");
            return null;
        }
        path.add(name);
        List<String> longest = List.of(name);
        for (String callee : callees(byName.get(name), byName)) {
            List<String> below = deepest(callee, byName, path, problems);
            if (below == null) {
                path.remove(path.size() - 1);
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
        return longest;
    }

    private static List<String> callees(Plan plan, Map<String, Plan> byName) {
        List<String> callees = new ArrayList<>();
        for (Instruction instruction : plan.instructions()) {
            if (instruction instanceof Calling calling
                    && byName.containsKey(calling.tool())
                    && !callees.contains(calling.tool())) {
                callees.add(calling.tool());
            }
        }
        return callees;
    }
}
