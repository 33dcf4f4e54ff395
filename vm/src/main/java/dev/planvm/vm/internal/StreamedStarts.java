package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Assign;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Reasoning;
import dev.planvm.instructions.expr.Variables;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.vm.internal.handlers.AssignHandler;
import dev.planvm.vm.internal.handlers.OutputBinding;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.RunLimits;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.FutureTask;

/**
 * Starts the calls of a plan that is still arriving (an LLM streaming it), as soon as each is
 * complete and its inputs are known — the dataflow rule of the {@link Speculator}, over the part of
 * the plan that has arrived.
 *
 * <p>Only the straight-line start of the plan is considered: instructions in ascending
 * {@code seq_no} order up to the first {@code jmp} or custom instruction, the first call that is not
 * free to start early (a tool with side effects, a tool not installed in a live run, a denied
 * tool), or the first instruction that arrives out of order. Over that start, an assign is
 * evaluated ahead and a call's answer is bound to its {@code output_vars} ahead, so later calls
 * reading them start too; values are held to the run's limits. Each call started is handed to
 * {@link EarlyAnswers}, which gives its answer to the very same call of the run (the
 * {@code seq_no}, tool, params and expected keys all equal) and nothing else; so a call started
 * from a plan that later turns out different, or invalid, is never used, only discarded.
 */
public final class StreamedStarts {

    /** One call started early, with when it started and answered ({@code System.nanoTime()}). */
    public record Started(int seqNo, String tool, long startedNanos, long answeredNanos, boolean failed) {
        /** Whether the call has answered (or failed) yet. */
        public boolean answered() {
            return answeredNanos != 0;
        }
    }

    private final Map<String, InstructionHandler<?>> handlers;
    private final ToolRegistry tools;
    private final ToolPolicy policy;
    private final boolean toolsAnswered;
    private final RunLimits limits;
    private final CallChain chain;
    private final EarlyAnswers answers;
    private final ExecutorService executor;
    private final int maxInFlight;
    private final Map<String, JsonNode> inputs;

    private final List<Instruction> prefix = new ArrayList<>();
    private final Map<Integer, Launch> launched = new LinkedHashMap<>();
    private int lastSeqNo = -1;
    private boolean prefixClosed;
    private boolean stopped;

    /** A call started: its task and when it answered. */
    private static final class Launch {
        final Calling calling;
        final FutureTask<JsonNode> task;
        final long started = System.nanoTime();
        volatile long answered;

        Launch(Calling calling, FutureTask<JsonNode> task) {
            this.calling = calling;
            this.task = task;
        }
    }

    /**
     * @param toolsAnswered whether calls are answered without the tools (a replay or a dry run): a tool
     *                      that is not installed may then start early
     * @param chain         the chain early calls go through (the session's, without its listeners)
     */
    public StreamedStarts(Map<String, InstructionHandler<?>> handlers, ToolRegistry tools, ToolPolicy policy,
                          boolean toolsAnswered, RunLimits limits, CallChain chain, EarlyAnswers answers,
                          ExecutorService executor, int maxInFlight, Map<String, JsonNode> inputs) {
        this.handlers = handlers;
        this.tools = tools;
        this.policy = policy;
        this.toolsAnswered = toolsAnswered;
        this.limits = limits;
        this.chain = chain;
        this.answers = answers;
        this.executor = executor;
        this.maxInFlight = maxInFlight;
        this.inputs = Map.copyOf(inputs);
    }

    /** The next instruction of the plan, in the order the plan lists them, typed and checked on its own. */
    public synchronized void arrived(Instruction instruction) {
        if (stopped || prefixClosed) {
            return;
        }
        if (instruction.seqNo() <= lastSeqNo || !(instruction instanceof Assign || instruction instanceof Calling
                || instruction instanceof Reasoning)) {
            prefixClosed = true; // out of order, a jmp or a custom instruction: what follows is not straight-line
            return;
        }
        lastSeqNo = instruction.seqNo();
        prefix.add(instruction);
        scan();
    }

    /** No more calls start; those started stay with {@link EarlyAnswers} for the run. */
    public synchronized void finish() {
        stopped = true;
    }

    /** No more calls start, and those started are cancelled (their answers will not be used). */
    public synchronized void discard() {
        stopped = true;
        for (Launch launch : launched.values()) {
            launch.task.cancel(true);
        }
    }

    /** The calls started so far, in the order they started. */
    public synchronized List<Started> started() {
        List<Started> list = new ArrayList<>();
        for (Launch launch : launched.values()) {
            boolean failed = launch.task.isCancelled() || (launch.task.isDone() && failed(launch.task));
            list.add(new Started(launch.calling.seqNo(), launch.calling.tool(), launch.started, launch.answered, failed));
        }
        return list;
    }

