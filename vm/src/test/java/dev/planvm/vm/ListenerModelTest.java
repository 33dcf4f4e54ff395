package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.tools.call.GuardedListeners;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * The listener model: one {@link RunListener} hears a run, its steps, its child runs and its calls (on the
 * thread each call runs on); a listener that throws is logged once and never changes the run.
 */
class ListenerModelTest {

    /**
     * Two calls that wait for each other (so they run at once: one of them early, on another thread), a
     * call that fails once and is retried, a failing call whose {@code on_error} value is used, a plan tool
     * (a child run), then the answer.
     */
    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "gate", "tool_params": {"q": "a"}, "output_vars": "a"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "gate", "tool_params": {"q": "b"}, "output_vars": "b"}},
             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "flaky", "tool_params": {}, "output_vars": "c"}},
             {"seq_no": 3, "type": "calling", "parameters": {"tool_name": "fail", "tool_params": {"message": "no"},
               "output_vars": "d", "on_error": {"value": "none"}}},
             {"seq_no": 4, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": {"text": "${a}"}, "output_vars": "e"}},
             {"seq_no": 5, "type": "assign", "parameters": {"final_answer": "${a} ${b} ${c} ${d} ${e}"}}]""";

    private static final String SHOUT = """
            {"name": "shout", "inputs": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
             "plan": [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "${text}!"}}]}""";

    /** A call that waits for a reviewer: it leaves the chain neither answered nor failed (abandoned). */
    private static final String WAITS = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "send", "tool_params": {}, "output_vars": "s"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${s}"}}]""";

    private static final List<String> EVENTS = List.of(
            "runStarted",
            "stepStarted",
            "stepFinished",
            "runFinished",
            "childStarted",
            "childFinished",
            "callStarted",
            "callFinished",
            "callFailed",
            "callAbandoned",
            "attemptFailed",
            "tokens",
            "streamStarted",
            "chunk",
            "slotTaken",
            "limitChanged");

    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(GuardedListeners.class);

    @BeforeEach
    void capture() {
        logged.start();
        logger.addAppender(logged);
    }

    @AfterEach
    void release() {
        logger.detachAppender(logged);
    }

    private static Plan plan(String json) {
        return new PlanLoader().load(json, "t.json").planOrThrow();
    }

    private static PlanVm vm() {
        CountDownLatch both = new CountDownLatch(2);
        AtomicBoolean failedOnce = new AtomicBoolean();
        return PlanVm.builder()
                .tool(Tool.of("gate", "answers once both gate calls are in flight", (params, call) -> {
                    call.events().tokens(new TokenCount(3, 2));
                    call.events().streamStarted();
                    call.events().chunk(params.path("q").asText());
                    both.countDown();
                    try {
                        both.await(30, TimeUnit.SECONDS); // not a timing assertion: a sequential run would hang
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return TextNode.valueOf(params.path("q").asText());
                }))
                .tool(Tool.of("flaky", "is overloaded at its first attempt (its limit shrinks)", (params, call) -> {
                    if (failedOnce.compareAndSet(false, true)) {
                        throw ToolException.overloaded("busy", null);
                    }
                    return TextNode.valueOf("c");
                }))
                .tool(Tool.of("fail", "always fails", (params, call) -> {
                    throw ToolException.permanent(params.path("message").asText());
                }))
                .tool(Tool.of("send", "sends", (params, call) -> TextNode.valueOf("sent")))
                .approveTools(List.of("send"))
                .retryPolicy(RetryPolicy.DEFAULT)
                .retrySleeper(duration -> {})
                .planTool(plan(SHOUT))
                .build();
    }

    private static RunResult run(String json, RunListener... listeners) {
        try (PlanVm vm = vm()) {
            return vm.run(
                    RunRequest.builder(plan(json)).listeners(List.of(listeners)).build());
        }
    }

    /** What a run's outcome is, without its timings. */
    private static List<Object> outcome(RunResult result) {
        return List.of(
                result.status(),
                String.valueOf(result.finalAnswer()),
                result.variables(),
                String.valueOf(result.error()),
                result.steps(),
                result.trace().path("steps").size(),
                result.trace().path("calls").size());
    }

    private List<ILoggingEvent> warnings() {
        return logged.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
    }

    @Test
    void the_plan_of_these_tests_makes_every_event_happen() {
        Recorder recorder = new Recorder();
        RunResult result = run(PLAN, recorder);
        RunResult waits = run(WAITS, recorder);

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.finalAnswer().asText()).isEqualTo("a b c none a!");
        assertThat(waits.status()).isEqualTo(RunStatus.WAITING);
        assertThat(recorder.kinds()).containsAll(EVENTS);
        assertThat(recorder.callThreads)
                .as("a call ran on another thread than the run's (started early)")
                .anyMatch(thread -> thread != Thread.currentThread());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "runStarted",
                "stepStarted",
                "stepFinished",
                "runFinished",
                "childStarted",
                "childFinished",
                "callStarted",
                "callFinished",
                "callFailed",
                "callAbandoned",
                "attemptFailed",
                "tokens",
                "streamStarted",
                "chunk"
            })
    void a_listener_that_throws_in_an_event_is_logged_once_and_the_run_is_unchanged(String event) {
        String json = event.equals("callAbandoned") ? WAITS : PLAN;
        RunResult quiet = run(json);
        logged.list.clear();

        Throwing throwing = new Throwing(Set.of(event));
        Recorder after = new Recorder();
        RunResult result = run(json, throwing, after);

        assertThat(throwing.thrown).as("it threw in %s", event).isPositive();
        assertThat(warnings())
                .singleElement()
                .satisfies(warning -> assertThat(warning.getFormattedMessage())
                        .contains(Throwing.class.getName())
                        .contains(event)
                        .contains("listener bug in " + event));
        assertThat(outcome(result)).isEqualTo(outcome(quiet));
        assertThat(after.kinds()).as("the listener after it is still told").contains(event);
    }

    @Test
    void a_listener_that_throws_in_every_event_is_logged_once_in_all() {
        RunResult quiet = run(PLAN);
        logged.list.clear();

        Throwing throwing = new Throwing(Set.copyOf(EVENTS));
        RunResult result = run(PLAN, throwing);

        assertThat(throwing.thrown).isGreaterThan(20);
        assertThat(warnings()).hasSize(1);
        assertThat(outcome(result)).isEqualTo(outcome(quiet));
    }

    @Test
    void a_listener_that_throws_on_an_early_call_thread_is_logged_once_and_the_run_is_unchanged() {
        RunResult quiet = run(PLAN);
        logged.list.clear();
        Thread runThread = Thread.currentThread();
        Throwing offThread = new Throwing(Set.of("callStarted", "callFinished")) {
            @Override
            boolean throwsHere() {
                return Thread.currentThread() != runThread;
            }
        };

        RunResult result = run(PLAN, offThread);

        assertThat(offThread.thrown)
                .as("it threw on a thread that is not the run's")
                .isPositive();
        assertThat(warnings())
                .singleElement()
                .satisfies(warning -> assertThat(warning.getThreadName()).isNotEqualTo(runThread.getName()));
        assertThat(outcome(result)).isEqualTo(outcome(quiet));
    }

    @Test
    void two_failing_listeners_are_each_logged_once() {
        Throwing first = new Throwing(Set.of("stepFinished"));
        Throwing second = new Throwing(Set.of("callFinished")) {};

        run(PLAN, first, second);

        assertThat(warnings())
                .extracting(ILoggingEvent::getFormattedMessage)
                .satisfiesExactlyInAnyOrder(
                        message -> assertThat(message).contains("stepFinished"),
                        message -> assertThat(message).contains("callFinished"));
    }

    @Test
    void events_come_in_the_documented_order_with_calls_started_early() {
        Recorder recorder = new Recorder();
        run(PLAN, recorder);
        List<String> events = recorder.events();

        assertThat(events.get(0)).isEqualTo("runStarted");
        assertThat(events.get(events.size() - 1)).isEqualTo("runFinished");
        List<String> steps = new ArrayList<>();
        for (int seqNo = 0; seqNo <= 5; seqNo++) {
            steps.add("stepStarted " + seqNo);
            steps.add("stepFinished " + seqNo);
        }
        assertThat(events.stream().filter(e -> e.startsWith("step")))
                .as("steps start and finish one at a time, in program order")
                .containsExactlyElementsOf(steps);
        for (int seqNo = 0; seqNo <= 4; seqNo++) {
            int started = events.indexOf("callStarted " + seqNo);
            int ended = seqNo == 3 ? events.indexOf("callFailed 3") : events.indexOf("callFinished " + seqNo);
            assertThat(started).as("call %s started", seqNo).isNotNegative();
            assertThat(ended).as("call %s ended after it started", seqNo).isGreaterThan(started);
            assertThat(events.indexOf("stepFinished " + seqNo))
                    .as("step %s finished after its call", seqNo)
                    .isGreaterThan(ended)
                    .isGreaterThan(events.indexOf("stepStarted " + seqNo));
        }
        for (int seqNo = 0; seqNo <= 1; seqNo++) {
            String q = seqNo == 0 ? "a" : "b";
            assertThat(events)
                    .as("what call %s reports comes between its start and its end", seqNo)
                    .containsSubsequence(
                            "callStarted " + seqNo,
                            "tokens " + seqNo + " 5",
                            "streamStarted " + seqNo,
                            "chunk " + seqNo + " " + q,
                            "callFinished " + seqNo);
        }
        assertThat(events.indexOf("attemptFailed 2"))
                .isGreaterThan(events.indexOf("callStarted 2"))
                .isLessThan(events.indexOf("callFinished 2"));
        assertThat(events.indexOf("childStarted 4"))
                .isGreaterThan(events.indexOf("callStarted 4"))
                .isLessThan(events.indexOf("childFinished 4"));
        assertThat(events.indexOf("childFinished 4")).isLessThan(events.indexOf("callFinished 4"));
    }

    /** Records every event, with the seq_no it is about. */
    private static class Recorder implements RunListener {
        private final List<String> events = Collections.synchronizedList(new ArrayList<>());
        final List<Thread> callThreads = Collections.synchronizedList(new ArrayList<>());

        List<String> events() {
            synchronized (events) {
                return List.copyOf(events);
            }
        }

        List<String> kinds() {
            return events().stream().map(e -> e.split(" ")[0]).distinct().toList();
        }

        void told(String event) {
            events.add(event);
        }

        @Override
        public void runStarted(Plan plan, Map<String, JsonNode> inputs) {
            told("runStarted");
        }

        @Override
        public void stepStarted(Instruction instruction) {
            told("stepStarted " + instruction.seqNo());
        }

        @Override
        public void stepFinished(StepRecord step) {
            told("stepFinished " + step.seqNo());
        }

        @Override
        public void runFinished(RunResult result) {
            told("runFinished");
        }

        @Override
        public void childStarted(int seqNo, String tool, String childRunId) {
            told("childStarted " + seqNo);
        }

        @Override
        public void childFinished(int seqNo, String tool, String childRunId, RunStatus status) {
            told("childFinished " + seqNo);
        }

        @Override
        public void callStarted(Call call) {
            callThreads.add(Thread.currentThread());
            told("callStarted " + call.context().seqNo());
        }

        @Override
        public void callFinished(Call call, JsonNode output, long durationNanos) {
            told("callFinished " + call.context().seqNo());
        }

        @Override
        public void callFailed(Call call, ToolException failure, long durationNanos) {
            told("callFailed " + call.context().seqNo());
        }

        @Override
        public void callAbandoned(Call call, Throwable cause) {
            told("callAbandoned " + call.context().seqNo());
        }

        @Override
        public void attemptFailed(Call call, FailedAttempt attempt) {
            told("attemptFailed " + call.context().seqNo());
        }

        @Override
        public void tokens(Call call, TokenCount tokens) {
            told("tokens " + call.context().seqNo() + " " + tokens.total());
        }

        @Override
        public void streamStarted(Call call) {
            told("streamStarted " + call.context().seqNo());
        }

        @Override
        public void chunk(Call call, String text) {
            told("chunk " + call.context().seqNo() + " " + text);
        }

        @Override
        public void slotTaken(Call call, String limiter, int limit, long waitedNanos) {
            told("slotTaken " + call.context().seqNo() + " " + limiter);
        }

        @Override
        public void limitChanged(Call call, String limiter, int limit, String cause) {
            told("limitChanged " + call.context().seqNo() + " " + limiter + " " + cause);
        }
    }

    /** Throws in the named events. */
    private static class Throwing extends Recorder {
        private final Set<String> throwIn;
        volatile int thrown;

        Throwing(Set<String> throwIn) {
            this.throwIn = throwIn;
        }

        boolean throwsHere() {
            return true;
        }

        @Override
        void told(String event) {
            String kind = event.split(" ")[0];
            if (throwIn.contains(kind) && throwsHere()) {
                synchronized (this) {
                    thrown++;
                }
                throw new IllegalStateException("listener bug in " + kind);
            }
        }
    }
}
