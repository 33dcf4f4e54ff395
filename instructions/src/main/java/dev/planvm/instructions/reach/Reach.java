package dev.planvm.instructions.reach;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a plan can do, found before it runs ({@link PlanReach#analyze}): every tool reachable on some path from
 * the start, plan tools expanded, with its call sites, the most calls on any path, whether each call that may
 * change the world is behind an approval rule, where each param's value can come from, and the hosts HTTP tools
 * reach; the jumps whose way is not known statically (both ways are taken); and, when a policy was given, what
 * breaks it. {@link #toJson()} is the stable {@code planvm-reach/1} document (its JSON Schema is the resource
 * {@code dev/planvm/instructions/reach/reach.schema.json}); {@link #table()} is the readable form.
 *
 * @param source     where the plan came from
 * @param complete   false when part of the plan could not be analysed (a custom instruction, a plan tool expansion
 *                   too large): {@link #notes} says which, and the report covers the rest
 * @param tools      each reachable tool (and {@code condition_prompt} for LLM-decided jumps), by name
 * @param hosts      every host an HTTP or OpenAPI tool of the plan may reach, sorted
 * @param branches   the reachable jumps whose way is not known before the run: both ways are analysed
 * @param notes      what the report could not know, one sentence each
 * @param violations what breaks the policy checked, if any ({@link ReachPolicy})
 */
public record Reach(
        String source,
        boolean complete,
        List<ToolReach> tools,
        List<String> hosts,
        List<Branch> branches,
        List<String> notes,
        List<Violation> violations) {

    /** The format name in {@link #toJson()}. */
    public static final String FORMAT = "planvm-reach/1";

    /** The pseudo-tool an LLM-decided jump ({@code condition_prompt}) is listed as: its prompt goes to an LLM. */
    public static final String CONDITION = "condition_prompt";

    public Reach {
        Objects.requireNonNull(source, "source");
        tools = List.copyOf(tools);
        hosts = List.copyOf(hosts);
        branches = List.copyOf(branches);
        notes = List.copyOf(notes);
        violations = List.copyOf(violations);
    }

    /** The JSON Schema (draft 2020-12) of {@link #toJson()}: a fresh copy. */
    public static com.fasterxml.jackson.databind.JsonNode schema() {
        return Schemas.read("reach.schema.json");
    }

    /** The tool of this name ({@link ToolReach#tool}), if the plan reaches it. */
    public java.util.Optional<ToolReach> tool(String name) {
        return tools.stream().filter(t -> t.tool().equals(name)).findFirst();
    }

    /** The {@code planvm-reach/1} document. */
    public ObjectNode toJson() {
        return ReachJson.of(this);
    }

    /** The report as a readable table, one block per tool. */
    public String table() {
        return ReachTable.of(this);
    }

    /**
     * A plan-tool call on the way to a site: the call at {@code seqNo} (of the plan one level up) of plan tool
     * {@code tool}.
     */
    public record Frame(String tool, int seqNo) {
        public Frame {
            Objects.requireNonNull(tool, "tool");
        }
    }

    /**
     * An instruction of the expanded plan: {@code seqNo} of the plan reached through {@code via} (empty: the plan
     * itself; else the plan-tool calls leading to it, outermost first).
     */
    public record Site(List<Frame> via, int seqNo) {
        public Site {
            via = List.copyOf(via);
        }

        /** {@code seq_no 5}, or {@code seq_no 2 of plan tool notify (called at seq_no 4)}. */
        public String describe() {
            StringBuilder text = new StringBuilder("seq_no ").append(seqNo);
            for (int i = via.size() - 1; i >= 0; i--) {
                Frame frame = via.get(i);
                text.append(" of plan tool ")
                        .append(frame.tool())
                        .append(" (called at seq_no ")
                        .append(frame.seqNo())
                        .append(')');
            }
            return text.toString();
        }

        /** The short form used in paths: {@code 5}, or {@code notify@4/2}. */
        public String shortForm() {
            StringBuilder text = new StringBuilder();
            for (Frame frame : via) {
                text.append(frame.tool()).append('@').append(frame.seqNo()).append('/');
            }
            return text.append(seqNo).toString();
        }
    }

    /** Where a value can come from. */
    public enum Kind {
        /** Written in the plan. */
        LITERAL,
        /** A variable the run is given ({@code --var}). */
        INPUT,
        /** A secret the run is given ({@code --secret}). */
        SECRET,
        /** The answer of an LLM call ({@code llm_generate}). */
        LLM,
        /** The output (or the error, {@code last_error}) of another tool's call. */
        TOOL,
        /** What a custom instruction wrote: not known statically. */
        UNKNOWN;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One source of a value.
     *
     * @param kind where it comes from
     * @param name the input or secret's name, the tool's name; {@code null} for a literal
     * @param site the call (or custom instruction) that produced it; {@code null} for literals, inputs and secrets
     */
    public record Origin(Kind kind, String name, Site site) {
        public Origin {
            Objects.requireNonNull(kind, "kind");
        }

        /** {@code secret API_KEY}, {@code the output of llm_generate at seq_no 3}, {@code a literal}. */
        public String describe() {
            return switch (kind) {
                case LITERAL -> "a literal";
                case INPUT -> "input " + name;
                case SECRET -> "secret " + name;
                case LLM, TOOL -> "the output of " + name + " at " + site.describe();
                case UNKNOWN -> "what the custom instruction at " + site.describe() + " wrote";
            };
        }
    }

    /**
     * How often a tool can be called on one path of a run.
     *
     * @param calls      calls that happen once each
     * @param perElement calls made once per element of a {@code for_each} list whose length is not known statically
     * @param loop       when a loop can repeat a call: the loop (the sites of one cycle, its start repeated at the end);
     *                   {@code null} when bounded
     */
    public record Count(long calls, long perElement, List<Site> loop) {

        /** What one {@code for_each} may map at most: its list's length is capped at run time. */
        public static final long MAX_ELEMENTS = dev.planvm.instructions.ForEach.MAX_ELEMENTS;

        public static final Count ZERO = new Count(0, 0, null);
        public static final Count ONE = new Count(1, 0, null);

        public Count {
            loop = loop == null ? null : List.copyOf(loop);
        }

        /** Whether a loop can repeat it without a bound known before the run. */
        public boolean unbounded() {
            return loop != null;
        }

        /** The most calls: {@code calls + perElement × }{@value dev.planvm.instructions.ForEach#MAX_ELEMENTS}; {@link Long#MAX_VALUE} when unbounded. */
        public long atMost() {
            if (unbounded()) {
                return Long.MAX_VALUE;
            }
            return saturated(calls, saturatedTimes(perElement, MAX_ELEMENTS));
        }

        Count plus(Count other) {
            if (unbounded()) {
                return this;
            }
            if (other.unbounded()) {
                return other;
            }
            return new Count(saturated(calls, other.calls), saturated(perElement, other.perElement), null);
        }

        Count times(long n) {
            return unbounded() ? this : new Count(saturatedTimes(calls, n), saturatedTimes(perElement, n), null);
        }

        /** This many calls for each element of a list of unknown length. */
        Count perElementOfUnknownList() {
            return unbounded() ? this : new Count(0, atMost(), null);
        }

        /** {@code 3}, {@code 2 + 1 per element}, {@code unbounded}. */
        public String describe() {
            if (unbounded()) {
                return "unbounded";
            }
            if (perElement == 0) {
                return String.valueOf(calls);
            }
            return (calls == 0 ? "" : calls + " + ") + perElement + " per element";
        }

        static long saturated(long a, long b) {
            long sum = a + b;
            return sum < 0 ? Long.MAX_VALUE : sum;
        }

        static long saturatedTimes(long a, long b) {
            if (a == 0 || b == 0) {
                return 0;
            }
            return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
        }
    }

    /**
     * One call site of a tool.
     *
     * @param site     where
     * @param forEach  whether it calls once per element of a {@code for_each} list
     * @param approved whether an approval rule gates it (its own tool's, or an enclosing plan-tool call's)
     * @param params   each param (a top-level key of the params; {@code *} for params given as one value) and where its
     *                 value can come from
     */
    public record Call(Site site, boolean forEach, boolean approved, Map<String, List<Origin>> params) {
        public Call {
            Objects.requireNonNull(site, "site");
            params = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(params));
        }
    }

    /** What kind of entry a {@link ToolReach} is. */
    public enum ToolKind {
        TOOL,
        PLAN_TOOL,
        /** The LLM-decided jumps: not a tool, but their prompt and context go to an LLM. */
        CONDITION;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One reachable tool.
     *
     * @param tool       its canonical name
     * @param kind       a tool, a plan tool (expanded: what it calls is listed too), or the LLM conditions
     * @param effect     what a call may do; a plan tool's is the most any call it reaches may do
     * @param approval   whether an approval rule gates its calls
     * @param hosts      the hosts its calls may reach
     * @param calls      its call sites, in the expanded plan
     * @param maxCalls   the most calls on any path of a run
     * @param unapproved when a call may change the world and some path reaches it with no approval on the way: that
     *                   path (sites from the start to the call); {@code null} otherwise
     */
    public record ToolReach(
            String tool,
            ToolKind kind,
            ToolFacts.Effect effect,
            boolean approval,
            List<String> hosts,
            List<Call> calls,
            Count maxCalls,
            List<Site> unapproved) {
        public ToolReach {
            Objects.requireNonNull(tool, "tool");
            hosts = List.copyOf(hosts);
            calls = List.copyOf(calls);
            unapproved = unapproved == null ? null : List.copyOf(unapproved);
        }
    }

    /**
     * A jump whose way is not known before the run: both ways are analysed.
     *
     * @param decidedBy {@code llm} ({@code condition_prompt}) or {@code condition} (a local expression of run-time values)
     */
    public record Branch(Site site, String decidedBy) {}

    /**
     * What breaks a policy.
     *
     * @param rule    the policy key: {@code requireApprovalFor}, {@code maxCalls} or {@code denyFlows}
     * @param site    the call concerned, or {@code null}
     * @param message one sentence starting with the site ({@code seq_no 5: ...}), naming the path
     */
    public record Violation(String rule, Site site, String message) {
        public Violation {
            Objects.requireNonNull(rule, "rule");
            Objects.requireNonNull(message, "message");
        }
    }
}
