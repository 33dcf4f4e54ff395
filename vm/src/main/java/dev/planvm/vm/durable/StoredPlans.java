package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.call.Call;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.RunOptions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a stored run runs with when a process takes it up again: its plan loaded by this VM, the plan tools it
 * started with (the VM that continues it), the options it was stored with (the VM's approval rules and tool
 * policy kept in them) and its clock — so that a resume, an approval or a rerun in another process, with other
 * settings or an edited plan-tool folder, runs the run as it started.
 */
final class StoredPlans {

    private final PlanVm vm;
    private final RunStore store;

    StoredPlans(PlanVm vm, RunStore store) {
        this.vm = vm;
        this.store = store;
    }

    /**
     * The options a new run is stored with: its own, and the VM's approval rules as well, so that a
     * process that continues the run ({@code approve}, {@code resume}) holds its calls to the same rules
     * even when that process was started without them (a denied call must stay denied).
     */
    RunOptions kept(RunOptions options) {
        LinkedHashSet<String> globs = new LinkedHashSet<>(options.approveTools());
        globs.addAll(vm.approveTools().globs());
        RunOptions kept =
                globs.size() == options.approveTools().size() ? options : options.withApproveTools(List.copyOf(globs));
        return withVmPolicy(kept);
    }

    /**
     * {@code options} narrowed by this VM's tool policy too ({@code --allow-tools}/{@code --deny-tools} of the
     * process that creates the run), so a resume in a process started without them still denies what they
     * denied. Deny globs are always added (denying more never widens); the VM's allow globs are kept when the run
     * has none of its own (two allow lists both apply, which one list cannot say: the run's own, narrower by
     * construction of a server request, stays).
     */
    private RunOptions withVmPolicy(RunOptions options) {
        ToolPolicy policy = vm.toolPolicy();
        if (policy.allowsEverything()) {
            return options;
        }
        LinkedHashSet<String> deny = new LinkedHashSet<>(options.denyTools());
        deny.addAll(policy.denyGlobs());
        List<String> allow = options.allowTools().stream().anyMatch(rule -> !rule.startsWith("!"))
                ? options.allowTools()
                : Stream.concat(options.allowTools().stream(), policy.allowGlobs().stream())
                        .toList();
        if (deny.size() == options.denyTools().size()
                && allow.size() == options.allowTools().size()) {
            return options;
        }
        return options.withToolPolicy(allow, List.copyOf(deny));
    }

    /** Stores a new run of {@code plan} with its {@link #kept} options and the plan tools {@code planVm} gives it. */
    String createRun(
            PlanVm planVm,
            Plan plan,
            Map<String, JsonNode> inputs,
            String mode,
            String parentRun,
            Integer fromSeq,
            RunOptions options) {
        String id = store.createRun(plan, inputs, mode, parentRun, fromSeq, kept(options));
        store.keepPlanTools(id, planVm.planToolsFor(plan));
        return id;
    }

    /**
     * The VM that continues {@code run}: this one with the plan tools the run started with ({@link PlanVm#withPlanTools};
     * a child run's are its top caller's), so a later edit of a plan-tool folder, or a process started without
     * {@code --plan-tools}, does not change it; this VM itself for a run stored with none, or before runs kept them.
     */
    PlanVm vmOf(StoredRun run) {
        return vm.withPlanTools(keptPlanTools(run));
    }

    /**
     * The VM of a new run made from {@code run} (a rerun, a re-plan): a new run takes the plan tools this process
     * has as they are now, like any new run — a plan tool fixed since is fixed in the rerun — and those the run
     * started with for the others, so a process started without {@code --plan-tools} needs none.
     */
    PlanVm vmForNewRunOf(StoredRun run) {
        List<Plan> missing = keptPlanTools(run).stream()
                .filter(plan -> plan.signature()
                        .map(s -> vm.tools().findResolved(s.name()).isEmpty())
                        .orElse(false))
                .toList();
        return vm.withPlanTools(missing);
    }

    /** The plan tools {@code run} (or, for a child run, its top caller) started with; none when it kept none. */
    private List<Plan> keptPlanTools(StoredRun run) {
        String id = run.id();
        for (int height = 0; height < 64; height++) {
            List<PlanToolRows.Kept> kept = store.planTools(id);
            if (kept != null) {
                List<Plan> plans = new ArrayList<>();
                for (PlanToolRows.Kept tool : kept) {
                    LoadResult loaded = vm.loader().load(tool.document(), tool.source());
                    if (!loaded.valid()) {
                        throw new DurableRunException("the plan tool " + tool.source() + " that run " + run.id()
                                + " started with does not load here: "
                                + loaded.errors().get(0).message());
                    }
                    plans.add(loaded.plan().withSourceLines(tool.sourceLines()));
                }
                return plans;
            }
            Optional<RunStore.Caller> caller = store.caller(id);
            if (caller.isEmpty()) {
                return List.of();
            }
            id = caller.get().runId();
        }
        return List.of();
    }

    /**
     * The stored run's plan, loaded again by this VM: the StackVM JSON it ran (a dialect plan's compiled
     * JSON), with the source lines it was compiled from.
     */
    Plan plan(StoredRun run) {
        LoadResult loaded = vm.loader().load(run.plan(), run.planSource());
        if (!loaded.valid()) {
            throw new DurableRunException("the stored plan of run " + run.id() + " does not load here: "
                    + loaded.errors().get(0).message());
        }
        return loaded.plan().withSourceLines(run.sourceLines());
    }

    /**
     * The stored run's options with the clock this session runs with: the request's clock when it brings
     * one, else the stored one, else none (a run stored before runs had clocks: {@link PlanVm#check} fixes one).
     */
    static RunOptions clocked(StoredRun run, RunRequest request) {
        RunClock clock = request.options().clock() != null
                ? request.options().clock()
                : run.options().clock();
        return run.options().withClock(clock);
    }

    /** A replay without the interactions the given committed steps already used. */
    static RunMode skipServed(RunMode mode, List<StoredStep> committed) {
        if (!(mode instanceof RunMode.Replay replay)) {
            return mode;
        }
        List<Call> served = new ArrayList<>();
        committed.forEach(step -> served.addAll(step.calls()));
        return RunMode.replay(replay.cassette().remaining(served), replay.timing(), replay.live());
    }
}
