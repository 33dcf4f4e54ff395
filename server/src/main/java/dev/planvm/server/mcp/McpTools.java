package dev.planvm.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import dev.planvm.server.PlanService;
import dev.planvm.server.RunRequest;
import dev.planvm.server.ServiceException;
import dev.planvm.server.internal.Json;
import dev.planvm.tools.JsonSchemas;
import dev.planvm.vm.durable.ElementRows;
import dev.planvm.vm.plantools.PlanTool;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The MCP tools planvm offers: {@code validate_plan}, {@code run_plan}, {@code get_run}, {@code answer_input},
 * {@code plan_schema}, {@code list_tools}, and each plan tool of the VM under its own name. Each answers structured
 * content and the same JSON as text; a plan that does not
 * validate, a request the service refuses, or a run that failed is {@code isError} with the located
 * diagnostics or the sentence.
 */
final class McpTools {

    /** The longest {@code run_plan} waits for its run before answering {@code running} (then use get_run). */
    static final Duration RUN_WAIT = Duration.ofMinutes(5);
    /** The most steps of the compact trace {@code run_plan} answers. */
    static final int TRACE_STEPS = 200;

    /** Whether an outcome is an error for the client: the run failed, or went on past failed steps (exit 1). */
    private static boolean failed(ObjectNode outcome) {
        String state = outcome.path("state").asText();
        return state.equals("failed") || state.equals("completed_with_failures");
    }

    private static final ObjectMapper MAPPER = Json.MAPPER;

    private McpTools() {}

    static List<SyncToolSpecification> of(PlanService service, McpJsonMapper json) {
        List<SyncToolSpecification> all = new ArrayList<>(builtins(service, json));
        Set<String> taken = new HashSet<>();
        all.forEach(spec -> taken.add(spec.tool().name()));
        service.vm().tools().all().stream()
                .filter(PlanTool.class::isInstance)
                .map(PlanTool.class::cast)
                .filter(tool -> !taken.contains(tool.name()))
                .sorted(Comparator.comparing(PlanTool::name))
                .forEach(tool -> all.add(planTool(service, json, tool)));
        return all;
    }

    private static List<SyncToolSpecification> builtins(PlanService service, McpJsonMapper json) {
        return List.of(
                tool(
                        json,
                        "validate_plan",
                        "Validate a sequenced plan (StackVM JSON) without running it: every problem with its "
                                + "seq_no, JSON pointer and a sentence, and what stops a valid plan from running here"
                                + " (the reach policy too); with reach: true, what the plan can do on every path.",
                        VALIDATE,
                        args -> {
                            ObjectNode report = service.validate(args);
                            return new Answer(report, !report.path("valid").asBoolean());
                        }),
                tool(
                        json,
                        "run_plan",
                        "Run a sequenced plan with planvm's tools, store and policy; answers its status, "
                                + "final_answer, run id and a compact trace. mode: live (default), replay (with cassette) or dry-run.",
                        RUN,
                        args -> {
                            PlanService.Submitted run = service.start(RunRequest.fromJson(args));
                            ObjectNode outcome = service.await(run, RUN_WAIT, true);
                            compact(outcome);
                            return new Answer(outcome, failed(outcome));
                        }),
                tool(
                        json,
                        "get_run",
                        "A stored run by id: its status, inputs, result or error, pending approval or input (pending; "
                                + "pending_calls lists every call it waits for: each element of a for_each waits on its "
                                + "own), and the trace of every committed step.",
                        GET_RUN,
                        args -> new Answer(
                                service.run(
                                        args.path("run_id").asText(),
                                        args.path("max_elements").asInt(ElementRows.DEFAULT_MAX)),
                                false)),
                tool(
                        json,
                        "answer_input",
                        "Answer the human_input call a waiting run waits for (get_run's pending, kind input: its "
                                + "call_id, and the prompt, schema or choices in its params; or another of its "
                                + "pending_calls), and continue the run; answers like run_plan. One answer answers one "
                                + "call: a for_each whose elements ask waits again for the next. A wrong answer is "
                                + "refused with the reason and the run keeps waiting.",
                        ANSWER_INPUT,
                        args -> {
                            ObjectNode body = JsonNodeFactory.instance.objectNode();
                            body.set("call_id", args.get("call_id"));
                            body.set("value", args.get("value"));
                            PlanService.Submitted run =
                                    service.answer(args.path("run_id").asText(), body);
                            ObjectNode outcome = service.await(run, RUN_WAIT, true);
                            compact(outcome);
                            return new Answer(outcome, failed(outcome));
                        }),
                tool(
                        json,
                        "plan_schema",
                        "The JSON Schema (draft 2020-12) of a sequenced plan, e.g. for structured output.",
                        EMPTY,
                        args -> new Answer((ObjectNode) service.schema(), false)),
                tool(
                        json,
                        "list_tools",
                        "The tools a plan can call here, with descriptions and params schemas, and the tools "
                                + "that are unavailable and why.",
                        EMPTY,
                        args -> new Answer(service.tools(), false)));
    }

