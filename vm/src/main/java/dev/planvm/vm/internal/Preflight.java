package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Custom;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Jmp;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.ValueTemplate;
import dev.planvm.tools.JsonSchemas;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.vm.run.InstructionHandler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What stops a VM from running a plan, found before anything runs, one sentence per problem, each
 * starting with the {@code seq_no}: the {@linkplain #refusals refusals} (a tool the policy denies, in every
 * mode; a call whose params, written out, cannot fit its tool's schema, and a call of a plan tool that cannot be
 * used, for the calls a tool answers: not those a replay or dry run answers itself), types with no handler, tools
 * that are not installed in a live or recorded run, seed 000's slots that hold several values where the tool's
 * params schema wants one ({@link #slotProblems}), and LLM conditions nothing can decide. {@code planvm validate}
 * refuses a plan for its refusals (it cannot know what a run will install), so a run refuses everything
 * {@code validate} refuses: one pipeline.
 *
 * <p>A replay calls nothing real, so a tool that is neither installed nor in the cassette is no
 * problem before the run: a call actually made to it fails as a cassette miss. {@code PlanVm.warnings}
 * names such calls among the instructions the run can still reach.
 *
 * @param llmHint           why no LLM is available (which environment variables to set), or {@code null}
 * @param unusablePlanTools the plan tools the VM could not offer, by name, and why: a call of one is refused
 * @param unnamedPlanTools  the problems of plan-tool files whose name cannot be read: a call of a tool that is
 *                          not installed names them, as the tool it meant may be one of them
 */
public record Preflight(
        Map<String, InstructionHandler<?>> handlers,
        ToolRegistry tools,
        ToolPolicy policy,
        boolean hasConditionEvaluator,
        String llmHint,
        Map<String, String> unusablePlanTools,
        List<String> unnamedPlanTools) {

    public Preflight {
        unusablePlanTools = Map.copyOf(unusablePlanTools);
        unnamedPlanTools = List.copyOf(unnamedPlanTools);
    }

    /**
     * What refuses {@code plan} here whatever a run sets up, each located: for every call, a tool the policy denies,
     * a plan tool that cannot be used, and params written out that cannot fit the params schema of a tool known
     * here without setting one up (an MCP server's tool is checked once its server runs: {@link #problems}).
     */
    public List<Diagnostic> refusals(Plan plan) {
        List<Diagnostic> refusals = new ArrayList<>();
        LiteralParams params = new LiteralParams();
        for (Instruction instruction : plan.instructions()) {
            if (instruction instanceof Calling calling) {
                policy.refusal(canonicalName(calling.tool(), true), tools.knownCanonicalNames())
                        .ifPresent(refusal -> refusals.add(Diagnostic.error(
                                calling.seqNo(), calling.header().pointer() + "/parameters", refusal)));
                refusals.addAll(callRefusals(calling, true, params));
            }
        }
        return refusals;
    }

    /**
     * The refusals of one call but its tool's policy: a plan tool that cannot be used, params that cannot fit.
     *
     * @param answered whether the call is answered without its tool (then no tool is set up to learn its schema)
     */
    private List<Diagnostic> callRefusals(Calling calling, boolean answered, LiteralParams params) {
        String why = unusablePlanTools.get(calling.tool());
        if (why != null) {
            return List.of(Diagnostic.error(
                    calling.seqNo(),
                    calling.header().pointer() + "/parameters",
                    "plan tool '" + calling.tool() + "' cannot be used: " + why));
        }
        Optional<Tool> tool = answered ? tools.findResolved(calling.tool()) : tools.find(calling.tool());
        return tool.map(t -> params.check(calling, t)).orElse(List.of());
    }

    /** The built-in LLM tool; plans calling it need an LLM, a cassette or a dry run. */
    public static final String LLM_TOOL = "llm_generate";

    /**
     * @param replaying whether a cassette answers calls (then no tool needs to be installed)
     * @param dryRun    whether nothing is called (no tool and no LLM needed)
     */
    public List<String> problems(Plan plan, boolean replaying, boolean dryRun) {
        return problems(plan, replaying, dryRun, Set.of());
    }

    /** @param live tools a partial replay calls for real: they must be installed like in a live run */
    public List<String> problems(Plan plan, boolean replaying, boolean dryRun, Set<String> live) {
        List<String> problems = new ArrayList<>();
        LiteralParams params = new LiteralParams();
        for (Instruction instruction : plan.instructions()) {
            String at = "seq_no " + instruction.seqNo() + ": ";
            if (!handlers.containsKey(instruction.type())) {
                problems.add(at + "no handler is registered for instruction type '" + instruction.type() + "'");
            }
            if (instruction instanceof Calling calling) {
                boolean answered = dryRun || replaying && !live.contains(calling.tool());
                String canonical = canonicalName(calling.tool(), answered);
                policy.refusal(canonical, tools.canonicalNames()).ifPresent(refusal -> problems.add(at + refusal));
                // a call a replay or dry run answers never reaches a tool (nor its schema, nor a plan tool's child)
                List<Diagnostic> refusals = answered ? List.of() : callRefusals(calling, false, params);
                for (Diagnostic refusal : refusals) {
                    problems.add("seq_no " + refusal.seqNo() + " at " + refusal.pointer() + ": " + refusal.message());
                }
                if (!answered
                        && !unusablePlanTools.containsKey(calling.tool())
                        && policy.allows(canonical, tools.canonicalNames())
                        && tools.find(calling.tool()).isEmpty()) {
                    problems.add(at + "tool '" + calling.tool() + "' is not installed (" + missingReason(calling.tool())
                            + ")");
                }
                if (!answered && calling.slots()) {
                    tools.find(calling.tool())
                            .ifPresent(tool -> slotProblems(calling, tool.paramsSchema())
                                    .forEach(problem -> problems.add(at + problem)));
                }
            }
            if (instruction instanceof Jmp jmp
                    && jmp.branch() instanceof Jmp.LlmCondition
                    && !dryRun
                    && !replaying
                    && !hasConditionEvaluator) {
                problems.add(at + "this jmp has a condition_prompt, which needs an LLM to decide it"
                        + (llmHint != null ? ": " + llmHint : ", and no condition evaluator is configured"));
            }
        }
        return problems;
    }

    /**
     * The slots of a {@code "slots": true} calling that cannot feed their param: the tool's params schema
     * wants one value there and the slot lists another number of values (seed 000's slots are lists;
     * a list of one passes its value).
     */
    static List<String> slotProblems(Calling calling, JsonNode paramsSchema) {
        List<String> found = new ArrayList<>();
        Map<String, Integer> sizes = listSizes(calling.params());
        sizes.forEach((slot, size) -> {
            if (size != 1) {
                JsonSchemas.oneValueParam(paramsSchema, slot)
                        .ifPresent(schema -> found.add(JsonSchemas.slotRefusal(calling.tool(), slot, size, schema)));
            }
        });
        return found;
    }

    /** Each param written as a list in the plan, and how many values it lists. */
    private static Map<String, Integer> listSizes(ValueTemplate params) {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        if (params instanceof ValueTemplate.ObjectTemplate object) {
            object.fields().forEach((name, value) -> {
                if (value instanceof ValueTemplate.ArrayTemplate array) {
                    sizes.put(name, array.elements().size());
                } else if (value instanceof ValueTemplate.Constant constant
                        && constant.value().isArray()) {
                    sizes.put(name, constant.value().size());
                }
            });
        } else if (params instanceof ValueTemplate.Constant constant
                && constant.value().isObject()) {
            constant.value().properties().forEach(field -> {
                if (field.getValue().isArray()) {
                    sizes.put(field.getKey(), field.getValue().size());
                }
            });
        }
        return sizes;
    }

    /**
     * The canonical name of the tool a plan calls as {@code tool}, which every rule matches
     * ({@link dev.planvm.tools.ToolNames}): when the call is {@code answered} without its tool (a replay,
     * a dry run), what is known without setting a tool up; otherwise the tool is set up as needed.
     */
    public String canonicalName(String tool, boolean answered) {
        return answered ? tools.knownCanonicalName(tool) : tools.canonicalName(tool);
    }

    /**
     * The calls of a replay that the cassette cannot answer, among the instructions reachable from
     * {@code position}: each would fail as a cassette miss if the run reached it.
     *
     * @param cassetteTools the tools the cassette has interactions for
     * @param hasConditions whether the cassette has condition answers
     */
    public static List<Diagnostic> uncovered(
            Plan plan, int position, Set<String> cassetteTools, boolean hasConditions) {
        List<Diagnostic> warnings = new ArrayList<>();
        List<Instruction> instructions = plan.instructions();
        boolean[] reachable = reachableFrom(plan, position);
        for (int i = 0; i < instructions.size(); i++) {
            Instruction instruction = instructions.get(i);
            if (!reachable[i]) {
                continue;
            }
            if (instruction instanceof Calling calling && !cassetteTools.contains(calling.tool())) {
                warnings.add(warning(
                        instruction,
                        "tool '" + calling.tool() + "' is not in the cassette: a call to it fails as a cassette miss"));
            }
            if (instruction instanceof Jmp jmp && jmp.branch() instanceof Jmp.LlmCondition && !hasConditions) {
                warnings.add(warning(
                        instruction,
                        "the cassette has no condition answers: this condition_prompt fails if it is reached"));
            }
        }
        return warnings;
    }

    private static Diagnostic warning(Instruction instruction, String message) {
        return Diagnostic.warning(instruction.seqNo(), instruction.header().pointer(), message);
    }

    /**
     * Which instructions a run starting at {@code position} may execute, following fall-through and
     * jump targets; a custom instruction may jump anywhere, so reaching one reaches everything after
     * it and every instruction.
     */
    private static boolean[] reachableFrom(Plan plan, int position) {
        List<Instruction> instructions = plan.instructions();
        boolean[] reached = new boolean[instructions.size()];
        Deque<Integer> work = new ArrayDeque<>();
        work.push(position);
        while (!work.isEmpty()) {
            int at = work.pop();
            if (at < 0 || at >= instructions.size() || reached[at]) {
                continue;
            }
            reached[at] = true;
            Instruction instruction = instructions.get(at);
            if (instruction instanceof Custom) {
                Arrays.fill(reached, true);
                return reached;
            }
            if (instruction.mayFallThrough()) {
                work.push(at + 1);
            }
            for (int target : instruction.jumpTargets()) {
                work.push(plan.positionOf(target));
            }
        }
        return reached;
    }

    private String missingReason(String tool) {
        if (tool.equals(LLM_TOOL) && llmHint != null) {
            return llmHint;
        }
        Optional<String> why = tools.whyUnavailable(tool);
        if (why.isPresent()) {
            return why.get();
        }
        List<String> installed = tools.names().stream() // the built-ins every VM has go unsaid
                .filter(name -> tools.findResolved(name)
                        .map(t -> !dev.planvm.tools.approval.PersonTools.isBuiltIn(t))
                        .orElse(true))
                .toList();
        String known = installed.isEmpty() ? "no tools are installed" : "installed: " + String.join(", ", installed);
        return unnamedPlanTools.isEmpty()
                ? known
                : known + "; plan-tool files that cannot be used: " + String.join("; ", unnamedPlanTools);
    }
}
