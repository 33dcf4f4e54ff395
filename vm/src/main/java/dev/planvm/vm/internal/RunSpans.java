package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.approval.ApprovalRequired;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepRecord;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The OpenTelemetry spans of one run: {@code planvm.run}, a child per step, and a grandchild per call
 * through the call chain (tool calls and LLM conditions), with the GenAI semantic conventions for LLM
 * calls where planvm knows the values. A run and call listener, one per run.
 *
 * <p>A call started ahead of its turn is a child of its step's span all the same: the step's span starts
 * when its first call does (an event {@code planvm.step.turn} marks when the step's turn came), so the
 * call's span has its parent when it starts, and the call's context (which HTTP tools propagate as W3C
 * {@code traceparent}) is current on the thread that runs it, from {@link #callStarted} to its end.
 * When the run leaves the block before such a step's turn ({@link #discarded}), its span ends marked
 * {@code planvm.step.discarded}.
 *
 * <p>Never an attribute: tool params, answers, prompts, variables. Error messages are redacted, and an
 * error is an {@code exception} event with its type and message, never a stack trace.
 */
public final class RunSpans implements RunListener {

    static final AttributeKey<String> PLAN = AttributeKey.stringKey("planvm.plan.name");
    static final AttributeKey<String> RUN_ID = AttributeKey.stringKey("planvm.run.id");
    static final AttributeKey<String> MODE = AttributeKey.stringKey("planvm.run.mode");
    static final AttributeKey<String> STATUS = AttributeKey.stringKey("planvm.run.status");
    static final AttributeKey<Long> STEPS = AttributeKey.longKey("planvm.run.steps");
    static final AttributeKey<Long> SEQ_NO = AttributeKey.longKey("planvm.step.seq_no");
    static final AttributeKey<String> TYPE = AttributeKey.stringKey("planvm.step.type");
    static final AttributeKey<Long> JUMP_TO = AttributeKey.longKey("planvm.step.jump_to");
    static final AttributeKey<Boolean> EARLY_STEP = AttributeKey.booleanKey("planvm.step.started_early");
    static final AttributeKey<Boolean> DISCARDED = AttributeKey.booleanKey("planvm.step.discarded");
    static final AttributeKey<Boolean> UNCOMMITTED = AttributeKey.booleanKey("planvm.step.uncommitted");
    static final AttributeKey<Long> CALL_SEQ_NO = AttributeKey.longKey("planvm.call.seq_no");
    static final AttributeKey<String> CALL_KIND = AttributeKey.stringKey("planvm.call.kind");
    static final AttributeKey<Boolean> EARLY_CALL = AttributeKey.booleanKey("planvm.call.early");
    static final AttributeKey<Long> ATTEMPTS = AttributeKey.longKey("planvm.call.attempts");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("planvm.call.outcome");
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> TOOL = AttributeKey.stringKey("gen_ai.tool.name");
    static final AttributeKey<String> MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private static final AttributeKey<String> EXCEPTION_TYPE = AttributeKey.stringKey("exception.type");
    private static final AttributeKey<String> EXCEPTION_MESSAGE = AttributeKey.stringKey("exception.message");
    private static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("planvm.attempt");

    /** Longest model name kept as an attribute (a plan may put anything in params.model). */
    private static final int MAX_MODEL = 100;

    /** Step span names by instruction type, made once per type rather than once per step. */
    private static final Map<String, String> STEP_NAMES = new ConcurrentHashMap<>();

    private final Tracer tracer;
    private final String llmTool;
    private final Plan plan;
    private final String planName;
    private final String runId;
    private final String mode;
    private final Redactor redactor;

    private volatile Span run;
    private volatile Context runContext = Context.root();
    /** Open step spans by seq_no: started at the step's turn or by its first early call. */
    private final Map<Integer, StepSpan> steps = new ConcurrentHashMap<>();
    /** Calls in the chain now (the same call object from start to end), on whichever thread runs them. */
    private final Map<Call, CallSpan> calls = Collections.synchronizedMap(new IdentityHashMap<>());
    /** {@code execute_tool <tool>} by tool, made once per tool of the run rather than once per call. */
    private final Map<String, String> toolSpanNames = new ConcurrentHashMap<>();

    private static final class StepSpan {
        final Span span;
        final Context context;
        /** Whether its first call started before its turn (the span started with that call). */
        final boolean early;
        /** Whether the step's turn came. */
        volatile boolean turn;

        StepSpan(Span span, Context parent, boolean early) {
            this.span = span;
            this.context = parent.with(span);
            this.early = early;
        }
    }

    private record CallSpan(Span span, Scope scope, AtomicInteger failedAttempts) {}

    /**
     * @param llmTool  the name of the built-in LLM tool, whose calls are GenAI {@code chat} operations
     * @param plan     the plan (its file name names the run's span)
     * @param runId    the stored run's id, or {@code null} for a run that is not stored
     * @param mode     the run mode's label (live, replay, record, dry-run)
     */
    public RunSpans(Tracer tracer, String llmTool, Plan plan, String runId, String mode, Redactor redactor) {
        this.tracer = tracer;
        this.llmTool = llmTool;
        this.plan = plan;
        this.planName = name(plan);
        this.runId = runId;
        this.mode = mode;
        this.redactor = redactor;
    }

    private static String name(Plan plan) {
        String source = plan.source();
        if (source == null || source.isEmpty()) {
            return null;
        }
        Path file = Path.of(source).getFileName();
        return file == null ? source : file.toString();
    }

    @Override
    public void runStarted(Plan plan, Map<String, JsonNode> inputs) {
        var builder = tracer.spanBuilder("planvm.run").setSpanKind(SpanKind.INTERNAL);
        if (planName != null) {
            builder.setAttribute(PLAN, planName);
        }
        if (runId != null) {
            builder.setAttribute(RUN_ID, runId);
        }
        builder.setAttribute(MODE, mode);
        Context parent = Context.current();
        Span span = builder.setParent(parent).startSpan();
        runContext = parent.with(span);
        run = span;
    }

    @Override
    public void stepStarted(Instruction instruction) {
        StepSpan step = steps.computeIfAbsent(instruction.seqNo(), seqNo -> startStep(seqNo, false));
        if (!step.turn) {
            step.turn = true;
            if (step.early) {
                step.span.addEvent("planvm.step.turn");
            }
        }
    }

    @Override
    public void stepFinished(StepRecord record) {
        StepSpan step = steps.remove(record.seqNo());
        if (step == null) {
            return;
        }
        Span span = step.span;
        if (record.jumpTo() != null) {
            span.setAttribute(JUMP_TO, record.jumpTo().longValue());
        }
        if (record.failed()) {
            fail(span, "step_failed", "StepFailure", record.error());
        }
        span.end();
    }

    @Override
    public void runFinished(RunResult result) {
        for (Integer seqNo : steps.keySet().toArray(Integer[]::new)) {
            discarded(seqNo); // its early calls started but its turn never came (the run ended or failed first)
            StepSpan stopped = steps.remove(seqNo);
            if (stopped != null) { // its turn came, but it never committed: it waits for approval
                stopped.span.setAttribute(UNCOMMITTED, true);
                stopped.span.end();
            }
        }
        Span span = run;
        if (span == null) {
            return;
        }
        span.setAttribute(STATUS, result.status().label());
        span.setAttribute(STEPS, (long) result.steps());
        if (result.status() == RunStatus.FAILED && result.error() != null) {
            fail(
                    span,
                    result.error().kind().name().toLowerCase(java.util.Locale.ROOT),
                    "RunError",
                    result.error().message());
        }
        span.end();
    }

    /**
     * The run left the block before the turn of step {@code seqNo}, whose calls started early: the
     * calls are discarded and its span ends, marked so (a later turn of the same step opens another).
     */
    public void discarded(int seqNo) {
        StepSpan step = steps.get(seqNo);
        if (step != null && !step.turn && steps.remove(seqNo, step)) {
            step.span.setAttribute(DISCARDED, true);
            step.span.end();
        }
    }

    @Override
    public void callStarted(Call call) {
        int seqNo = call.context().seqNo();
        Context parent;
        boolean early = false;
        if (seqNo < 0) {
            parent = runContext;
        } else {
            StepSpan step = steps.computeIfAbsent(seqNo, s -> startStep(s, true));
            parent = step.context;
            early = !step.turn;
        }
        SpanBuilder builder;
        if (call instanceof Call.ToolCall tool && !tool.tool().equals(llmTool)) {
            builder = tracer.spanBuilder(toolSpanNames.computeIfAbsent(tool.tool(), name -> "execute_tool " + name))
                    .setSpanKind(SpanKind.INTERNAL)
                    .setAttribute(CALL_KIND, "tool")
                    .setAttribute(OPERATION, "execute_tool")
                    .setAttribute(TOOL, tool.tool());
        } else {
            String model = model(call); // once: it is redacted
            builder = tracer.spanBuilder(model == null ? "chat" : "chat " + model)
                    .setSpanKind(SpanKind.CLIENT)
                    .setAttribute(CALL_KIND, call instanceof Call.ToolCall ? "llm" : "condition")
                    .setAttribute(OPERATION, "chat");
            if (model != null) {
                builder.setAttribute(MODEL, model);
            }
            if (call instanceof Call.ToolCall tool) {
                builder.setAttribute(TOOL, tool.tool());
            }
        }
        builder.setParent(parent).setAttribute(CALL_SEQ_NO, (long) seqNo);
        if (early) {
            builder.setAttribute(EARLY_CALL, true);
        }
        Span span = builder.startSpan();
        Scope scope = parent.with(span).makeCurrent();
        calls.put(call, new CallSpan(span, scope, new AtomicInteger()));
    }

    @Override
    public void attemptFailed(Call call, FailedAttempt attempt) {
        CallSpan open = calls.get(call);
        if (open == null) {
            return;
        }
        open.failedAttempts().incrementAndGet();
        open.span()
                .addEvent(
                        "planvm.attempt_failed",
                        Attributes.of(
                                ATTEMPT,
                                (long) attempt.number(),
                                EXCEPTION_MESSAGE,
                                redactor.redact(String.valueOf(attempt.failure().getMessage()))));
    }

    @Override
    public void callFinished(Call call, JsonNode output, long durationNanos) {
        CallSpan open = calls.remove(call);
        if (open == null) {
            return;
        }
        open.scope().close();
        Span span = open.span();
        span.setAttribute(ATTEMPTS, open.failedAttempts().get() + 1L);
        span.setAttribute(OUTCOME, "answered");
        tokens(span, call);
        span.end();
    }

    @Override
    public void callFailed(Call call, ToolException failure, long durationNanos) {
        CallSpan open = calls.remove(call);
        if (open == null) {
            return;
        }
        open.scope().close();
        Span span = open.span();
        span.setAttribute(ATTEMPTS, Math.max(1L, open.failedAttempts().get()));
        span.setAttribute(OUTCOME, "failed");
        tokens(span, call);
        fail(span, failure.retriable() ? "tool_error_retriable" : "tool_error", "ToolException", failure.getMessage());
        span.end();
    }

    @Override
    public void callAbandoned(Call call, Throwable cause) {
        CallSpan open = calls.remove(call);
        if (open == null) {
            return;
        }
        open.scope().close();
        Span span = open.span();
        if (cause instanceof ApprovalRequired) {
            span.setAttribute(OUTCOME, "waiting_for_approval");
        } else {
            span.setAttribute(OUTCOME, "stopped");
            fail(span, "unexpected", cause.getClass().getSimpleName(), cause.getMessage());
        }
        span.end();
    }

    private StepSpan startStep(int seqNo, boolean early) {
        String type = typeOf(seqNo);
        var builder = tracer.spanBuilder(
                        type == null ? "planvm.step" : STEP_NAMES.computeIfAbsent(type, t -> "planvm.step " + t))
                .setParent(runContext)
                .setAttribute(SEQ_NO, (long) seqNo);
        if (type != null) {
            builder.setAttribute(TYPE, type);
        }
        if (early) {
            builder.setAttribute(EARLY_STEP, true);
        }
        return new StepSpan(builder.startSpan(), runContext, early);
    }

    private String typeOf(int seqNo) {
        try {
            return plan.instruction(seqNo).type();
        } catch (java.util.NoSuchElementException notInPlan) {
            return null; // a call a custom handler made for another seq_no
        }
    }

    /** The model a call asks for, when its params name one ({@code llm_generate}'s {@code model}). */
    private String model(Call call) {
        if (call instanceof Call.ToolCall tool && tool.tool().equals(llmTool)) {
            JsonNode model = tool.params().get("model");
            if (model != null
                    && model.isTextual()
                    && !model.asText().isEmpty()
                    && model.asText().length() <= MAX_MODEL) {
                return redactor.redact(model.asText());
            }
        }
        return null;
    }

    private static void tokens(Span span, Call call) {
        if (call.context().events() instanceof TokenTally tally) {
            TokenCount spent = tally.total();
            if (!spent.isZero()) {
                span.setAttribute(INPUT_TOKENS, spent.prompt());
                span.setAttribute(OUTPUT_TOKENS, spent.completion());
            }
        }
    }

    /** Status ERROR and an {@code exception} event with a redacted message and no stack trace. */
    private void fail(Span span, String errorType, String exceptionType, String message) {
        String redacted = redactor.redact(String.valueOf(message));
        span.setAttribute(ERROR_TYPE, errorType);
        span.addEvent("exception", Attributes.of(EXCEPTION_TYPE, exceptionType, EXCEPTION_MESSAGE, redacted));
        span.setStatus(StatusCode.ERROR, redacted);
    }
}
