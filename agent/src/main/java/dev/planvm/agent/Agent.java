package dev.planvm.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.agent.format.AnswerFormat;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.call.TokenBudget;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.RunSession;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.StoreException;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.RunError;
import dev.planvm.vm.run.RunResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent loop: plan a goal, run the plan, and when a step fails, re-plan from it and go on in a
 * child run; when the plan ends in seed 001's {@code use} (its {@code final_answer} handed back rather than
 * returned), plan again with that value, shown to the planner and given to the next run as
 * {@link #HANDED_BACK} — all in one {@link RunSession}, so one cassette records (or replays) the whole of it
 * and one token budget covers it.
 *
 * <pre>{@code
 * Agent agent = Agent.builder(vm).stream(true).replans(1).store(store).build();
 * AgentResult result = agent.ask("Summarize TiDB's best practices", Map.of(), RunMode.live());
 * }</pre>
 *
 * <p>With {@link Builder#stream(boolean)}, the plan is read while the LLM streams it and the calls
 * that can start (inputs known, tool read-only and allowed) start at once; the run, once the plan is
 * complete and valid, uses their answers (only for the very same calls), and an invalid plan's early
 * calls are discarded before the repair. Runs are durable when a {@link RunStore} is given: the first
 * run, then a child run per re-plan (the lineage {@code planvm show} prints as {@code rerun_of}).
 */
public final class Agent {

    private static final Logger log = LoggerFactory.getLogger(Agent.class);

    private final PlanVm vm;
    private final int repairRounds;
    private final int maxReplans;
    private final boolean stream;
    private final AnswerFormat format;
    private final RunStore store;
    private final int maxUses;

    /**
     * The variable a plan written after a {@code use} round starts with: the value the last plan handed back
     * (seed 001's {@code use}), also shown to the planner.
     */
    public static final String HANDED_BACK = "handed_back";

    private Agent(Builder b) {
        this.vm = b.vm;
        this.repairRounds = b.repairRounds;
        this.maxReplans = b.replans;
        this.stream = b.stream;
        this.format = b.format;
        this.store = b.store;
        this.maxUses = b.uses;
    }

    public static Builder builder(PlanVm vm) {
        return new Builder(vm);
    }

    /**
     * Plans {@code goal}, runs the plan with {@code inputs}, and re-plans after a failed step as many
     * times as allowed. Never throws for what the LLM or the plan does: a planning failure or a failed
     * run is in the result ({@link AgentResult#error()}).
     */
    public AgentResult ask(String goal, Map<String, JsonNode> inputs, RunMode mode) {
        Objects.requireNonNull(goal, "goal");
        long origin = System.nanoTime();
        String started = Instant.now().toString();
        RunSession session = vm.session(mode);
        Planner planner = new Planner(vm, repairRounds, format, stream);
        StreamLog streamLog = new StreamLog(session, origin);
        streamLog.runsWith(inputs);
        List<PlanRound> rounds = new ArrayList<>();
        List<AgentResult.Run> runs = new ArrayList<>();
        ArrayNode runTraces = JsonNodeFactory.instance.arrayNode();
        Plan plan = null;
        String error = null;
        try {
            Planned planned = planner.plan(goal, inputs.keySet(), session, streamLog);
            rounds.addAll(planned.rounds());
            plan = planned.plan();
            long runStart = System.nanoTime();
            AgentResult.Run run = first(plan, inputs, session);
            record(runs, runTraces, run, origin, runStart);
            int replans = 0;
            int uses = 0;
            while (true) {
                if (!run.result().succeeded()) {
                    if (replans >= maxReplans || !replannable(run.result().error())) {
                        error = run.result().error().describe();
                        break;
                    }
                    replans++;
                    RunError failed = run.result().error();
                    log.info(
                            "agent: seq_no {} failed; re-planning from it ({} of {})",
                            failed.seqNo(),
                            replans,
                            maxReplans);
                    streamLog.runsWith(run.result().variables());
                    Planned replanned = planner.replan(
                            goal, plan, committed(run.result()), failed.seqNo(), failed.message(), session, streamLog);
                    rounds.addAll(replanned.rounds());
                    plan = replanned.plan();
                    runStart = System.nanoTime();
                    run = child(plan, run, failed.seqNo(), session);
                    record(runs, runTraces, run, origin, runStart);
                    continue;
                }
                if (!run.result().handsBack()) {
                    break;
                }
                if (uses >= maxUses) {
                    error = uses == 0
                            ? "the plan ends in use (it hands its value back), and --use-rounds 0 allows no planning"
                                    + " round after use"
                            : "the plan still ends in use after " + uses + " planning round"
                                    + (uses == 1 ? "" : "s") + " after use; --use-rounds " + maxUses
                                    + " allows no more";
                    break;
                }
                uses++;
                JsonNode value = run.result().finalAnswer();
                log.info("agent: the plan ends in use; planning again with its value ({} of {})", uses, maxUses);
                Map<String, JsonNode> next = new LinkedHashMap<>(inputs);
                next.put(HANDED_BACK, value);
                streamLog.runsWith(next);
                Planned used = planner.handBack(goal, plan, value, maxUses - uses, next.keySet(), session, streamLog);
                rounds.addAll(used.rounds());
                plan = used.plan();
                runStart = System.nanoTime();
                run = first(plan, next, session);
                record(runs, runTraces, run, origin, runStart);
            }
        } catch (PlanningException e) {
            rounds.addAll(e.rounds());
            error = e.getMessage();
        } catch (PlanRejectedException e) {
            error = String.join("; ", e.problems());
        } finally {
            session.discardEarly();
        }
        ObjectNode trace = trace(goal, mode, started, rounds, streamLog, runTraces, error, runs, session);
        return new AgentResult(plan, runs, rounds, error, session.tokensSpent(), trace);
    }

    private AgentResult.Run first(Plan plan, Map<String, JsonNode> inputs, RunSession session) {
        RunRequest request =
                RunRequest.builder(plan).inputs(inputs).session(session).build();
        if (store == null) {
            return new AgentResult.Run(null, null, null, vm.run(request));
        }
        DurableRun run = new DurableRuns(vm, store).start(request);
        return new AgentResult.Run(run.id(), null, null, run.result());
    }

    /** The run of the re-planned {@code plan} from {@code fromSeq}, continuing {@code failed}. */
    private AgentResult.Run child(Plan plan, AgentResult.Run failed, int fromSeq, RunSession session) {
        if (store == null) {
            RunResult before = failed.result();
            Checkpoint at =
                    new Checkpoint(plan.positionOf(fromSeq), Math.max(0, before.steps() - 1), before.variables());
            return new AgentResult.Run(
                    null,
                    null,
                    fromSeq,
                    vm.run(RunRequest.builder(plan).start(at).session(session).build()));
        }
        DurableRun run = new DurableRuns(vm, store).replan(failed.id(), fromSeq, plan, session);
        return new AgentResult.Run(run.id(), failed.id(), fromSeq, run.result());
    }

    /** A failure a new plan may fix: a step failed (not the budget, not the run store). */
    private static boolean replannable(RunError error) {
        if (error == null || error.seqNo() == null) {
            return false;
        }
        for (Throwable t = error.cause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TokenBudget.Spent || t instanceof StoreException) {
                return false;
            }
        }
        return true;
    }

    /** The trace entries of the steps the run committed (the failed step left out). */
    private static JsonNode committed(RunResult result) {
        ArrayNode steps = JsonNodeFactory.instance.arrayNode();
        if (result.trace() != null) {
            for (JsonNode step : result.trace().path("steps")) {
                if (!step.has("error")) {
                    steps.add(step);
                }
            }
        }
        return steps;
    }

    private static void record(
            List<AgentResult.Run> runs, ArrayNode traces, AgentResult.Run run, long origin, long started) {
        runs.add(run);
        ObjectNode entry = traces.addObject();
        entry.put("run", run.id());
        if (run.fromSeq() != null) {
            entry.put("rerun_of", run.parent()).put("from_seq", run.fromSeq());
        }
        if (run.result().handsBack()) {
            entry.put("use", true); // its value went back to the planner, which planned the next run
        }
        entry.put("started_ms", Math.round((started - origin) / 10_000.0) / 100.0);
        entry.put("ended_ms", Math.round((System.nanoTime() - origin) / 10_000.0) / 100.0);
        entry.set("trace", run.result().trace());
    }

    private static ObjectNode trace(
            String goal,
            RunMode mode,
            String started,
            List<PlanRound> rounds,
            StreamLog streamLog,
            ArrayNode runTraces,
            String error,
            List<AgentResult.Run> runs,
            RunSession session) {
        ObjectNode trace = AgentTraces.planning(goal, mode, started, rounds, error, session.tokensSpent());
        trace.put("status", error == null && !runs.isEmpty() ? "succeeded" : "failed");
        trace.set(
                "result",
                runs.isEmpty()
                        ? JsonNodeFactory.instance.nullNode()
                        : runs.get(runs.size() - 1).result().finalAnswer());
        if (streamLog.streamed()) {
            trace.set("stream", streamLog.toJson());
        }
        trace.set("runs", runTraces);
        return trace;
    }

    /** Planning rounds after {@code use} when none are set. */
    public static final int DEFAULT_USE_ROUNDS = 3;

    /** Configures an {@link Agent}. */
    public static final class Builder {
        private final PlanVm vm;
        private int repairRounds = Planner.DEFAULT_REPAIR_ROUNDS;
        private int replans;
        private boolean stream;
        private AnswerFormat format;
        private RunStore store;
        private int uses = DEFAULT_USE_ROUNDS;

        private Builder(PlanVm vm) {
            this.vm = Objects.requireNonNull(vm, "vm");
        }

        /** Corrected plans to ask for after an invalid one (default 2). */
        public Builder repairRounds(int rounds) {
            if (rounds < 0) {
                throw new IllegalArgumentException("repair rounds must not be negative");
            }
            this.repairRounds = rounds;
            return this;
        }

        /** Re-plans after a failed step (default 0: a failed step fails the agent run). */
        public Builder replans(int replans) {
            if (replans < 0) {
                throw new IllegalArgumentException("re-plans must not be negative");
            }
            this.replans = replans;
            return this;
        }

        /**
         * Planning rounds after a plan that ends in seed 001's {@code use} (default {@value #DEFAULT_USE_ROUNDS}):
         * each plans again with the value the last plan handed back; a plan that hands a value back when none is
         * left fails the agent run.
         */
        public Builder useRounds(int rounds) {
            if (rounds < 0) {
                throw new IllegalArgumentException("use rounds must not be negative");
            }
            this.uses = rounds;
            return this;
        }

        /** Streamed execution: read the plan while it streams and start ready calls at once. */
        public Builder stream(boolean stream) {
            this.stream = stream;
            return this;
        }

        /** How the planner asks for answers; {@code null} (default): strict, falling back to JSON mode. */
        public Builder format(AnswerFormat format) {
            this.format = format;
            return this;
        }

        /** Keeps the runs in {@code store} (durable, resumable, shown by {@code planvm show}); {@code null}: not stored. */
        public Builder store(RunStore store) {
            this.store = store;
            return this;
        }

        public Agent build() {
            return new Agent(this);
        }
    }
}