    private record Answer(ObjectNode body, boolean error) {}

    /**
     * A plan tool of the VM as an MCP tool: its name, description, {@code inputs} as the input schema
     * and, when it answers an object, {@code output} as the output schema. A call is a stored run of
     * the plan with the arguments as its inputs (an absent input with a {@code default} gets it),
     * under the service's tools, store and policy; its {@code final_answer} is the answer (structured
     * content, and the text), or the run's error.
     */
    private static SyncToolSpecification planTool(PlanService service, McpJsonMapper json, PlanTool planTool) {
        JsonNode output = planTool.signature().output();
        boolean objectOutput =
                output != null && "object".equals(output.path("type").asText());
        McpSchema.Tool.Builder builder = McpSchema.Tool.builder(
                        planTool.name(), json, Json.write(planTool.paramsSchema()))
                .description(planTool.description());
        if (objectOutput) {
            builder.outputSchema(json, Json.write(output));
        }
        Schema inputs = JsonSchemas.compile(planTool.paramsSchema());
        Schema outputs = output == null ? null : JsonSchemas.compile(output);
        return SyncToolSpecification.builder()
                .tool(builder.build())
                .callHandler((exchange, request) -> {
                    ObjectNode args = request.arguments() == null
                            ? JsonNodeFactory.instance.objectNode()
                            : MAPPER.valueToTree(request.arguments());
                    try {
                        List<String> bad = JsonSchemas.problems(inputs, args, 5);
                        if (!bad.isEmpty()) {
                            return error(new ServiceException(
                                            ServiceException.Kind.BAD_REQUEST,
                                            "the arguments of plan tool '" + planTool.name() + "' do not fit its"
                                                    + " inputs: " + String.join("; ", bad))
                                    .toJson());
                        }
                        ObjectNode body = JsonNodeFactory.instance.objectNode();
                        body.set("plan", planTool.plan().document());
                        body.put("name", planTool.name() + ".json");
                        body.set("inputs", withDefaults(planTool.paramsSchema(), args));
                        PlanService.Submitted run = service.start(RunRequest.fromJson(body));
                        ObjectNode outcome = service.await(run, RUN_WAIT, false);
                        if (!"succeeded".equals(outcome.path("state").asText())) {
                            return error(outcome);
                        }
                        JsonNode answer = outcome.path("result");
                        if (outputs != null) {
                            List<String> wrong = JsonSchemas.problems(outputs, answer, 5);
                            if (!wrong.isEmpty()) {
                                outcome.put(
                                        "error",
                                        "plan tool '" + planTool.name() + "' answered a final_answer that does not"
                                                + " fit its output schema: " + String.join("; ", wrong));
                                return error(outcome);
                            }
                        }
                        CallToolResult.Builder result = CallToolResult.builder()
                                .addTextContent(answer.isTextual() ? answer.asText() : Json.write(answer))
                                .isError(false);
                        if (answer.isObject()) {
                            result.structuredContent(MAPPER.convertValue(answer, Map.class));
                        }
                        return result.build();
                    } catch (ServiceException e) {
                        return error(e.toJson());
                    } catch (RuntimeException e) {
                        return error(new ServiceException(
                                        ServiceException.Kind.INTERNAL,
                                        "unexpected " + e.getClass().getSimpleName()
                                                + (e.getMessage() == null ? "" : ": " + e.getMessage()))
                                .toJson());
                    }
                })
                .build();
    }

