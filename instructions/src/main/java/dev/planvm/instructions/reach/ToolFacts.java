package dev.planvm.instructions.reach;

import dev.planvm.instructions.Plan;
import dev.planvm.json.Globs;
import java.util.List;
import java.util.Objects;

/**
 * What the reach analysis ({@link PlanReach}) needs to know about the tools a plan calls, and nothing of
 * how they run: for each name a plan calls, its canonical name, what a call may do to the world, the
 * hosts it may reach, whether an approval rule gates it, and, for a plan tool, its plan (which the
 * analysis expands). The engine supplies one built from its tool registry and approval rules; tests and
 * tools without an engine write their own.
 */
public interface ToolFacts {

    /** What is known of the tool a plan calls as {@code name} (never null: an unknown tool is {@link Fact#unknown}). */
    Fact fact(String name);

    /**
     * Whether a rule the user wrote (a tool name or a glob of the policy: {@code llm_generate}, {@code mail:*})
     * matches the tool whose canonical name is {@code canonicalName}. The default matches the glob against the
     * whole name ({@code *} any run of characters, {@code ?} one); an engine matches as its approval rules do.
     */
    default boolean matches(String rule, String canonicalName) {
        return Globs.matches(rule, canonicalName);
    }

    /** What a call of a tool may do outside the run, from least to most. */
    enum Effect {
        /** Reads only (retrieval, an LLM answer): calling it changes nothing. */
        NONE,
        /** Changes something outside the run (sends mail, writes a row): {@code Tool.hasSideEffects()}. */
        SIDE_EFFECTS,
        /** May destroy or overwrite something (an MCP tool's {@code destructiveHint}, an HTTP DELETE). */
        DESTRUCTIVE,
        /** Not known here (the tool is not installed, or its server was not started): taken as side effects. */
        UNKNOWN;

        /** Whether a call may change the world, as far as a check that must be sound can tell. */
        public boolean mayChangeTheWorld() {
            return this != NONE;
        }

        /** The JSON and table spelling: {@code none}, {@code side_effects}, {@code destructive}, {@code unknown}. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One tool as the analysis sees it.
     *
     * @param canonicalName the name every rule matches ({@code mail:send_mail} for a call spelled {@code send_mail})
     * @param effect        what a call may do
     * @param hosts         the hosts ({@code host[:port]}) a call may reach; a host computed from a param is written as
     *                      its template ({@code ${region}.api.example.com}); empty when none or not an HTTP tool
     * @param approval      whether an approval rule gates every call of it (a reviewer decides each call first)
     * @param plan          the plan of a plan tool, which the analysis expands; {@code null} for any other tool
     */
    record Fact(String canonicalName, Effect effect, List<String> hosts, boolean approval, Plan plan) {
        public Fact {
            Objects.requireNonNull(canonicalName, "canonicalName");
            Objects.requireNonNull(effect, "effect");
            hosts = List.copyOf(hosts);
        }

        /** A tool nothing is known of: its name as written, effect {@link Effect#UNKNOWN}. */
        public static Fact unknown(String name) {
            return new Fact(name, Effect.UNKNOWN, List.of(), false, null);
        }

        /** Whether this is a plan tool, whose plan the analysis expands. */
        public boolean isPlanTool() {
            return plan != null;
        }
    }

    /** Facts that know no tool: every call is of an {@link Effect#UNKNOWN} tool, none is gated. */
    ToolFacts NONE = Fact::unknown;
}
