package dev.planvm.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.BiFunction;

/**
 * Something a plan can call with a {@code calling} instruction. A tool has a name
 * ({@code module:function} or a plain identifier), a description, a JSON Schema for its params
 * (checked before every call) and {@link #invoke}. Implementations must be thread-safe: one tool
 * instance serves every run. Failures are reported by throwing {@link ToolException}.
 */
public interface Tool {

    /** The name plans call it by. */
    String name();

    /**
     * The one name every rule matches this tool by (approval, permission, concurrency limits, retries,
     * timeouts, early starts): its own {@link #name()}, or, for a second name of a tool (the bare name
     * {@code read_file} of the MCP tool {@code fs:read_file}), the full name it stands for.
     */
    default String canonicalName() {
        return name();
    }

    /** One or two sentences for {@code planvm tools} and for agents writing plans. */
    default String description() {
        return "";
    }

    /** JSON Schema (draft 2020-12) of the params object; the default accepts any object. */
    default JsonNode paramsSchema() {
        return anyObjectSchema();
    }

    /**
     * Calls the tool.
     *
     * @param params  the interpolated params, already checked against {@link #paramsSchema()}
     * @param context where the call comes from and what output it expects
     * @return the output, any JSON value (text for an LLM answer)
     */
    JsonNode invoke(JsonNode params, CallContext context);

    /**
     * Whether a call changes something outside the run (sends mail, writes a database). Such a call
     * is never started ahead of its turn: it waits for every earlier call and later calls wait for
     * it. Default: no side effects (retrieval, LLM generation), so calls may overlap.
     */
    default boolean hasSideEffects() {
        return false;
    }

    /**
     * Whether a call may destroy or overwrite something (an MCP tool's {@code destructiveHint}, an HTTP
     * {@code DELETE}); a destructive tool has side effects too. {@code planvm validate --reach} reports it, and a
     * policy's {@code requireApprovalFor: ["destructive"]} refuses a plan that reaches such a call with no approval
     * rule gating it. Default: not destructive.
     */
    default boolean isDestructive() {
        return false;
    }

    /**
     * The hosts ({@code host[:port]}) a call may send requests to, as configured: what {@code planvm validate --reach}
     * reports as the hosts a plan can reach. A host computed from a param is written as its template
     * ({@code ${region}.api.example.com}). Default: none known (a tool that reaches no host, or does not say).
     */
    default java.util.List<String> hosts() {
        return java.util.List.of();
    }

    /**
     * How long one attempt of a call may take by this tool's own setting (a {@code timeout_s} configured
     * for it, or a timeout its author chose); empty: none. It beats the run's {@code --call-timeout};
     * only {@code --tool-timeout} beats it. {@link Duration#ZERO}: no limit.
     */
    default Optional<Duration> callTimeout() {
        return Optional.empty();
    }

    /**
     * How long one attempt may take when neither the tool's own setting nor the run says (an HTTP
     * tool's 30 s, an MCP tool's 120 s); empty: no limit then. The run's {@code --call-timeout} beats it.
     * The precedence, for every kind of tool: {@code --tool-timeout} > {@link #callTimeout()} >
     * {@code --call-timeout} > this. The attempt's timeout reaches the tool as
     * {@link CallContext#timeout()}, for its own I/O.
     */
    default Optional<Duration> defaultCallTimeout() {
        return Optional.empty();
    }

    /**
     * How many attempts in all a retriable failure of this tool gets when the tool knows better than
     * the run's default (e.g. retries configured for this tool); empty: the run's setting decides.
     */
    default OptionalInt maxAttempts() {
        return OptionalInt.empty();
    }

    /** The schema {@code {"type": "object"}}. */
    static ObjectNode anyObjectSchema() {
        ObjectNode schema = JsonNodeFactory.instance.objectNode();
        schema.put("type", "object");
        return schema;
    }

    /** A tool from a function, for tests and embedding code: {@code Tool.of("echo", "…", (params, ctx) -> params)}. */
    static Tool of(String name, String description, BiFunction<JsonNode, CallContext, JsonNode> function) {
        return of(name, description, anyObjectSchema(), function);
    }

    /** A tool from a function with a params schema. */
    static Tool of(
            String name,
            String description,
            JsonNode paramsSchema,
            BiFunction<JsonNode, CallContext, JsonNode> function) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(function, "function");
        return new Tool() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String description() {
                return description;
            }

            @Override
            public JsonNode paramsSchema() {
                return paramsSchema;
            }

            @Override
            public JsonNode invoke(JsonNode params, CallContext context) {
                return function.apply(params, context);
            }

            @Override
            public String toString() {
                return "Tool[" + name + "]";
            }
        };
    }
}
