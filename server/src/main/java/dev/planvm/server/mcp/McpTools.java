package dev.planvm.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.server.PlanService;
import dev.planvm.server.RunRequest;
import dev.planvm.server.ServiceException;
import dev.planvm.server.internal.Json;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The MCP tools planvm offers: {@code validate_plan}, {@code run_plan}, {@code get_run}, {@code answer_input},
 * {@code plan_schema}, {@code list_tools}. Each answers structured content and the same JSON as text; a plan that does not
 * validate, a request the service refuses, or a run that failed is {@code isError} with the located
 * diagnostics or the sentence.
 */
final class McpTools {

    /** The longest {@code run_plan} waits for its run before answering {@code running} (then use get_run). */
    static final Duration RUN_WAIT = Duration.ofMinutes(5);
    /** The most steps of the compact trace {@code run_plan} answers. */
    static final int TRACE_STEPS = 200;

    private static final ObjectMapper MAPPER = Json.MAPPER;

    private McpTools() {}

    static List<SyncToolSpecification> of(PlanService service, McpJsonMapper json) {
        return List.of(
                tool(
                        json,
                        "validate_plan",
                        "Validate a sequenced plan (StackVM JSON) without running it: every problem with its "
                                + "seq_no, JSON pointer and a sentence, and what stops a valid plan from running here.",
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
                            return new Answer(
                                    outcome,
                                    "failed".equals(outcome.path("state").asText()));
                        }),
                tool(
                        json,
                        "get_run",
                        "A stored run by id: its status, inputs, result or error, pending approval or input, and the trace of "
                                + "every committed step.",
                        GET_RUN,
                        args -> new Answer(service.run(args.path("run_id").asText()), false)),
                tool(
                        json,
                        "answer_input",
                        "Answer the human_input call a waiting run waits for (get_run's pending, kind input: its "
                                + "call_id, and the prompt, schema or choices in its params), and continue the run; "
                                + "answers like run_plan. A wrong answer is refused with the reason and the run keeps waiting.",
                        ANSWER_INPUT,
                        args -> {
                            ObjectNode body = JsonNodeFactory.instance.objectNode();
                            body.set("call_id", args.get("call_id"));
                            body.set("value", args.get("value"));
                            PlanService.Submitted run =
                                    service.answer(args.path("run_id").asText(), body);
                            ObjectNode outcome = service.await(run, RUN_WAIT, true);
                            compact(outcome);
                            return new Answer(
                                    outcome,
                                    "failed".equals(outcome.path("state").asText()));
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
            "{\"enum\": [\"json\", \"yaml\", \"yml\", \"js\"], \"description\": \"The plan's "
                    + "language (default: the one the name's extension selects, else json); a yaml or js plan is given as text.\"}";
    static final String VALIDATE =
            "{\"type\": \"object\", \"properties\": {\"plan\": " + PLAN + ", \"name\": {\"type\": \"string\"}, "
                    + "\"dialect\": " + DIALECT
                    + ", \"inputs\": {\"type\": \"object\", \"description\": \"The variables a run would be given.\"}, "
                    + "\"allow_tools\": " + GLOBS + ", \"deny_tools\": " + GLOBS + ", \"approve_tools\": " + GLOBS
                    + ", \"max_steps\": {\"type\": \"integer\", \"minimum\": 1}}, \"required\": [\"plan\"]}";
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
    static final String GET_RUN =
            "{\"type\": \"object\", \"properties\": {\"run_id\": {\"type\": \"string\"}}, \"required\": [\"run_id\"]}";
    static final String ANSWER_INPUT = "{\"type\": \"object\", \"properties\": {\"run_id\": {\"type\": \"string\"}, "
            + "\"call_id\": {\"type\": \"string\", \"description\": \"The pending.call_id of the waiting run.\"}, "
            + "\"value\": {\"description\": \"The answer: JSON that fits the input's schema, or one of its choices.\"}}, "
            + "\"required\": [\"run_id\", \"call_id\", \"value\"]}";
    static final String EMPTY = "{\"type\": \"object\", \"properties\": {}}";
}
