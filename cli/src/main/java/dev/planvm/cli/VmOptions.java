package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.dialects.Dialect;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanSignature;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * Every option that shapes the VM of a command that runs plans ({@code run}, {@code batch},
 * {@code resume}, {@code rerun}): inputs and limits ({@link RunSettings}), how calls overlap
 * ({@link ConcurrencyOptions}) and which tools may be called and how they are retried
 * ({@link CallPolicyOptions}), and what their plans must not be able to do ({@link ReachPolicyOptions}); runs send
 * OpenTelemetry spans when the environment asks ({@link Telemetry}).
 */
final class VmOptions {

    @CommandLine.Mixin
    private RunSettings settings;

    @CommandLine.Mixin
    private ConcurrencyOptions concurrency;

    @CommandLine.Mixin
    private CallPolicyOptions policy;

    @CommandLine.Mixin
    private ConfigOptions config;

    @CommandLine.Mixin
    private ReachPolicyOptions reach;

    @CommandLine.Option(
            names = "--reveal-secrets",
            description =
                    "Print final answers as they are, even when they hold a secret value (by default such an answer "
                            + "is printed with every secret replaced by «secret:NAME»).")
    private boolean revealSecrets;

    @CommandLine.Option(
            names = "--max-plan-depth",
            paramLabel = "N",
            description = "How deep plan tools may call other plan tools (one that calls a plan tool which calls"
                    + " none is 1 deep): a deeper chain is refused before the run starts (default: 8).")
    private Integer maxPlanDepth;

    private LoadedTools loaded;
    private List<Plan> imported = List.of();

    /**
     * The plans this command runs, so that the scripts they import (PPE {@code import:}) are plan
     * tools of the VM {@link #builder} makes.
     *
     * @param dialect {@code --dialect}, or {@code null} for each file's extension
     */
    VmOptions planFiles(List<String> files, Dialect dialect) {
        imported = PlanInput.importedPlanTools(files, dialect);
        return this;
    }

    /**
     * Stored run {@code runId}'s plan file ({@code resume}, {@code rerun}, {@code approve},
     * {@code answer}), so that a PPE script's imports are plan tools again as they were for
     * {@code run}: the script is compiled again from where the run was started from (its path as
     * stored); a run the store does not hold, or whose script is gone, adds none.
     */
    VmOptions storedRun(DurableStoreOptions store, Map<String, String> environment, String runId) {
        String source = store.planSource(environment, runId);
        return source == null ? this : planFiles(List.of(source), null);
    }

    /**
     * The plan tools every run on Temporal sends with its plan: the plans of the {@code --plan-tools}
     * directories and the scripts their PPE scripts import.
     *
     * @throws dev.planvm.vm.plantools.PlanToolsException when a plan-tool file does not load
     */
    List<Plan> temporalPlanTools() {
        List<Path> dirs = config.planToolDirs();
        List<Plan> all = new java.util.ArrayList<>(
                dev.planvm.vm.plantools.PlanTools.load(dirs, PlanInput::isPlanToolFile, PlanInput::loadPlanTool));
        all.addAll(PlanInput.planToolDirImports(dirs));
        return all;
    }

    /**
     * The plan tools a run of {@code file} on Temporal sends with its plan: {@code fromDirs}
     * ({@link #temporalPlanTools()}) and the scripts {@code file} imports, each once.
     */
    List<Plan> temporalPlanTools(String file, List<Plan> fromDirs) {
        List<Path> dirs = config.planToolDirs();
        Map<String, Plan> all = new LinkedHashMap<>();
        for (Plan plan : fromDirs) {
            all.put(
                    plan.source() + "\u0000"
                            + plan.signature().map(PlanSignature::name).orElse(""),
                    plan);
        }
        for (Plan plan : PlanInput.importedPlanTools(List.of(file), null, dirs)) {
            all.putIfAbsent(
                    plan.source() + "\u0000"
                            + plan.signature().map(PlanSignature::name).orElse(""),
                    plan);
        }
        return List.copyOf(all.values());
    }

    /** The {@code --max-plan-depth} given, or {@code null}: the default (usage error when out of range). */
    Integer maxPlanDepth(CommandLine commandLine) {
        if (maxPlanDepth != null && (maxPlanDepth < 0 || maxPlanDepth > 1000)) {
            throw new CommandLine.ParameterException(
                    commandLine, "--max-plan-depth must be between 0 and 1000, not " + maxPlanDepth);
        }
        return maxPlanDepth;
    }

