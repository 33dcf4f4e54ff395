package dev.planvm.vm.plantools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.networknt.schema.Schema;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanSignature;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.JsonSchemas;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.internal.ChildRunStopped;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.LimitReached;
import dev.planvm.vm.run.RunError;
import dev.planvm.vm.run.RunResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A plan that names itself ({@link PlanSignature}) offered as a tool: a {@code calling} step of another
 * plan calls it like any tool. Its params are checked against the plan's {@code inputs} before the call
 * (by the call chain, as for every tool), the child runs on the same VM with exactly those params as
 * its variables (an absent input that has a {@code default} gets it), and its {@code final_answer},
 * checked against {@code output} when the plan declares one, is the tool's output.
 *
 * <p>Called by a run of its VM, the child is a child run of that run ({@link PlanToolCalls}): in the
 * parent's mode, cassette and token budget, bound by the parent's tool policy and approval rules, and,
 * when the parent is stored, a stored run of its own that names its parent and the call's seq_no (a
 * resume of the parent continues an interrupted child). Called from outside a run (an MCP client),
 * it runs as a live run of its own.
 */
public final class PlanTool implements Tool {

    private final Plan plan;
    private final PlanSignature signature;
    private final ChildRuns vm;
    private final Schema output;
    /** The compiled {@code inputs} schema, on first need (a benign race compiles it twice). */
    private volatile Schema inputs;

    PlanTool(Plan plan, ChildRuns vm) {
        this.plan = Objects.requireNonNull(plan, "plan");
        this.signature = plan.signature()
                .filter(s -> s.name() != null)
                .orElseThrow(() -> new IllegalArgumentException(plan.source() + " does not name itself as a tool"));
        this.vm = vm;
        this.output = signature.output() == null ? null : JsonSchemas.compile(signature.output());
    }

    /** The child plan. */
    public Plan plan() {
        return plan;
    }

    /** The plan tool's name, description and schemas. */
    public PlanSignature signature() {
        return signature;
    }

    @Override
    public String name() {
        return signature.name();
    }

    @Override
    public String description() {
        return signature.description().isEmpty()
                ? "Runs the plan " + plan.source() + " (a plan tool)"
                : signature.description();
    }

    @Override
    public JsonNode paramsSchema() {
        return signature.inputs() != null ? signature.inputs() : Tool.anyObjectSchema();
    }

    /** A plan tool has side effects when any tool its plan calls has them, or is not known here. */
    @Override
    public boolean hasSideEffects() {
        for (Instruction instruction : plan.instructions()) {
            if (instruction instanceof Calling calling) {
                Optional<Tool> tool = vm.tool(calling.tool());
                if (tool.isEmpty() || tool.get() == this || tool.get().hasSideEffects()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Runs the plan as a run of its own: a plan tool called outside a run of its VM (an MCP client, an agent). */
    @Override
    public JsonNode invoke(JsonNode params, CallContext context) {
        return answer(vm.run(plan, inputs(params)), false);
    }

    /**
     * Runs the plan as a child of the run whose call this is ({@link PlanToolCalls}),
     * after checking {@code params} against {@code inputs} (the call does not reach the tool's own check); a
     * recording child's interactions go to {@code recorded}.
     */
    JsonNode call(Call.ToolCall call, PlanToolCalls parent, Consumer<List<Interaction>> recorded) {
        JsonNode params = call.params();
        List<String> problems = JsonSchemas.problems(inputsSchema(), params, 5);
        if (!problems.isEmpty()) {
            throw ToolException.permanent(
                    "params do not fit the schema of tool '" + name() + "': " + String.join("; ", problems));
        }
        ChildRuns.Outcome outcome = parent.runChild(this, inputs(params), call, recorded);
        RunResult result = outcome.result();
        String spent = parent.stepsSpent();
        if (spent != null
                && result != null
                && result.error() != null
                && result.error().kind() == FailureKind.LIMIT_REACHED) {
            throw new LimitReached(spent); // the tree's one sentence, whichever of its runs reached the limit
        }
        return answer(outcome, parent.dryRun());
    }

    private Schema inputsSchema() {
        Schema compiled = inputs;
        if (compiled == null) {
            compiled = JsonSchemas.compile(paramsSchema());
            inputs = compiled;
        }
        return compiled;
    }

    /** The child's final answer as the tool's output (unchecked in a dry run: it is made of placeholders). */
    private JsonNode answer(ChildRuns.Outcome outcome, boolean dryRun) {
        if (outcome.result() == null) {
            throw ToolException.permanent(
                    "plan tool '" + name() + "' cannot run here: " + String.join("; ", outcome.refused()));
        }
        RunResult result = outcome.result();
        if (result.waiting()) {
            throw ToolException.permanent("plan tool '" + name() + "' stopped waiting ("
                    + result.error().message() + "), with no call to name");
        }
        if (result.interrupted() || (result.error() != null && result.error().kind() == FailureKind.CANCELLED)) {
            throw new ChildRunStopped(
                    "plan tool '" + name() + "' stopped: " + result.error().message());
        }
        if (!result.succeeded()) {
            RunError error = result.error();
            String message = "plan tool '" + name() + "' failed"
                    + (error.seqNo() == null
                            ? ""
                            : " at its seq_no " + error.seqNo()
                                    + (error.type() == null ? "" : " (" + error.type() + ")"))
                    + ": " + error.message();
            if (error.kind() == FailureKind.LIMIT_REACHED) {
                throw new LimitReached(message); // a protective limit stops the parent too: on_error never catches it
            }
            throw ToolException.permanent(message);
        }
        JsonNode answer = result.finalAnswer();
        if (output != null && !dryRun) {
            List<String> problems = JsonSchemas.problems(output, answer == null ? NullNode.getInstance() : answer, 5);
            if (!problems.isEmpty()) {
                throw ToolException.permanent("plan tool '" + name() + "' answered a final_answer that does not fit"
                        + " its output schema: " + String.join("; ", problems));
            }
        }
        return answer;
    }

    /** The child's variables: each param, and the schema's default of each absent input. */
    private Map<String, JsonNode> inputs(JsonNode params) {
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        JsonNode properties = paramsSchema().path("properties");
        properties.properties().forEach(p -> {
            if (!params.has(p.getKey()) && p.getValue().has("default")) {
                inputs.put(p.getKey(), p.getValue().get("default"));
            }
        });
        params.properties().forEach(p -> inputs.put(p.getKey(), p.getValue()));
        return inputs;
    }

    @Override
    public String toString() {
        return "PlanTool[" + name() + " = " + plan.source() + "]";
    }
}