    /** The arguments, and the schema's default of each absent input (as a plan tool's child run gets them). */
    private static ObjectNode withDefaults(JsonNode schema, ObjectNode args) {
        ObjectNode inputs = JsonNodeFactory.instance.objectNode();
        schema.path("properties").properties().forEach(p -> {
            if (!args.has(p.getKey()) && p.getValue().has("default")) {
                inputs.set(p.getKey(), p.getValue().get("default"));
            }
        });
        inputs.setAll(args);
        return inputs;
    }

    private static CallToolResult error(ObjectNode body) {
        return CallToolResult.builder()
                .structuredContent(MAPPER.convertValue(body, Map.class))
                .addTextContent(Json.write(body))
                .isError(true)
                .build();
    }

    private static SyncToolSpecification tool(
            McpJsonMapper json, String name, String description, String schema, Function<ObjectNode, Answer> handler) {
        McpSchema.Tool tool = McpSchema.Tool.builder(name, json, schema)
                .description(description)
                .build();
        return SyncToolSpecification.builder()
                .tool(tool)
                .callHandler((exchange, request) -> {
                    ObjectNode args = request.arguments() == null
                            ? JsonNodeFactory.instance.objectNode()
                            : MAPPER.valueToTree(request.arguments());
                    Answer answer;
                    try {
                        answer = handler.apply(args);
                    } catch (ServiceException e) {
                        answer = new Answer(e.toJson(), true);
                    } catch (RuntimeException e) {
                        answer = new Answer(
                                new ServiceException(
                                                ServiceException.Kind.INTERNAL,
                                                "unexpected " + e.getClass().getSimpleName()
                                                        + (e.getMessage() == null ? "" : ": " + e.getMessage()))
                                        .toJson(),
                                true);
                    }
                    return CallToolResult.builder()
                            .structuredContent(MAPPER.convertValue(answer.body(), Map.class))
                            .addTextContent(Json.write(answer.body()))
                            .isError(answer.error())
                            .build();
                })
                .build();
    }

    /** The outcome's trace reduced to its steps: {@code seq_no}, {@code type}, {@code duration_ms}, {@code jump}, {@code error}. */
    private static void compact(ObjectNode outcome) {
        JsonNode trace = outcome.remove("trace");
        if (trace == null) {
            return;
        }
        ArrayNode steps = outcome.putArray("trace");
        JsonNode all = trace.path("steps");
        for (int i = 0; i < Math.min(all.size(), TRACE_STEPS); i++) {
            JsonNode step = all.get(i);
            ObjectNode entry = steps.addObject()
                    .put("seq_no", step.path("seq_no").asInt())
                    .put("type", step.path("type").asText())
                    .put("duration_ms", step.path("duration_ms").asDouble());
            if (step.has("jump")) {
                entry.set("jump", step.get("jump"));
            }
            if (step.hasNonNull("error")) {
                entry.put("error", step.get("error").asText());
            }
        }
        if (all.size() > TRACE_STEPS) {
            outcome.put("trace_steps_left_out", all.size() - TRACE_STEPS);
        }
    }

