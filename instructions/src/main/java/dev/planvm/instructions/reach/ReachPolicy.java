package dev.planvm.instructions.reach;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * What a plan must not be able to do, checked on every path before it runs ({@link PlanReach#analyze}): calls that
 * may change the world must be gated by an approval rule ({@code requireApprovalFor}), a tool may be called at most so
 * often on one path ({@code maxCalls}), and a source of values must not reach a tool ({@code denyFlows}). The
 * {@code policy} section of {@code planvm.json} and the {@code --require-approval-for}, {@code --max-calls},
 * {@code --deny-flow} flags say it; both apply together ({@link #and}).
 *
 * <pre>{@code
 * "policy": {"requireApprovalFor": ["side_effects"], "maxCalls": {"llm_generate": 20},
 *            "denyFlows": [{"from": "secret:*", "to": "http:*"}]}
 * }</pre>
 *
 * @param requireApprovalFor {@value #SIDE_EFFECTS} (every call that may change the world: side effects, destructive,
 *                           or unknown) and/or {@value #DESTRUCTIVE} (destructive or unknown ones)
 * @param maxCalls           tool name or glob → the most calls of each tool it matches on any path
 * @param denyFlows          sources that must not reach tools
 */
public record ReachPolicy(Set<String> requireApprovalFor, Map<String, Long> maxCalls, List<DenyFlow> denyFlows) {

    /** {@code requireApprovalFor} value: every call that may change the world. */
    public static final String SIDE_EFFECTS = "side_effects";
    /** {@code requireApprovalFor} value: every call that may destroy or overwrite something. */
    public static final String DESTRUCTIVE = "destructive";

    /** The {@code planvm.json} section. */
    public static final String SECTION = "policy";

    /** No rule. */
    public static final ReachPolicy NONE = new ReachPolicy(Set.of(), Map.of(), List.of());

    private static final List<String> KEYS = List.of("requireApprovalFor", "maxCalls", "denyFlows");
    private static final List<String> KINDS = List.of("literal", "input", "secret", "llm", "tool", "unknown");

    public ReachPolicy {
        requireApprovalFor = Set.copyOf(requireApprovalFor);
        for (String value : requireApprovalFor) {
            if (!value.equals(SIDE_EFFECTS) && !value.equals(DESTRUCTIVE)) {
                throw new IllegalArgumentException("requireApprovalFor takes '" + SIDE_EFFECTS + "' or '" + DESTRUCTIVE
                        + "', not '" + value + "'");
            }
        }
        maxCalls = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(maxCalls));
        maxCalls.forEach((tool, limit) -> {
            checkRule(tool, "a maxCalls key");
            if (limit == null || limit < 0) {
                throw new IllegalArgumentException("maxCalls of '" + tool + "' must be a number of calls, 0 or more");
            }
        });
        denyFlows = List.copyOf(denyFlows);
    }

    /**
     * A source that must not reach a tool.
     *
     * @param from {@code KIND} or {@code KIND:GLOB}, KIND one of {@code literal}, {@code input}, {@code secret} (GLOB over
     *             their names), {@code llm}, {@code tool} (GLOB over the tool names whose output it is; {@code tool}
     *             includes LLM calls), {@code unknown}
     * @param to   a tool name or glob, matched like approval rules; {@code condition_prompt} for LLM-decided jumps
     */
    public record DenyFlow(String from, String to) {
        public DenyFlow {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            int colon = from.indexOf(':');
            String kind = colon < 0 ? from : from.substring(0, colon);
            if (!KINDS.contains(kind)) {
                throw new IllegalArgumentException("a denyFlows 'from' is KIND or KIND:GLOB with KIND one of "
                        + String.join(", ", KINDS) + ", not '" + from + "'");
            }
            if (colon >= 0 && from.length() == colon + 1) {
                throw new IllegalArgumentException("denyFlows 'from' '" + from + "' has nothing after ':'");
            }
            checkRule(to, "a denyFlows 'to'");
        }

        /** {@code FROM=TO}, the flag's form ({@code --deny-flow 'secret:*=http:*'}). */
        public static DenyFlow parse(String text) {
            int equals = text.indexOf('=');
            if (equals < 0) {
                throw new IllegalArgumentException(
                        "a denied flow is FROM=TO (e.g. 'secret:*=http:*'), not '" + text + "'");
            }
            return new DenyFlow(
                    text.substring(0, equals).strip(),
                    text.substring(equals + 1).strip());
        }

        /** The kind of source it names. */
        Reach.Kind kind() {
            int colon = from.indexOf(':');
            return Reach.Kind.valueOf((colon < 0 ? from : from.substring(0, colon)).toUpperCase(Locale.ROOT));
        }

        /** The glob over names ({@code *} when the rule names only the kind). */
        String glob() {
            int colon = from.indexOf(':');
            return colon < 0 ? "*" : from.substring(colon + 1);
        }

        @Override
        public String toString() {
            return from + " → " + to;
        }
    }

    /** The JSON Schema (draft 2020-12) of the {@value #SECTION} section: a fresh copy. */
    public static JsonNode schema() {
        return Schemas.read("policy.schema.json");
    }

    /** Whether the policy has no rule. */
    public boolean isEmpty() {
        return requireApprovalFor.isEmpty() && maxCalls.isEmpty() && denyFlows.isEmpty();
    }

    /** Both policies: the union of the requirements and denied flows, the lower of two limits for one key. */
    public ReachPolicy and(ReachPolicy other) {
        Set<String> approval = new LinkedHashSet<>(requireApprovalFor);
        approval.addAll(other.requireApprovalFor);
        Map<String, Long> limits = new LinkedHashMap<>(maxCalls);
        other.maxCalls.forEach((tool, limit) -> limits.merge(tool, limit, Math::min));
        List<DenyFlow> flows = new ArrayList<>(denyFlows);
        other.denyFlows.stream().filter(f -> !flows.contains(f)).forEach(flows::add);
        return new ReachPolicy(approval, limits, flows);
    }

    /**
     * Reads the {@code policy} section: every problem goes to {@code problems} (a JSON pointer under {@code pointer} and
     * a sentence), and what was right is kept.
     */
    public static ReachPolicy read(JsonNode section, String pointer, BiConsumer<String, String> problems) {
        if (section == null || !section.isObject()) {
            problems.accept(pointer, "must be an object with requireApprovalFor, maxCalls and denyFlows");
            return NONE;
        }
        section.fieldNames().forEachRemaining(key -> {
            if (!KEYS.contains(key)) {
                problems.accept(
                        pointer + "/" + key, "unknown key '" + key + "'; known keys: " + String.join(", ", KEYS));
            }
        });
        Set<String> approval = new LinkedHashSet<>();
        JsonNode require = section.get("requireApprovalFor");
        if (require != null) {
            if (!require.isArray()) {
                problems.accept(pointer + "/requireApprovalFor", "must be an array: [\"side_effects\"]");
            } else {
                for (int i = 0; i < require.size(); i++) {
                    String value = require.get(i).asText();
                    if (require.get(i).isTextual() && (value.equals(SIDE_EFFECTS) || value.equals(DESTRUCTIVE))) {
                        approval.add(value);
                    } else {
                        problems.accept(
                                pointer + "/requireApprovalFor/" + i,
                                "must be \"" + SIDE_EFFECTS + "\" or \"" + DESTRUCTIVE + "\", not " + require.get(i));
                    }
                }
            }
        }
        Map<String, Long> limits = new LinkedHashMap<>();
        JsonNode max = section.get("maxCalls");
        if (max != null) {
            if (!max.isObject()) {
                problems.accept(pointer + "/maxCalls", "must be an object: tool name or glob → most calls");
            } else {
                max.properties().forEach(field -> {
                    JsonNode limit = field.getValue();
                    String at = pointer + "/maxCalls/"
                            + field.getKey().replace("~", "~0").replace("/", "~1");
                    if (!limit.canConvertToLong() || !limit.isIntegralNumber() || limit.asLong() < 0) {
                        problems.accept(at, "must be a whole number of calls, 0 or more, not " + limit);
                    } else if (field.getKey().isBlank()) {
                        problems.accept(at, "a maxCalls key names a tool (a name or a glob)");
                    } else {
                        limits.put(field.getKey(), limit.asLong());
                    }
                });
            }
        }
        List<DenyFlow> flows = new ArrayList<>();
        JsonNode deny = section.get("denyFlows");
        if (deny != null) {
            if (!deny.isArray()) {
                problems.accept(pointer + "/denyFlows", "must be an array of {\"from\": ..., \"to\": ...}");
            } else {
                for (int i = 0; i < deny.size(); i++) {
                    JsonNode flow = deny.get(i);
                    String at = pointer + "/denyFlows/" + i;
                    if (!flow.isObject()
                            || !flow.path("from").isTextual()
                            || !flow.path("to").isTextual()) {
                        problems.accept(at, "must be {\"from\": \"secret:*\", \"to\": \"http:*\"}");
                        continue;
                    }
                    try {
                        flows.add(new DenyFlow(
                                flow.get("from").asText(), flow.get("to").asText()));
                    } catch (IllegalArgumentException e) {
                        problems.accept(at, e.getMessage());
                    }
                }
            }
        }
        return new ReachPolicy(approval, limits, flows);
    }

    private static void checkRule(String rule, String what) {
        if (rule == null || rule.isBlank() || !rule.strip().equals(rule)) {
            throw new IllegalArgumentException(
                    what + " names a tool (a name or a glob, no spaces around it), not '" + rule + "'");
        }
    }
}
