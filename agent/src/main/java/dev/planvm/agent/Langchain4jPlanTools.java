package dev.planvm.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.internal.JsonSchemaElementJsonUtils;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.json.JsonErrors;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.JsonValues;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.plantools.PlanTool;
import dev.planvm.vm.run.RunResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Plans as langchain4j tools, for an agent built with {@code AiServices}: {@code
 * AiServices.builder(Assistant.class).chatModel(model).tools(Langchain4jPlanTools.of(vm)).build()} gives
 * its LLM a {@code run_plan} tool — the LLM writes a plan, planvm checks and runs it on {@code vm} and
 * answers its {@code final_answer}, or every reason the plan is invalid or cannot run, so the LLM can
 * fix it. Each plan tool of {@code vm} ({@code PlanVm.builder().planTool(..)}, {@code planTools(dir)}) is a
 * tool of its own, with the plan's name, description and {@code inputs} schema: a plan written and
 * tested once is a tool an agent calls.
 *
 * <p>What a tool answers the LLM is text: a {@code final_answer} that is text as it is, any other JSON
 * as compact JSON; a plan that is refused or fails answers a text starting with {@code error:}. Runs
 * are live runs of {@code vm}, with its tools, policy, limits and approval rules.
 */
public final class Langchain4jPlanTools {

    /** The name of the tool that runs a plan the LLM writes. */
    public static final String RUN_PLAN = "run_plan";

    private static final ObjectMapper JSON = JsonMappers.mapper(JsonLimits.STORE);

    private Langchain4jPlanTools() {}

    /**
     * {@code run_plan} and each plan tool of {@code vm}, as the map {@code AiServices.builder(..).tools(map)}
     * takes.
     */
    public static Map<ToolSpecification, ToolExecutor> of(PlanVm vm) {
        Objects.requireNonNull(vm, "vm");
        Map<ToolSpecification, ToolExecutor> tools = new LinkedHashMap<>();
        tools.put(runPlanSpecification(vm), (request, memoryId) -> runPlan(vm, request.arguments()));
        for (String name : vm.tools().names()) {
            if (vm.tools().find(name).orElse(null) instanceof PlanTool planTool
                    && planTool.name().equals(name)) {
                tools.put(specification(planTool), (request, memoryId) -> call(vm, planTool, request.arguments()));
            }
        }
        return tools;
    }

    /** A plan tool as langchain4j sees it: its name, description and inputs schema. */
    static ToolSpecification specification(PlanTool tool) {
        JsonSchemaElement params = JsonSchemaElementJsonUtils.fromMap(
                JSON.convertValue(tool.paramsSchema(), new TypeReference<Map<String, Object>>() {}));
        return ToolSpecification.builder()
                .name(tool.name())
                .description(tool.description())
                .parameters(
                        params instanceof JsonObjectSchema object
                                ? object
                                : JsonObjectSchema.builder()
                                        .additionalProperties(true)
                                        .build())
                .build();
    }

    /**
     * Calls a plan tool through {@code vm}'s call chain, as a plan's {@code calling} step would (params
     * checked against its inputs, the tool policy, retries, timeouts); what the LLM is told.
     */
    static String call(PlanVm vm, PlanTool tool, String arguments) {
        JsonNode params;
        try {
            params = arguments(tool.name(), arguments);
        } catch (UnreadableArguments e) {
            return e.getMessage();
        }
        try {
            JsonNode output = vm.callChain(RunMode.live())
                    .execute(new Call.ToolCall(tool.name(), params, CallContext.of(CallContext.NO_INSTRUCTION)));
            return text(output);
        } catch (ToolException e) {
            return "error: " + e.getMessage();
        }
    }

