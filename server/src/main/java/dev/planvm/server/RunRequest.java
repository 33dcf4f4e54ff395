package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.CassetteException;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunOptions;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A request to run a plan ({@code POST /v1/runs}, the MCP tool {@code run_plan}):
 * <pre>{@code
 * {"plan": [...] | {"plan": [...]} | "plan text", "name": "plan.json", "inputs": {"k": v},
 *  "mode": "live" | "replay" | "dry-run", "cassette": {...}, "dry_run_conditions": false,
 *  "allow_tools": ["w*"], "deny_tools": ["shell*"], "approve_tools": ["send_*"], "max_steps": 100}
 * }</pre>
 * Only {@code plan} is required. The tool globs and the step limit narrow the server's settings. A
 * replay answers at once (recorded durations are not waited for: a request must not hold a run slot).
 *
 * @param plan   the plan document, or a text node holding the plan text (so malformed JSON is located)
 * @param name   what diagnostics and the store call the plan
 */
public record RunRequest(JsonNode plan, String name, Map<String, JsonNode> inputs, RunMode mode, RunOptions options) {

    static final Set<String> FIELDS = Set.of("plan", "name", "inputs", "mode", "cassette", "dry_run_conditions", "allow_tools", "deny_tools", "approve_tools", "max_steps");

    public RunRequest {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(name, "name");
        inputs = Map.copyOf(inputs);
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(options, "options");
    }

    /** Reads a request body; a field of the wrong shape is a {@link ServiceException} ({@code bad_request}) naming it. */
    public static RunRequest fromJson(JsonNode body) {
        Fields fields = Fields.of(body, FIELDS);
        JsonNode plan = fields.node("plan");
        if (plan == null) {
            throw Fields.bad("/plan", "the plan is missing: give it as a JSON array of instructions (or its text)");
        }
        return new RunRequest(plan, fields.text("name", "plan.json"), fields.variables("inputs"), mode(fields),
                options(fields));
    }

    /** The run options of {@code allow_tools}, {@code deny_tools}, {@code approve_tools} and {@code max_steps}. */
    static RunOptions options(Fields fields) {
        try {
            return new RunOptions(fields.strings("allow_tools"), fields.strings("deny_tools"), fields.strings("approve_tools"),
                    fields.integer("max_steps", 1), null);
        } catch (IllegalArgumentException e) {
            throw Fields.bad("", e.getMessage());
        }
    }

    /** {@code live} (default), {@code replay} with {@code cassette}, or {@code dry-run}. */
    static RunMode mode(Fields fields) {
        String mode = fields.text("mode", "live");
        JsonNode cassette = fields.node("cassette");
        if (!mode.equals("replay") && cassette != null) {
            throw Fields.bad("/cassette", "a cassette goes with \"mode\": \"replay\"");
        }
        return switch (mode) {
            case "live" -> RunMode.live();
            case "dry-run" -> RunMode.dryRun(fields.bool("dry_run_conditions", false));
            case "replay" -> {
                if (cassette == null) {
                    throw Fields.bad("/cassette", "\"mode\": \"replay\" needs the cassette to replay");
                }
                try {
                    yield RunMode.replay(Cassette.fromJson(cassette, "the request's cassette"), false);
                } catch (CassetteException e) {
                    throw Fields.bad("/cassette", e.getMessage());
                }
            }
            default -> throw Fields.bad("/mode", "must be \"live\", \"replay\" or \"dry-run\", not \"" + mode + "\"");
        };
    }
}
