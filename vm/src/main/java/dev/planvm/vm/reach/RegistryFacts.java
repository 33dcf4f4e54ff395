package dev.planvm.vm.reach;

import dev.planvm.instructions.Plan;
import dev.planvm.instructions.reach.ToolFacts;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolNames;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.ApprovalRules;
import dev.planvm.vm.plantools.PlanTool;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link ToolFacts} of a tool registry, for the reach analysis ({@link dev.planvm.instructions.reach.PlanReach}):
 * each name a plan calls read through the registry's canonical names (as every rule reads it), its effect from
 * {@link Tool#hasSideEffects()} and {@link Tool#isDestructive()}, its hosts from {@link Tool#hosts()}, approval from
 * the approval rules, and the plan of a plan tool — a {@link PlanTool} of the registry, or one of {@code planTools}
 * (a command that checks plans without an engine loads them so). A tool the registry does not have is unknown, but for
 * planvm's own tools, which only read ({@value #READ_ONLY_NOTE}): a check without an LLM or a knowledge base
 * configured still knows what they do.
 */
public final class RegistryFacts implements ToolFacts {

    static final String READ_ONLY_NOTE =
            "llm_generate, vector_search, retrieve_knowledge_graph, human_input and sleep, when no tool of that name is"
                    + " installed";

    /** planvm's built-in tools: none changes the world. */
    private static final java.util.Set<String> BUILT_IN =
            java.util.Set.of("llm_generate", "vector_search", "retrieve_knowledge_graph", "human_input", "sleep");

    private final ToolRegistry tools;
    private final ApprovalRules approvals;
    private final Map<String, Plan> planTools;
    private final boolean setUp;
    private final ToolNames names;

    private RegistryFacts(ToolRegistry tools, ApprovalRules approvals, Map<String, Plan> planTools, boolean setUp) {
        this.tools = Objects.requireNonNull(tools, "tools");
        this.approvals = Objects.requireNonNull(approvals, "approvals");
        this.planTools = Map.copyOf(planTools);
        this.setUp = setUp;
        this.names = setUp ? tools.canonicalNames() : tools.knownCanonicalNames();
    }

    /**
     * The facts of {@code tools} under {@code approvals}.
     *
     * @param planTools plan tools by name, besides those of the registry
     * @param setUp     whether a tool set up on first use may be set up to learn about it (a live run would set it up
     *                  anyway); false: only what is known without starting anything
     */
    public static RegistryFacts of(
            ToolRegistry tools, ApprovalRules approvals, Map<String, Plan> planTools, boolean setUp) {
        return new RegistryFacts(tools, approvals, planTools, setUp);
    }

    @Override
    public Fact fact(String name) {
        String canonical = setUp ? tools.canonicalName(name) : tools.knownCanonicalName(name);
        Optional<Tool> tool = setUp ? tools.find(name) : tools.findResolved(name);
        Plan plan = tool.filter(PlanTool.class::isInstance)
                .map(t -> ((PlanTool) t).plan())
                .orElse(planTools.get(canonical));
        Effect effect = tool.map(RegistryFacts::effect)
                .orElse(BUILT_IN.contains(canonical) && plan == null ? Effect.NONE : Effect.UNKNOWN);
        return new Fact(
                canonical,
                effect,
                tool.map(Tool::hosts).orElse(java.util.List.of()),
                approvals.matches(canonical, names),
                plan);
    }

    @Override
    public boolean matches(String rule, String canonicalName) {
        return names.matches(rule, canonicalName);
    }

    private static Effect effect(Tool tool) {
        if (tool.isDestructive()) {
            return Effect.DESTRUCTIVE;
        }
        return tool.hasSideEffects() ? Effect.SIDE_EFFECTS : Effect.NONE;
    }
}
