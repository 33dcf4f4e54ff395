package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Custom;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Jmp;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.ParamsCheck;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.vm.handlers.BuiltinHandlers;
import dev.planvm.vm.trace.TraceRecorder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The plan virtual machine. Configure once with {@link #builder()}, then {@link #run} any number
 * of plans, from any number of threads: a run keeps all its state to itself.
 *
 * <pre>{@code
 * PlanVm vm = PlanVm.builder()
 *         .tool(Tool.of("upper", "Upper-cases text", (params, ctx) -> TextNode.valueOf(params.path("text").asText().toUpperCase())))
 *         .build();
 * Plan plan = vm.loader().load(Path.of("plan.json")).planOrThrow();
 * RunResult result = vm.run(plan, Map.of());
 * }</pre>
 */
public final class PlanVm {

    /** DESIGN P11: a run stops after this many executed instructions unless configured otherwise. */
    public static final int DEFAULT_MAX_STEPS = 1000;

    private final ToolRegistry tools;
    private final ConditionEvaluator conditions;
    private final Map<String, InstructionHandler<?>> handlers;
    private final List<RunListener> listeners;
    private final int maxSteps;
    private final boolean strict;
    private final boolean tracing;
    private final ParamsCheck paramsCheck = new ParamsCheck();

    private PlanVm(Builder b) {
        this.tools = ToolRegistry.of(b.tools);
        this.conditions = b.conditions;
        this.handlers = Map.copyOf(b.handlers);
        this.listeners = List.copyOf(b.listeners);
        this.maxSteps = b.maxSteps;
        this.strict = b.strict;
        this.tracing = b.tracing;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A loader that knows this VM's custom instruction types and tool names. */
    public PlanLoader loader() {
        Set<String> custom = new HashSet<>(handlers.keySet());
        custom.removeAll(BuiltinHandlers.TYPES);
        return new PlanLoader(Set.copyOf(tools.names()), custom);
    }

    public ToolRegistry tools() {
        return tools;
    }

    /**
     * What stops this VM from running {@code plan}, one sentence per problem: tools that are not
     * installed, LLM conditions with no condition evaluator, types with no handler.
     */
    public List<String> problems(Plan plan) {
        List<String> problems = new ArrayList<>();
        for (Instruction instruction : plan.instructions()) {
            if (!handlers.containsKey(instruction.type())) {
                problems.add("seq_no " + instruction.seqNo() + ": no handler is registered for instruction type '"
                        + instruction.type() + "'");
            }
            if (instruction instanceof Calling calling && tools.find(calling.tool()).isEmpty()) {
                problems.add("seq_no " + instruction.seqNo() + ": tool '" + calling.tool() + "' is not installed"
                        + (tools.names().isEmpty() ? " (no tools are installed)" : " (installed: "
                        + String.join(", ", tools.names()) + ")"));
            }
            if (instruction instanceof Jmp jmp && jmp.branch() instanceof Jmp.LlmCondition && conditions == null) {
                problems.add("seq_no " + instruction.seqNo() + ": this jmp has a condition_prompt, which needs an LLM "
                        + "condition evaluator, and none is configured");
            }
        }
        return problems;
    }

    /**
     * Runs a plan to its end.
     *
     * @param inputs variables set before the first instruction
     * @throws PlanRejectedException before anything runs, when {@link #problems} is not empty
     */
    public RunResult run(Plan plan, Map<String, JsonNode> inputs) {
        Objects.requireNonNull(plan, "plan");
        List<String> problems = problems(plan);
        if (!problems.isEmpty()) {
            throw new PlanRejectedException(problems);
        }
        Interpreter interpreter = new Interpreter(plan, handlers, new DirectCalls(), listeners, maxSteps, strict);
        return interpreter.run(new LinkedHashMap<>(inputs), tracing ? new TraceRecorder() : null);
    }

    /** Tool calls and conditions, each tool's params checked against its schema first. */
    private final class DirectCalls implements Calls {
        @Override
        public JsonNode callTool(String name, JsonNode params, CallContext context) {
            Tool tool = tools.find(name).orElseThrow(() -> new StepFailure("tool '" + name + "' is not installed"));
            paramsCheck.check(tool, params);
            JsonNode output = tool.invoke(params, context);
            if (output == null) {
                throw ToolException.permanent("tool '" + name + "' returned nothing (Java null)");
            }
            return output;
        }

        @Override
        public ConditionResult evaluateCondition(String prompt, JsonNode context, CallContext call) {
            return conditions.evaluate(prompt, context, call);
        }
    }

    /** Configures a {@link PlanVm}. */
    public static final class Builder {
        private final List<Tool> tools = new ArrayList<>();
        private ConditionEvaluator conditions;
        private final Map<String, InstructionHandler<?>> handlers = new LinkedHashMap<>(BuiltinHandlers.all());
        private final List<RunListener> listeners = new ArrayList<>();
        private int maxSteps = DEFAULT_MAX_STEPS;
        private boolean strict;
        private boolean tracing = true;

        private Builder() {
        }

        public Builder tool(Tool tool) {
            tools.add(Objects.requireNonNull(tool, "tool"));
            return this;
        }

        public Builder tools(Iterable<? extends Tool> more) {
            more.forEach(this::tool);
            return this;
        }

        /** Decides {@code jmp}s with a {@code condition_prompt}; without one such plans are refused. */
        public Builder conditionEvaluator(ConditionEvaluator evaluator) {
            this.conditions = evaluator;
            return this;
        }

        /** Registers a handler for a custom instruction type (loaded as {@link Custom}). */
        public Builder handler(String type, InstructionHandler<Custom> handler) {
            if (BuiltinHandlers.TYPES.contains(type)) {
                throw new IllegalArgumentException("'" + type + "' is a built-in instruction type");
            }
            handlers.put(type, Objects.requireNonNull(handler, "handler"));
            return this;
        }

        public Builder listener(RunListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /** DESIGN P11: the most instructions one run may execute (default 1000). */
        public Builder maxSteps(int maxSteps) {
            if (maxSteps < 1) {
                throw new IllegalArgumentException("maxSteps must be at least 1");
            }
            this.maxSteps = maxSteps;
            return this;
        }

        /** Strict: a run that never sets {@code final_answer} fails instead of returning null. */
        public Builder strict(boolean strict) {
            this.strict = strict;
            return this;
        }

        /** Whether runs build a trace document (on by default). */
        public Builder tracing(boolean tracing) {
            this.tracing = tracing;
            return this;
        }

        public PlanVm build() {
            return new PlanVm(this);
        }
    }
}