    /** The {@code --var} inputs (usage errors for malformed ones). */
    Map<String, JsonNode> inputs(CommandLine commandLine) {
        return settings.inputs(commandLine);
    }

    /** The {@code --now} and {@code --tz} options. */
    ClockOptions clock() {
        return settings.clock();
    }

    /** {@code --var}, {@code --max-steps}, {@code --strict}, {@code --secret}, {@code --now}, {@code --tz} ... */
    RunSettings settings() {
        return settings;
    }

    /** {@code --sequential}, {@code --max-in-flight}, {@code --tool-concurrency}. */
    ConcurrencyOptions concurrency() {
        return concurrency;
    }

    /** The tool policy, approval, retry and timeout options. */
    CallPolicyOptions policy() {
        return policy;
    }

    /** Whether {@code --reveal-secrets} was given. */
    boolean revealSecrets() {
        return revealSecrets;
    }

    /** The {@code --secret} values. */
    Map<String, String> secrets(Map<String, String> environment, CommandLine commandLine) {
        return settings.secrets(environment, commandLine);
    }

    /**
     * A VM builder with the configured tools (and the LLM), these secrets and every option applied; the
     * VM it builds closes the tools (stops MCP servers).
     */
    PlanVmBuilder builder(Map<String, String> environment, Map<String, String> secrets, CommandLine commandLine) {
        PlanVmBuilder builder =
                policy.applyTo(concurrency.applyTo(settings.applyTo(PlanVm.builder()), commandLine), commandLine);
        loaded = config.load(environment, secrets);
        Telemetry telemetry = Telemetry.of(commandLine);
        if (telemetry.enabled()) { // checked here: a plain run loads no OpenTelemetry class
            builder.openTelemetry(telemetry.openTelemetry());
        }
        Integer depth = maxPlanDepth(commandLine);
        if (depth != null) {
            builder.maxPlanDepth(depth);
        }
        return builder.secrets(secrets)
                .reachPolicy(reach.policy(commandLine))
                .tools(loaded, policy.toolPolicy(commandLine))
                .planToolFiles(PlanInput::isPlanToolFile, PlanInput::loadPlanTool)
                .planTools(withDirImports(imported, loaded.planToolDirs()));
    }

    /** {@code imported} and what the PPE scripts of the plan-tool directories import, each plan tool once. */
    private static List<Plan> withDirImports(List<Plan> imported, List<Path> planToolDirs) {
        if (planToolDirs.isEmpty()) {
            return imported;
        }
        Map<String, Plan> all = new LinkedHashMap<>();
        for (Plan plan : imported) {
            all.put(
                    plan.source() + "\u0000"
                            + plan.signature().map(PlanSignature::name).orElse(""),
                    plan);
        }
        for (Plan plan : PlanInput.planToolDirImports(planToolDirs)) {
            all.putIfAbsent(
                    plan.source() + "\u0000"
                            + plan.signature().map(PlanSignature::name).orElse(""),
                    plan);
        }
        return List.copyOf(all.values());
    }

    /** The tools the last {@link #builder} loaded (what is unavailable and why), or {@code null} before. */
    LoadedTools loaded() {
        return loaded;
    }

    /**
     * Checks every option as {@link #builder} would, without loading tools: what {@code --temporal}
     * does (the workers hold the tools); a bad value is a usage error.
     */
    void check(CommandLine commandLine) {
        policy.applyTo(concurrency.applyTo(settings.applyTo(PlanVm.builder()), commandLine), commandLine);
        reach.policy(commandLine);
    }

    /**
     * The command's VM; from here on, the process's log lines are redacted with its secrets (the
     * one place a command changes process-wide logging).
     */
    PlanVm build(Map<String, String> environment, Map<String, String> secrets, CommandLine commandLine) {
        return build(environment, secrets, commandLine, null);
    }

    /** {@link #build(Map, Map, CommandLine)} with a reviewer who decides approvals (e.g. a prompt), or {@code null}. */
    PlanVm build(
            Map<String, String> environment, Map<String, String> secrets, CommandLine commandLine, Approvals reviewer) {
        PlanVm vm =
                builder(environment, secrets, commandLine).approvals(reviewer).build();
        RedactingLogs.use(vm.redactor());
        return vm;
    }
}
