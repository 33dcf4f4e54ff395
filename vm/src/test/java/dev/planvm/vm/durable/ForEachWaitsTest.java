package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.tools.call.Sleeper;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The elements of a durable {@code for_each} step that wait — for a reviewer's approval, a person's answer, a wake
 * time — each wait on their own: one decision decides one element, one answer answers one, one wake time is one
 * element's.
 */
class ForEachWaitsTest {

    private static final String MAIL = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "send_mail", "for_each": "${to}", "as": "who", "tool_params": {"to": "${who}"}, "output_vars": "final_answer"}}]""";

    private static final List<String> THREE = List.of("alice@x", "bob@x", "mallory@x");

    @TempDir
    Path dir;

    private final List<String> sent = new CopyOnWriteArrayList<>();

    private PlanVmBuilder builder() {
        return PlanVm.builder().approveTools(List.of("send_*")).tool(Tool.of("send_mail", "", (p, c) -> {
            sent.add(p.path("to").asText());
            return TextNode.valueOf("sent to " + p.path("to").asText());
        }));
    }

    private static Plan plan(PlanVm vm, String json) {
        return vm.loader().load(json, "map.json").planOrThrow();
    }

    private static Map<String, JsonNode> to(List<String> addresses) {
        return Map.of(
                "to",
                dev.planvm.json.JsonMappers.mapper(dev.planvm.json.JsonLimits.STORE)
                        .valueToTree(addresses));
    }

    private static RunRequest session() {
        return RunRequest.builder().build();
    }

    @Test
    void one_approval_approves_one_element_and_the_run_waits_again_naming_the_next() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm vm = builder().build();
            DurableRuns runs = new DurableRuns(vm, store);
            DurableRun run = runs.start(plan(vm, MAIL), to(THREE), RunMode.live());
            String id = run.id();
            assertThat(run.result().status()).isEqualTo(RunStatus.WAITING);
            assertThat(sent).isEmpty();
            assertThat(run.result().pending().element()).isZero();
            assertThat(run.result().pending().params().path("to").asText()).isEqualTo("alice@x");
            assertThat(run.result().error().describe())
                    .isEqualTo("seq_no 0 (calling): for_each element 0: waiting for approval to call tool 'send_mail'"
                            + " with {\"to\":\"alice@x\"}");
            assertThat(run.waiting())
                    .as("each element is a call of its own")
                    .extracting(WaitingCall::element, c -> c.params().path("to").asText())
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(0, "alice@x"),
                            org.assertj.core.groups.Tuple.tuple(1, "bob@x"),
                            org.assertj.core.groups.Tuple.tuple(2, "mallory@x"));
            assertThat(run.waiting().stream().map(WaitingCall::callId).distinct())
                    .hasSize(3);
            StoredRun stored = store.find(id).orElseThrow();
            assertThat(stored.pendingApproval().orElseThrow().callId(id))
                    .as("the store names the element the run's message names")
                    .isEqualTo(run.waiting().get(0).callId());

            DurableRun first = runs.approve(id, true, "alice is fine", session(), Map.of());
            assertThat(sent).as("only the approved element's call is made").containsExactly("alice@x");
            assertThat(first.result().status()).as("the run waits again").isEqualTo(RunStatus.WAITING);
            assertThat(first.result().pending().element()).isEqualTo(1);
            assertThat(first.waiting()).extracting(WaitingCall::element).containsExactly(1, 2);
            assertThat(store.find(id).orElseThrow().approvals())
                    .extracting(StoredApproval::element, StoredApproval::decision)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(0, "approved"),
                            org.assertj.core.groups.Tuple.tuple(1, null),
                            org.assertj.core.groups.Tuple.tuple(2, null));

            DurableRun second = runs.approve(id, true, "", session(), Map.of());
            assertThat(sent).containsExactly("alice@x", "bob@x");
            assertThat(second.result().pending().element()).isEqualTo(2);

            DurableRun last = runs.approve(id, true, "", session(), Map.of());
            assertThat(last.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(sent).as("every call made once").containsExactly("alice@x", "bob@x", "mallory@x");
            assertThat(last.result().finalAnswer().toString())
                    .isEqualTo("[\"sent to alice@x\",\"sent to bob@x\",\"sent to mallory@x\"]");
        }
    }

    @Test
    void approving_every_waiting_call_at_once_names_each_of_them() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm vm = builder().build();
            DurableRuns runs = new DurableRuns(vm, store);
            String id = runs.start(plan(vm, MAIL), to(THREE), RunMode.live()).id();
            List<String> all =
                    runs.waiting(id).stream().map(WaitingCall::callId).toList();
            assertThatThrownBy(() ->
                            runs.approve(id, List.of(all.get(1), "0123456789abcdef"), true, "", session(), Map.of()))
                    .isInstanceOf(DurableRunException.class)
                    .hasMessageContaining("does not wait for the approval of call '0123456789abcdef'");
            assertThat(store.find(id).orElseThrow().pendingApprovals())
                    .as("an unknown id decides nothing")
                    .hasSize(3);
            DurableRun done = runs.approve(id, all, true, "all three", session(), Map.of());
            assertThat(done.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(sent).containsExactlyInAnyOrder("alice@x", "bob@x", "mallory@x");
        }
    }

    @Test
    void a_named_element_is_decided_alone_and_a_denial_without_on_error_fails_the_step_at_once() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm vm = builder().build();
            DurableRuns runs = new DurableRuns(vm, store);
            String id = runs.start(plan(vm, MAIL), to(THREE), RunMode.live()).id();
            String mallory = runs.waiting(id).get(2).callId();
            DurableRun approved =
                    runs.approve(id, List.of(runs.waiting(id).get(1).callId()), true, "", session(), Map.of());
            assertThat(sent).containsExactly("bob@x");
            assertThat(approved.result().pending().element())
                    .as("element 0 still waits first")
                    .isZero();
            DurableRun denied = runs.approve(id, List.of(mallory), false, "not her", session(), Map.of());
            assertThat(denied.result().status()).isEqualTo(RunStatus.FAILED);
            assertThat(denied.result().error().message())
                    .isEqualTo("for_each element 2 (of 3): tool 'send_mail' failed: denied by a reviewer: not her");
            assertThat(sent)
                    .as("alice, who still waited, is not asked for any more")
                    .containsExactly("bob@x");
        }
    }

    @Test
    void with_an_on_error_value_a_denied_element_stands_in_and_the_others_are_still_asked() {
        String plan = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "send_mail", "for_each": "${to}", "as": "who", "tool_params": {"to": "${who}"}, "on_error": {"value": "not sent"}, "output_vars": "final_answer"}}]""";
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm vm = builder().build();
            DurableRuns runs = new DurableRuns(vm, store);
            String id = runs.start(plan(vm, plan), to(THREE), RunMode.live()).id();
            DurableRun denied =
                    runs.approve(id, List.of(runs.waiting(id).get(1).callId()), false, "no", session(), Map.of());
            assertThat(denied.result().status()).isEqualTo(RunStatus.WAITING);
            assertThat(denied.waiting()).extracting(WaitingCall::element).containsExactly(0, 2);
            DurableRun done = runs.approve(
                    id, denied.waiting().stream().map(WaitingCall::callId).toList(), true, "", session(), Map.of());
            assertThat(done.result().finalAnswer().toString())
                    .isEqualTo("[\"sent to alice@x\",\"not sent\",\"sent to mallory@x\"]");
        }
    }

    @Test
    void two_elements_with_the_same_params_are_two_calls_to_approve() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm vm = builder().build();
            DurableRuns runs = new DurableRuns(vm, store);
            DurableRun run = runs.start(plan(vm, MAIL), to(List.of("ann@x", "ann@x")), RunMode.live());
            assertThat(run.waiting()).extracting(WaitingCall::element).containsExactly(0, 1);
            DurableRun once = runs.approve(run.id(), true, "", session(), Map.of());
            assertThat(sent).as("one approval sends one mail").containsExactly("ann@x");
            assertThat(once.result().status()).isEqualTo(RunStatus.WAITING);
        }
    }

    @Test
    void a_map_of_sequential_elements_waits_the_same_way() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm vm = builder().sequential(true).build();
            DurableRuns runs = new DurableRuns(vm, store);
            DurableRun run = runs.start(plan(vm, MAIL), to(THREE), RunMode.live());
            assertThat(run.waiting()).extracting(WaitingCall::element).containsExactly(0, 1, 2);
            DurableRun first = runs.approve(run.id(), true, "", session(), Map.of());
            assertThat(sent).containsExactly("alice@x");
            assertThat(first.result().pending().element()).isEqualTo(1);
        }
    }

    @Test
    void a_store_written_before_elements_waited_on_their_own_opens_and_keeps_its_waiting_call() throws Exception {
        Path file = dir.resolve("old.db");
        String one = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "send_mail", "tool_params": {"to": "ann@x"}, "output_vars": "final_answer"}}]""";
        String id;
        try (RunStore store = RunStore.open(file)) {
            PlanVm vm = builder().build();
            id = new DurableRuns(vm, store)
                    .start(plan(vm, one), Map.of(), RunMode.live())
                    .id();
        }
        try (java.sql.Connection raw = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
                java.sql.Statement sql = raw.createStatement()) { // as an earlier version made the store
            for (String[] table : new String[][] {
                {"approvals", "decision TEXT, reason TEXT, decided_at TEXT", "decision, reason, decided_at"},
                {"waits", "answer_json TEXT, answered_at TEXT", "answer_json, answered_at"}
            }) {
                String columns = "run_id, step_index, seq_no, tool, params_json, requested_at, " + table[2];
                sql.execute("CREATE TABLE old (run_id TEXT NOT NULL REFERENCES runs (id), step_index INTEGER NOT NULL, "
                        + "seq_no INTEGER NOT NULL, tool TEXT NOT NULL, params_json TEXT NOT NULL, requested_at TEXT NOT "
                        + "NULL, " + table[1] + ", PRIMARY KEY (run_id, step_index, tool, params_json))");
                sql.execute("INSERT INTO old SELECT " + columns + " FROM " + table[0]);
                sql.execute("DROP TABLE " + table[0]);
                sql.execute("ALTER TABLE old RENAME TO " + table[0]);
            }
        }
        try (RunStore store = RunStore.open(file)) {
            PlanVm vm = builder().build();
            DurableRuns runs = new DurableRuns(vm, store);
            assertThat(runs.waiting(id))
                    .singleElement()
                    .satisfies(call -> assertThat(call.isElement()).isFalse());
            assertThat(runs.approve(id, true, "", session(), Map.of()).result().status())
                    .isEqualTo(RunStatus.SUCCEEDED);
            assertThat(runs.start(plan(vm, MAIL), to(List.of("ann@x", "ann@x")), RunMode.live())
                            .waiting())
                    .as("the rebuilt table tells elements with the same params apart")
                    .hasSize(2);
        }
    }

    // human_input

    private static final String ASK = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "for_each": "${customers}", "as": "item", "tool_params": {"prompt": "Delete customer ${item}?", "choices": ["yes", "no"]}, "output_vars": "final_answer"}}]""";

    @Test
    void each_element_of_a_human_input_map_asks_its_own_question_and_takes_its_own_answer() {
        Path file = dir.resolve("runs.db");
        String id;
        try (RunStore store = RunStore.open(file)) {
            PlanVm vm = PlanVm.builder().build();
            DurableRun run = new DurableRuns(vm, store)
                    .start(
                            plan(vm, ASK),
                            Map.of(
                                    "customers",
                                    dev.planvm.json.JsonMappers.mapper(dev.planvm.json.JsonLimits.STORE)
                                            .valueToTree(List.of("a", "b", "c"))),
                            RunMode.live());
            id = run.id();
            assertThat(run.result().error().kind()).isEqualTo(FailureKind.WAITING_FOR_INPUT);
            assertThat(run.result().error().message())
                    .isEqualTo("for_each element 0: waiting for input: Delete customer a?");
            assertThat(store.pendingInputs(id))
                    .extracting(StoredInput::callId, i -> i.request().prompt())
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("step-1-element-0", "Delete customer a?"),
                            org.assertj.core.groups.Tuple.tuple("step-1-element-1", "Delete customer b?"),
                            org.assertj.core.groups.Tuple.tuple("step-1-element-2", "Delete customer c?"));
        }
        try (RunStore store = RunStore.open(file)) { // a new process
            DurableRuns runs = new DurableRuns(PlanVm.builder().build(), store);
            DurableRun first = runs.answer(id, null, TextNode.valueOf("yes"), session(), Map.of());
            assertThat(first.result().status())
                    .as("one answer answers one question")
                    .isEqualTo(RunStatus.WAITING);
            assertThat(first.result().error().message())
                    .isEqualTo("for_each element 1: waiting for input: Delete customer b?");
            assertThat(first.waiting())
                    .extracting(WaitingCall::callId, WaitingCall::describe)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(
                                    "step-1-element-1", "seq_no 0 (for_each element 1) asks: Delete customer b?"),
                            org.assertj.core.groups.Tuple.tuple(
                                    "step-1-element-2", "seq_no 0 (for_each element 2) asks: Delete customer c?"));
            DurableRun third = runs.answer(id, "step-1-element-2", TextNode.valueOf("no"), session(), Map.of());
            assertThat(third.result().status()).isEqualTo(RunStatus.WAITING);
            assertThat(third.waiting()).extracting(WaitingCall::callId).containsExactly("step-1-element-1");
            assertThatThrownBy(() -> runs.answer(id, "step-1-element-0", TextNode.valueOf("no"), session(), Map.of()))
                    .as("an answered question is not asked again")
                    .isInstanceOf(DurableRunException.class)
                    .hasMessageContaining("waits for input step-1-element-1, not step-1-element-0");
            DurableRun done = runs.answer(id, "step-1-element-1", TextNode.valueOf("yes"), session(), Map.of());
            assertThat(done.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(done.result().finalAnswer().toString()).isEqualTo("[\"yes\",\"yes\",\"no\"]");
            assertThat(store.inputs(id))
                    .extracting(StoredInput::element, i -> i.answer().asText())
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(0, "yes"),
                            org.assertj.core.groups.Tuple.tuple(1, "yes"),
                            org.assertj.core.groups.Tuple.tuple(2, "no"));
        }
    }

    // sleep

    private static final String NAPS = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "sleep", "for_each": "${[1, 2, 3, 4]}", "tool_params": {"seconds": 3}, "output_vars": "naps"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "done"}}]""";

    private static final Instant START = Instant.parse("2026-11-26T10:00:00Z");

    /** A clock the sleeper moves: sleeping takes no time of the test's. */
    private static final class TestClock extends Clock {
        volatile Instant now = START;

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void each_element_of_a_sleep_map_keeps_its_own_wake_time_and_a_resume_sleeps_what_is_left_of_it() {
        TestClock clock = new TestClock();
        List<Duration> sleeps = new CopyOnWriteArrayList<>();
        Sleeper moving = duration -> {
            sleeps.add(duration);
            if (sleeps.size() == 4) {
                throw new IllegalStateException("the process stops while element 3 sleeps");
            }
            clock.now = clock.now.plus(duration);
        };
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm dying = PlanVm.builder()
                    .clock(clock)
                    .retrySleeper(moving)
                    .maxInFlightPerRun(1)
                    .build();
            DurableRun stopped = new DurableRuns(dying, store).start(plan(dying, NAPS), Map.of(), RunMode.live());
            String id = stopped.id();
            assertThat(stopped.result().status()).isEqualTo(RunStatus.FAILED);
            assertThat(sleeps)
                    .as("one element at a time, each sleeps its own three seconds")
                    .containsExactly(
                            Duration.ofSeconds(3), Duration.ofSeconds(3), Duration.ofSeconds(3), Duration.ofSeconds(3));
            assertThat(store.stepWaits().wakes(id))
                    .as("each element keeps the wake time it planned when it started")
                    .extracting(StoredWake::element, StoredWake::wakeAt)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(0, START.plusSeconds(3)),
                            org.assertj.core.groups.Tuple.tuple(1, START.plusSeconds(6)),
                            org.assertj.core.groups.Tuple.tuple(2, START.plusSeconds(9)),
                            org.assertj.core.groups.Tuple.tuple(3, START.plusSeconds(12)));

            clock.now = START.plusSeconds(10); // two seconds of element 3's nap are left
            sleeps.clear();
            PlanVm later = PlanVm.builder()
                    .clock(clock)
                    .retrySleeper(duration -> {
                        sleeps.add(duration);
                        clock.now = clock.now.plus(duration);
                    })
                    .maxInFlightPerRun(1)
                    .build();
            RunResult resumed = new DurableRuns(later, store)
                    .resume(id, RunMode.live(), Map.of())
                    .result();
            assertThat(resumed.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(sleeps)
                    .as("elements 0 to 2 answered before; 3 sleeps what is left of its own timer")
                    .containsExactly(Duration.ofSeconds(2));
            JsonNode naps = resumed.variables().get("naps");
            assertThat(naps.findValuesAsText("woke_at"))
                    .containsExactly(
                            "2026-11-26T10:00:03Z",
                            "2026-11-26T10:00:06Z",
                            "2026-11-26T10:00:09Z",
                            "2026-11-26T10:00:12Z");
            assertThat(naps.get(3).path("slept_seconds").decimalValue()).isEqualByComparingTo("2");
        }
    }
}
