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
 * history), how the plan reaches the world, and the run's settings.
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

    /** A request without a client's trace context. */
    public PlanRequest(
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
            Integer maxPlanDepth) {
        this(
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
                null);
    }

    /** A request without plan tools. */
    public PlanRequest(
            String source,
            String plan,
            Map<String, JsonNode> inputs,
            List<String> secrets,
            String mode,
            JsonNode cassette,
            boolean dryRunConditions,
            RunSettings settings,
            String now,
            String zone) {
        this(source, plan, inputs, secrets, mode, cassette, dryRunConditions, settings, now, zone, List.of(), null);
    }

    /** This request with the plan tools its plan may call, and how deep they may call each other ({@code null}: 8). */
    public PlanRequest withPlanTools(List<PlanToolSource> tools, Integer maxDepth) {
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
                tools,
                maxDepth,
                traceparent);
    }

    /** A live run of {@code plan} with these inputs and the default settings. */
    public static PlanRequest live(String source, String plan, Map<String, JsonNode> inputs) {
        return new PlanRequest(
                source, plan, inputs, List.of(), "live", null, false, RunSettings.defaults(), null, null);
    }

    public PlanRequest withSecrets(List<String> names) {
        return new PlanRequest(
                source,
                plan,
                inputs,
                names,
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

    public PlanRequest withSettings(RunSettings runSettings) {
        return new PlanRequest(
                source,
                plan,
                inputs,
                secrets,
                mode,
                cassette,
                dryRunConditions,
                runSettings,
                now,
                zone,
                planTools,
                maxPlanDepth,
                traceparent);
    }

    /** This request in another mode: {@code record}, {@code replay} (with the cassette's JSON) or {@code dry-run}. */
    public PlanRequest withMode(String newMode, JsonNode replayCassette, boolean conditionsAnswer) {
        return new PlanRequest(
                source,
                plan,
                inputs,
                secrets,
                newMode,
                replayCassette,
                conditionsAnswer,
                settings,
                now,
                zone,
                planTools,
                maxPlanDepth,
                traceparent);
    }

    /** This request with the run's clock fixed: an ISO-8601 instant and a zone id ({@code --now}, {@code --tz}). */
    public PlanRequest withClock(String instant, String zoneId) {
        return new PlanRequest(
                source,
                plan,
                inputs,
                secrets,
                mode,
                cassette,
                dryRunConditions,
                settings,
                instant,
                zoneId,
                planTools,
                maxPlanDepth,
                traceparent);
    }

    /**
     * This request under the client span whose W3C {@code traceparent} this is ({@code null}: none), which the
     * workflow's run span becomes a child of.
     */
    public PlanRequest withTraceparent(String clientSpan) {
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
                clientSpan);
    }
}