    private static boolean failed(FutureTask<JsonNode> task) {
        try {
            task.get();
            return false;
        } catch (ExecutionException | InterruptedException | RuntimeException e) {
            return true;
        }
    }

    /**
     * Walks the arrived start of the plan from its first instruction, with the values known so far,
     * and starts every call that has become ready. Cheap enough to redo after every event: plans are
     * short, and evaluating an assign again gives the same value.
     */
    private void scan() {
        if (stopped) {
            return;
        }
        Map<String, JsonNode> values = new HashMap<>(inputs);
        Set<String> unknown = new HashSet<>();
        Variables view = name -> {
            if (unknown.contains(name)) {
                throw NotKnown.INSTANCE;
            }
            return values.get(name);
        };
        for (Instruction instruction : prefix) {
            if (instruction instanceof Assign assign) {
                try {
                    Map<String, JsonNode> writes = new LinkedHashMap<>();
                    AssignHandler.evaluate(assign, view, limits, (name, value) -> {
                        limits.checkVariable(name, value);
                        writes.put(name, value);
                    });
                    known(values, unknown, writes);
                } catch (RuntimeException notNow) {
                    unknownNow(values, unknown, assign.writes());
                }
            } else if (instruction instanceof Calling calling && !calling(calling, view, values, unknown)) {
                return; // a call that may not start early: nothing after it does either
            }
        }
    }

    /** Handles one call of the scan; false when it is a barrier (not free to start early). */
    private boolean calling(Calling calling, Variables view, Map<String, JsonNode> values, Set<String> unknown) {
        Launch launch = launched.get(calling.seqNo());
        if (launch != null) {
            Map<String, JsonNode> writes = answerOf(launch);
            if (writes == null) {
                unknownNow(values, unknown, calling.writes());
            } else {
                known(values, unknown, writes);
            }
            return true;
        }
        if (!free(calling.tool())) {
            return false;
        }
        unknownNow(values, unknown, calling.writes());
        if (inFlight() >= maxInFlight) {
            return true;
        }
        try {
            callFor(calling, view).ifPresent(call -> launch(calling, call));
        } catch (RuntimeException notNow) {
            // its inputs are not known yet (or it fails at its turn, as it would in any run)
        }
        return true;
    }

    /** What the answered call binds to its output_vars, or null when it has not answered (well). */
    private Map<String, JsonNode> answerOf(Launch launch) {
        if (!launch.task.isDone() || launch.task.isCancelled()) {
            return null;
        }
        try {
            Map<String, JsonNode> writes = OutputBinding.values(launch.calling.tool(), launch.calling.outputVars(),
                    launch.task.get());
            writes.forEach(limits::checkVariable);
            return writes;
        } catch (ExecutionException | InterruptedException | RuntimeException failed) {
            return null;
        }
    }

    private boolean free(String toolName) {
        if (!policy.allows(toolName)) {
            return false;
        }
        Optional<Tool> tool = tools.find(toolName);
        return tool.map(t -> !t.hasSideEffects()).orElse(toolsAnswered);
    }

    @SuppressWarnings("unchecked")
    private Optional<Call> callFor(Calling calling, Variables view) {
        InstructionHandler<Instruction> handler = (InstructionHandler<Instruction>) handlers.get(calling.type());
        return handler == null ? Optional.empty() : handler.callFor(calling, view, limits);
    }

    private void launch(Calling calling, Call call) {
        List<FailedAttempt> attempts = Collections.synchronizedList(new ArrayList<>());
        TokenTally tokens = new TokenTally();
        Launch[] self = new Launch[1];
        FutureTask<JsonNode> task = new FutureTask<>(() -> chain.execute(call.withEvents(tokens), attempts::add)) {
            @Override
            protected void done() {
                self[0].answered = System.nanoTime();
                answeredOne();
            }
        };
        Launch launch = new Launch(calling, task);
        self[0] = launch;
        launched.put(calling.seqNo(), launch);
        answers.add(new EarlyAnswers.Early(call, task, attempts, tokens));
        executor.execute(task);
    }

    private synchronized void answeredOne() {
        scan();
    }

    private int inFlight() {
        int running = 0;
        for (Launch launch : launched.values()) {
            if (!launch.task.isDone()) {
                running++;
            }
        }
        return running;
    }

    private static void known(Map<String, JsonNode> values, Set<String> unknown, Map<String, JsonNode> writes) {
        writes.forEach((name, value) -> {
            values.put(name, value);
            unknown.remove(name);
        });
    }

    private static void unknownNow(Map<String, JsonNode> values, Set<String> unknown, List<String> names) {
        for (String name : names) {
            values.remove(name);
            unknown.add(name);
        }
    }

    /** A value the scan needs is written by an instruction whose result is not known yet. */
    private static final class NotKnown extends RuntimeException {
        static final NotKnown INSTANCE = new NotKnown();

        private NotKnown() {
            super(null, null, false, false);
        }
    }
}