    private static final String GLOBS = "{\"type\": \"array\", \"items\": {\"type\": \"string\"}}";
    private static final String PLAN =
            "{\"description\": \"The plan: a JSON array of instructions (or {\\\"plan\\\": [...]}), "
                    + "or its text.\", \"type\": [\"array\", \"object\", \"string\"]}";
    private static final String DIALECT =
            "{\"enum\": [\"json\", \"yaml\", \"yml\", \"js\", \"ppe\", \"idyll\", \"xml\"], \"description\":"
                    + " \"The plan's language (default: the one the name's extension selects, else json); a yaml, js,"
                    + " ppe or idyll (an Idyll document) plan is given as text.\"}";
    static final String VALIDATE =
            "{\"type\": \"object\", \"properties\": {\"plan\": " + PLAN + ", \"name\": {\"type\": \"string\"}, "
                    + "\"dialect\": " + DIALECT
                    + ", \"inputs\": {\"type\": \"object\", \"description\": \"The variables a run would be given.\"}, "
                    + "\"allow_tools\": " + GLOBS + ", \"deny_tools\": " + GLOBS + ", \"approve_tools\": " + GLOBS
                    + ", \"max_steps\": {\"type\": \"integer\", \"minimum\": 1}, "
                    + "\"reach\": {\"type\": \"boolean\", \"description\": \"Also answer what the plan can do before it runs"
                    + " (reach, schema planvm-reach/1): the tools it can reach, how often, whether calls that change the"
                    + " world are approved, where each param's value can come from, the hosts.\"}}, \"required\": [\"plan\"]}";
    static final String RUN =
            "{\"type\": \"object\", \"properties\": {\"plan\": " + PLAN + ", \"name\": {\"type\": \"string\"}, "
                    + "\"dialect\": " + DIALECT
                    + ", \"inputs\": {\"type\": \"object\", \"description\": \"Variables set before the first instruction.\"}, "
                    + "\"mode\": {\"enum\": [\"live\", \"replay\", \"dry-run\"]}, "
                    + "\"cassette\": {\"type\": \"object\", \"description\": \"A planvm-cassette/1 document to replay (mode replay).\"}, "
                    + "\"dry_run_conditions\": {\"type\": \"boolean\"}, \"allow_tools\": " + GLOBS
                    + ", \"deny_tools\": " + GLOBS
                    + ", \"approve_tools\": " + GLOBS + ", \"max_steps\": {\"type\": \"integer\", \"minimum\": 1}, "
                    + "\"now\": {\"type\": \"string\", \"description\": \"The run's clock for the date/time helpers, e.g. 2026-11-26T09:00:00Z.\"}, "
                    + "\"tz\": {\"type\": \"string\", \"description\": \"The run's time zone, e.g. Europe/Oslo.\"}, "
                    + "\"keep_going\": {\"type\": \"boolean\", \"description\": \"Go on past failed steps (listed in failed_steps).\"}}, \"required\": [\"plan\"]}";
    static final String GET_RUN = "{\"type\": \"object\", \"properties\": {\"run_id\": {\"type\": \"string\"}, "
            + "\"max_elements\": {\"type\": \"integer\", \"minimum\": 0, \"maximum\": " + PlanService.MAX_ELEMENT_ROWS
            + ", \"description\": \"At most this many element rows of each for_each step (default "
            + ElementRows.DEFAULT_MAX + "); elements_more counts the rest.\"}}, \"required\": [\"run_id\"]}";
    static final String ANSWER_INPUT = "{\"type\": \"object\", \"properties\": {\"run_id\": {\"type\": \"string\"}, "
            + "\"call_id\": {\"type\": \"string\", \"description\": \"The pending.call_id of the waiting run.\"}, "
            + "\"value\": {\"description\": \"The answer: JSON that fits the input's schema, or one of its choices.\"}}, "
            + "\"required\": [\"run_id\", \"call_id\", \"value\"]}";
    static final String EMPTY = "{\"type\": \"object\", \"properties\": {}}";
}
