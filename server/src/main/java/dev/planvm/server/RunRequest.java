package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.dialects.Dialect;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.CassetteException;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunOptions;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A request to run a plan ({@code POST /v1/runs}, the MCP tool {@code run_plan}):
 * <pre>{@code
 * {"plan": [...] | {"plan": [...]} | "plan text", "name": "plan.json", "dialect": "yaml" | "js" | "ppe" | "idyll" | "json",
 *  "inputs": {"k": v}, "mode": "live" | "replay" | "dry-run", "cassette": {...}, "replay_timing": false,
 *  "dry_run_conditions": false,
 *  "allow_tools": ["w*"], "deny_tools": ["shell*"], "approve_tools": ["send_*"], "max_steps": 100,
 *  "now": "2026-11-26T09:00:00Z", "tz": "Europe/Oslo", "keep_going": false}
 * }</pre>
 * Only {@code plan} is required. A YAML or JavaScript plan is given as text, its dialect named by
 * {@code dialect} or by the extension of {@code name} ({@code trip.yaml}). The tool globs and the step
 * limit narrow the server's settings. {@code now} and {@code tz} set the run's clock (default: the
 * server's clock when the run starts; a replay's cassette's); {@code now} needs an offset unless
 * {@code tz} is given. A replay answers at once (recorded durations are not waited for: a request must
 * not hold a run slot) unless {@code "replay_timing": true} asks it to wait each call's recorded duration, as
 * {@code --replay-timing} does (a demonstration, or watching a run in the browser).
 * {@code keep_going} runs past failed steps (each is listed in the answer's {@code failed_steps}) instead of
 * failing the run at the first.
 *
 * @param plan    the plan document, or a text node holding the plan text (so malformed JSON is located)
 * @param name    what diagnostics and the store call the plan
 * @param dialect the plan's language, or {@code null} for the one {@code name}'s extension selects (JSON by default)
 * @param clock   what {@code now} and {@code tz} do to the run's clock, or {@code null} when neither is given
 */
public record RunRequest(
        JsonNode plan,
        String name,
        Map<String, JsonNode> inputs,
        RunMode mode,
        RunOptions options,
        Dialect dialect,
        ClockRequest clock) {

    static final Set<String> FIELDS = Set.of(
            "plan",
            "name",
            "dialect",
            "inputs",
            "mode",
            "cassette",
            "replay_timing",
            "dry_run_conditions",
            "allow_tools",
            "deny_tools",
            "approve_tools",
            "max_steps",
            "now",
            "tz",
            "keep_going");

    /**
     * A request's {@code now} and {@code tz}: either may be {@code null}, keeping that part of the clock
     * the run would get.
     *
     * @param now  the run's "now", or {@code null}
     * @param zone the run's time zone, or {@code null}
     */
    public record ClockRequest(Instant now, ZoneId zone) {

        /**
         * The clock a run gets: {@code base} (the one it would get without this request's parts) with
         * this request's parts.
         *
         * @throws ServiceException {@code bad_request} when the result falls outside the years 1 to 9999
         */
        public RunClock apply(RunClock base) {
            try {
                return new RunClock(now == null ? base.now() : now, zone == null ? base.zone() : zone);
            } catch (IllegalArgumentException e) {
                throw Fields.bad("/now", e.getMessage());
            }
        }

        /**
         * The {@code now} and {@code tz} fields, or {@code null} when neither is given; a malformed one
         * is {@code bad_request}. Without {@code tz}, {@code now} needs its offset (the server's zone is
         * nobody's business); with it, a local {@code now} is read in that zone.
         */
        static ClockRequest of(Fields fields) {
            String now = fields.text("now", null);
            String tz = fields.text("tz", null);
            if (now == null && tz == null) {
                return null;
            }
            ZoneId zone;
            try {
                zone = tz == null ? null : RunClock.zone(tz);
            } catch (IllegalArgumentException e) {
                throw Fields.bad("/tz", e.getMessage());
            }
            try {
                return new ClockRequest(now == null ? null : instant(now, zone), zone);
            } catch (IllegalArgumentException e) {
                throw Fields.bad("/now", e.getMessage());
            }
        }

        private static Instant instant(String now, ZoneId zone) {
            Instant instant = RunClock.instant(now, zone == null ? ZoneOffset.UTC : zone);
            if (zone == null) {
                try {
                    OffsetDateTime.parse(now.trim());
                } catch (DateTimeException noOffset) {
                    throw new IllegalArgumentException("'" + now + "' has no offset: write 2026-11-26T09:00:00Z or"
                            + " 2026-11-26T09:00:00+01:00, or give tz");
                }
            }
            new RunClock(instant, zone == null ? ZoneOffset.UTC : zone); // the years 1 to 9999
            return instant;
        }
    }

    /** A request in the plan's own dialect, on the clock the run would get. */
    public RunRequest(JsonNode plan, String name, Map<String, JsonNode> inputs, RunMode mode, RunOptions options) {
        this(plan, name, inputs, mode, options, null, null);
    }

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
        Dialect dialect = dialect(fields);
        return new RunRequest(
                plan,
                name(fields, dialect),
                fields.variables("inputs"),
                mode(fields),
                options(fields),
                dialect,
                ClockRequest.of(fields));
    }

    /** The {@code name} field; by default {@code plan.json}, or {@code plan.yaml}/{@code plan.js} for a named dialect. */
    static String name(Fields fields, Dialect dialect) {
        return fields.text(
                "name",
                "plan." + (dialect == null ? "json" : dialect.extensions().get(0)));
    }

    /** The {@code dialect} field: {@code yaml}, {@code js}, {@code ppe}, {@code idyll} or {@code json}, or {@code null} when absent. */
    static Dialect dialect(Fields fields) {
        String name = fields.text("dialect", null);
        if (name == null) {
            return null;
        }
        return Dialect.named(name)
                .orElseThrow(() -> Fields.bad(
                        "/dialect", "must be \"yaml\", \"js\", \"ppe\", \"idyll\" or \"json\", not \"" + name + "\""));
    }

    /**
     * The run options of {@code allow_tools}, {@code deny_tools}, {@code approve_tools}, {@code max_steps} and
     * {@code keep_going}.
     */
    static RunOptions options(Fields fields) {
        try {
            return new RunOptions(
                    fields.strings("allow_tools"),
                    fields.strings("deny_tools"),
                    fields.strings("approve_tools"),
                    fields.integer("max_steps", 1),
                    null,
                    null,
                    fields.bool("keep_going", false));
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
        boolean timing = fields.bool("replay_timing", false);
        if (!mode.equals("replay") && timing) {
            throw Fields.bad("/replay_timing", "replay_timing goes with \"mode\": \"replay\"");
        }
        return switch (mode) {
            case "live" -> RunMode.live();
            case "dry-run" -> RunMode.dryRun(fields.bool("dry_run_conditions", false));
            case "replay" -> {
                if (cassette == null) {
                    throw Fields.bad("/cassette", "\"mode\": \"replay\" needs the cassette to replay");
                }
                try {
                    yield RunMode.replay(Cassette.fromJson(cassette, "the request's cassette"), timing);
                } catch (CassetteException e) {
                    throw Fields.bad("/cassette", e.getMessage());
                }
            }
            default -> throw Fields.bad("/mode", "must be \"live\", \"replay\" or \"dry-run\", not \"" + mode + "\"");
        };
    }
}
