package dev.planvm.temporal.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The input of a {@link PlanWorkflow}: the plan as its text, the run's inputs, which inputs are
 * secrets held by the workers (by name only: a secret's value never enters the workflow's
 * history), how the plan reaches the world, and the run's settings. Build one with {@link #builder} (or
 * change a copy with {@link #toBuilder()}).
 *
 * @param source           what the plan is called in messages (its file name)
 * @param plan             the plan document (StackVM JSON)
 * @param secrets          names of secrets the workers hold; the plan sees each as the variable
 *                         of that name holding the reference {@code «secret:NAME»}
 * @param mode             {@code live}, {@code record}, {@code replay} or {@code dry-run}
 * @param cassette         the cassette a replay answers from, else {@code null}
 * @param dryRunConditions what LLM conditions answer in a dry run
 * @param now              the run's clock, which its date/time helpers read: an ISO-8601 instant, or
 *                         {@code null} for the workflow's own time (or a replayed cassette's clock)
 * @param zone             the clock's time zone (a zone id), given with {@code now}; {@code null} for UTC
 * @param planTools        the plan tools the plan may call, each a child workflow when called (none by default)
 * @param maxPlanDepth     how deep plan tools may call plan tools ({@code null}: 8, as locally)
 * @param traceparent      the W3C {@code traceparent} of the submitting client's span, under which the
 *                         workflow's run span starts (one trace from the client to the activities), or
 *                         {@code null} (left out of the JSON): the run's span is a root
 */
public record PlanRequest(
        String source,
        String plan,
        Map<String, JsonNode> inputs,
        List<String> secrets,
        String mode,
        JsonNode cassette,
        boolean dryRunConditions,
        RunSettings settings,
        String now,
        String zone,
        List<PlanToolSource> planTools,
        Integer maxPlanDepth,

        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        String traceparent) {

    /** The modes a request may name. */
    public static final Set<String> MODES = Set.of("live", "record", "replay", "dry-run");

    @com.fasterxml.jackson.annotation.JsonCreator
    public PlanRequest {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(plan, "plan");
        inputs = inputs == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(inputs));
        secrets = secrets == null ? List.of() : List.copyOf(secrets);
        mode = mode == null ? "live" : mode;
        if (!MODES.contains(mode)) {
            throw new IllegalArgumentException("unknown mode '" + mode + "'; one of " + MODES);
        }
        if (mode.equals("replay") && cassette == null) {
            throw new IllegalArgumentException("a replay needs a cassette");
        }
        settings = settings == null ? RunSettings.defaults() : settings;
        if (now == null && zone != null) {
            throw new IllegalArgumentException("a clock's zone needs its instant");
        }
        if (now != null) {
            java.time.Instant.parse(now); // throws for a malformed instant
            java.time.ZoneId.of(zone == null ? "UTC" : zone);
        }
        planTools = planTools == null ? List.of() : List.copyOf(planTools);
        if (maxPlanDepth != null && maxPlanDepth < 0) {
            throw new IllegalArgumentException("the plan depth must not be negative, not " + maxPlanDepth);
        }
    }

    /** A live run of {@code plan} with these inputs and the default settings. */
    public static PlanRequest live(String source, String plan, Map<String, JsonNode> inputs) {
        return new PlanRequest(
                source,
                plan,
                inputs,
                List.of(),
                "live",
                null,
                false,
                RunSettings.defaults(),
                null,
                null,
                List.of(),
                null,
                null);
    }

    /** A builder of a live run of {@code plan} with these inputs and the default settings: set what differs. */
    public static Builder builder(String source, String plan, Map<String, JsonNode> inputs) {
        return live(source, plan, inputs).toBuilder();
    }

    /** A builder starting from this request. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * A request changed a few components at a time: a record of 13 components gets one builder rather than six
     * withers each repeating every argument. The request is checked as a whole when built (a replay needs its
     * cassette, a zone its instant), so no order of setters meets a half-changed, invalid request.
     */
    public static final class Builder {
        private String source;
        private String plan;
        private Map<String, JsonNode> inputs;
        private List<String> secrets;
        private String mode;
        private JsonNode cassette;
        private boolean dryRunConditions;
        private RunSettings settings;
        private String now;
        private String zone;
        private List<PlanToolSource> planTools;
        private Integer maxPlanDepth;
        private String traceparent;

        private Builder(PlanRequest from) {
            this.source = from.source;
            this.plan = from.plan;
            this.inputs = from.inputs;
            this.secrets = from.secrets;
            this.mode = from.mode;
            this.cassette = from.cassette;
            this.dryRunConditions = from.dryRunConditions;
            this.settings = from.settings;
            this.now = from.now;
            this.zone = from.zone;
            this.planTools = from.planTools;
            this.maxPlanDepth = from.maxPlanDepth;
            this.traceparent = from.traceparent;
        }

        /** The names of secrets the workers hold, which the plan sees as references. */
        public Builder secrets(List<String> names) {
            this.secrets = names;
            return this;
        }

        /** How the plan runs: steps, concurrency, limits, retries, timeouts, tool policy. */
        public Builder settings(RunSettings runSettings) {
            this.settings = runSettings;
            return this;
        }

        /** Another mode: {@code record}, {@code replay} (with the cassette's JSON) or {@code dry-run}. */
        public Builder mode(String newMode, JsonNode replayCassette, boolean conditionsAnswer) {
            this.mode = newMode;
            this.cassette = replayCassette;
            this.dryRunConditions = conditionsAnswer;
            return this;
        }

        /** The run's clock fixed: an ISO-8601 instant and a zone id ({@code --now}, {@code --tz}). */
        public Builder clock(String instant, String zoneId) {
            this.now = instant;
            this.zone = zoneId;
            return this;
        }

        /** The plan tools its plan may call, and how deep they may call each other ({@code null}: 8). */
        public Builder planTools(List<PlanToolSource> tools, Integer maxDepth) {
            this.planTools = tools;
            this.maxPlanDepth = maxDepth;
            return this;
        }

        /**
         * The client span whose W3C {@code traceparent} this is ({@code null}: none), which the workflow's run
         * span becomes a child of.
         */
        public Builder traceparent(String clientSpan) {
            this.traceparent = clientSpan;
            return this;
        }

        /** The request, checked: an {@link IllegalArgumentException} says what is wrong. */
        public PlanRequest build() {
            return new PlanRequest(
                    source,
                    plan,
                    inputs,
                    secrets,
                    mode,
                    cassette,
                    dryRunConditions,
                    settings,
                    now,
                    zone,
                    planTools,
                    maxPlanDepth,
                    traceparent);
        }
    }
}