    static ToolSpecification runPlanSpecification(PlanVm vm) {
        return ToolSpecification.builder()
                .name(RUN_PLAN)
                .description("Runs a plan: a JSON array of StackVM instructions (assign, jmp, calling, reasoning),"
                        + " each with seq_no, type and parameters; the answer is the plan's final_answer."
                        + " Tools a plan can call: "
                        + String.join(", ", vm.tools().names())
                        + ". An invalid plan is answered with every error, located by seq_no.")
                .parameters(JsonObjectSchema.builder()
                        .addStringProperty("plan", "The plan as JSON text: [{\"seq_no\": 0, \"type\": ...}, ...]")
                        .addProperty(
                                "inputs",
                                JsonObjectSchema.builder()
                                        .description("The variables the plan reads, by name (optional)")
                                        .additionalProperties(true)
                                        .build())
                        .required("plan")
                        .build())
                .build();
    }

    /** Runs the plan of a {@code run_plan} call; what the LLM is told. */
    static String runPlan(PlanVm vm, String arguments) {
        JsonNode args;
        try {
            args = arguments(RUN_PLAN, arguments);
        } catch (UnreadableArguments e) {
            return e.getMessage();
        }
        JsonNode plan = args.path("plan");
        if (plan.isMissingNode() || plan.isNull()) {
            return "error: run_plan needs \"plan\": the plan as JSON text";
        }
        LoadResult loaded = plan.isTextual()
                ? vm.loader().load(plan.asText(), RUN_PLAN)
                : vm.loader().load(plan, RUN_PLAN);
        if (!loaded.valid()) {
            return "error: the plan is invalid:\n"
                    + loaded.errors().stream().map(Langchain4jPlanTools::line).collect(Collectors.joining("\n"));
        }
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        JsonNode given = args.path("inputs");
        if (given.isObject()) {
            ((ObjectNode) given).properties().forEach(p -> inputs.put(p.getKey(), p.getValue()));
        } else if (!given.isMissingNode() && !given.isNull()) {
            return "error: \"inputs\" must be an object of variables";
        }
        RunResult result;
        try {
            result = vm.run(loaded.plan(), inputs);
        } catch (PlanRejectedException e) {
            return "error: the plan cannot run here:\n- " + String.join("\n- ", e.problems());
        }
        return answer(result);
    }

    /**
     * The arguments an LLM wrote for tool {@code name}, read as untrusted text by the bounded {@link
     * JsonLimits#LLM_ANSWER} profile ({@link JsonValues#READER}: one JSON value, at most {@value
     * JsonValues#MAX_TOKENS} tokens and Jackson's 1,000 levels). Text beyond those bounds is refused in one
     * sentence that says which bound it passed: it is not parsed, and not called "not JSON".
     */
    static JsonNode arguments(String name, String arguments) {
        try {
            return JsonValues.READER.readTree(arguments == null || arguments.isBlank() ? "{}" : arguments);
        } catch (StreamConstraintsException e) {
            String reason = JsonErrors.message(e);
            int from = reason.indexOf(", from `");
            throw new UnreadableArguments("error: the arguments of " + name + " are too large to read: "
                    + (from >= 0 ? reason.substring(0, from) + ")" : reason));
        } catch (JsonProcessingException e) {
            throw new UnreadableArguments(
                    "error: the arguments of " + name + " are not JSON: " + e.getOriginalMessage());
        }
    }

    /** Arguments that cannot be read; its message is what the LLM is told. */
    private static final class UnreadableArguments extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnreadableArguments(String message) {
            super(message, null, false, false);
        }
    }

    /** A run's outcome for the LLM. */
    static String answer(RunResult result) {
        if (!result.succeeded()) {
            return "error: the plan " + (result.waiting() ? "waits" : "failed") + ": "
                    + result.error().describe();
        }
        return text(result.finalAnswer());
    }

    private static String text(JsonNode value) {
        JsonNode answer = value == null ? NullNode.getInstance() : value;
        return answer.isTextual() ? answer.asText() : answer.toString();
    }

    private static String line(Diagnostic diagnostic) {
        return "- " + diagnostic.format(RUN_PLAN);
    }
}
