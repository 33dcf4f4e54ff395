package dev.planvm.vm.internal;

import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Jmp;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.vm.run.InstructionHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What stops a VM from running a plan, found before anything runs, one sentence per problem, each
 * starting with the {@code seq_no}: types with no handler, tools the policy denies (in every mode),
 * tools that are neither installed nor answered by the mode, and LLM conditions nothing can decide.
 *
 * @param llmHint why no LLM is available (which environment variables to set), or {@code null}
 */
public record Preflight(Map<String, InstructionHandler<?>> handlers, ToolRegistry tools, ToolPolicy policy,
                        boolean hasConditionEvaluator, String llmHint) {

    /** The built-in LLM tool; plans calling it need an LLM, a cassette or a dry run. */
    public static final String LLM_TOOL = "llm_generate";

    /**
     * @param answeredTools tools a replayed cassette answers (empty unless replaying)
     * @param replaying     whether a cassette answers calls
     * @param dryRun        whether nothing is called (no tool and no LLM needed)
     */
    public List<String> problems(Plan plan, Set<String> answeredTools, boolean replaying, boolean dryRun) {
        List<String> problems = new ArrayList<>();
        boolean conditionsAnswered = dryRun || replaying || hasConditionEvaluator;
        for (Instruction instruction : plan.instructions()) {
            String at = "seq_no " + instruction.seqNo() + ": ";
            if (!handlers.containsKey(instruction.type())) {
                problems.add(at + "no handler is registered for instruction type '" + instruction.type() + "'");
            }
            if (instruction instanceof Calling calling) {
                policy.refusal(calling.tool()).ifPresent(refusal -> problems.add(at + refusal));
                if (!dryRun && policy.allows(calling.tool()) && tools.find(calling.tool()).isEmpty()
                        && !answeredTools.contains(calling.tool())) {
                    problems.add(at + "tool '" + calling.tool() + "' is not installed ("
                            + (replaying ? "nor in the cassette; " : "") + missingReason(calling.tool()) + ")");
                }
            }
            if (instruction instanceof Jmp jmp && jmp.branch() instanceof Jmp.LlmCondition && !conditionsAnswered) {
                problems.add(at + "this jmp has a condition_prompt, which needs an LLM to decide it"
                        + (llmHint != null ? ": " + llmHint : ", and no condition evaluator is configured"));
            }
        }
        return problems;
    }

    private String missingReason(String tool) {
        if (tool.equals(LLM_TOOL) && llmHint != null) {
            return llmHint;
        }
        return tools.names().isEmpty() ? "no tools are installed" : "installed: " + String.join(", ", tools.names());
    }
}
