package dev.planvm.cli;

import dev.planvm.dialects.Dialect;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanSignature;
import dev.planvm.instructions.reach.PlanReach;
import dev.planvm.instructions.reach.Reach;
import dev.planvm.instructions.reach.ReachPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.ApprovalRules;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.vm.reach.RegistryFacts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code validate} adds for the reach of plans ({@code --reach}, and the policy of {@code --require-approval-for},
 * {@code --max-calls}, {@code --deny-flow} and the configuration's {@code policy} section): each valid plan analysed
 * with the configured tools as far as they are known without starting anything (an MCP server's tools are not: they
 * count as unknown), its plan tools and the scripts it imports expanded, the approval rules of the configuration and of
 * {@code --approve-tools}; a violation of the policy is an error of the plan.
 */
final class ValidateReach {

    private final ToolRegistry known;
    private final ApprovalRules approvals;
    private final Map<String, Plan> planTools;
    private final List<Path> planToolDirs;
    private final Set<String> secrets;
    private final ReachPolicy policy;
    private final boolean report;

    /**
     * @param loaded      the configured tools, their approval rules and policy section
     * @param planTools   the plans of the plan-tool directories
     * @param approveTools {@code --approve-tools}
     * @param flags       the policy of the flags
     * @param report      whether {@code --reach} asks for the report
     */
    ValidateReach(
            LoadedTools loaded,
            ToolRegistry known,
            List<Plan> planTools,
            List<String> approveTools,
            Set<String> secrets,
            ReachPolicy flags,
            boolean report) {
        this.known = known;
        this.approvals = ApprovalRules.of(loaded.approveTools()).and(ApprovalRules.of(approveTools));
        this.planTools = new LinkedHashMap<>();
        planTools.forEach(plan ->
                this.planTools.put(plan.signature().map(PlanSignature::name).orElseThrow(), plan));
        this.planToolDirs = loaded.planToolDirs();
        this.secrets = Set.copyOf(secrets);
        ReachPolicy configured = loaded.setup()
                .section(ReachPolicy.SECTION)
                .map(section -> ReachPolicy.read(section, "", (pointer, message) -> {}))
                .orElse(ReachPolicy.NONE);
        this.policy = configured.and(flags);
        this.report = report;
    }

    /** Whether there is anything to do: a report asked for, or a policy to check. */
    boolean active() {
        return report || !policy.isEmpty();
    }

    /** The names {@code --secret} gives. */
    Set<String> secrets() {
        return secrets;
    }

    /** Whether the report is printed. */
    boolean report() {
        return report;
    }

    /** The reach of the plan of {@code file} (valid), with the scripts it imports as plan tools. */
    Reach analyze(Plan plan, String file, Dialect dialect) {
        Map<String, Plan> tools = new LinkedHashMap<>(planTools);
        if (!file.equals("-")) {
            for (Plan imported : PlanInput.importedPlanTools(List.of(file), dialect, planToolDirs)) {
                imported.signature().map(PlanSignature::name).ifPresent(name -> tools.putIfAbsent(name, imported));
            }
        }
        return PlanReach.analyze(plan, RegistryFacts.of(known, approvals, tools, false), secrets, policy);
    }

    /** {@code result} refused when {@code reach} breaks the policy: one error per violation, its path named. */
    static LoadResult refuse(LoadResult result, Reach reach) {
        if (reach.violations().isEmpty()) {
            return result;
        }
        List<Diagnostic> diagnostics = new ArrayList<>(result.diagnostics());
        reach.violations().forEach(v -> diagnostics.add(Diagnostic.error(null, "", v.message())));
        return new LoadResult(result.source(), null, diagnostics);
    }
}
