package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.RunControl;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Human approval of tool calls, cancelling and interrupting runs, and per-run options, in the core. */
class ApprovalsTest {

    /** Looks something up, mails it, then finishes. */
    private static final String MAIL = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "lookup", "tool_params": {"q": "${who}"}, "output_vars": "addr"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "send_mail", "tool_params": {"to": "${addr}"}, "output_vars": "sent"}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${sent}"}}]""";

    @TempDir
    Path dir;

    private final AtomicInteger sends = new AtomicInteger();
    private final AtomicInteger lookups = new AtomicInteger();

    private PlanVmBuilder builder() {
        return PlanVm.builder()
                .tool(Tool.of("lookup", "", (p, c) -> {
                    lookups.incrementAndGet();
                    return TextNode.valueOf(p.path("q").asText() + "@example.com");
                }))
                .tool(Tool.of("send_mail", "", (p, c) -> {
                    sends.incrementAndGet();
                    return TextNode.valueOf("sent to " + p.path("to").asText());
                }));
    }

    private static Plan plan(PlanVm vm, String json) {
        return vm.loader().load(json, "mail.json").planOrThrow();
    }

    private static Map<String, JsonNode> who() {
        return Map.of("who", TextNode.valueOf("ann"));
    }

    @Test
    void a_call_needing_approval_ends_the_run_waiting_before_the_call_with_the_pending_call_in_the_result() {
        PlanVm vm = builder().approveTools(List.of("send_*")).build();
        RunResult result = vm.run(plan(vm, MAIL), who());
        assertThat(result.status()).isEqualTo(RunStatus.WAITING);
        assertThat(sends).hasValue(0);
        assertThat(result.pending().seqNo()).isEqualTo(1);
        assertThat(result.pending().tool()).isEqualTo("send_mail");
        assertThat(result.pending().params().path("to").asText()).isEqualTo("ann@example.com");
        assertThat(result.steps()).as("the waiting step is not counted").isEqualTo(1);
        assertThat(result.error().describe())
                .isEqualTo(
                        "seq_no 1 (calling): waiting for approval to call tool 'send_mail' with {\"to\":\"ann@example.com\"}");
        assertThat(result.trace().path("status").asText()).isEqualTo("waiting");
        assertThat(result.trace().at("/pending/tool").asText()).isEqualTo("send_mail");
    }

    @Test
    void a_reviewer_that_approves_lets_the_call_proceed_and_one_that_denies_fails_the_step_with_the_reason() {
        PlanVm approving = builder()
                .approveTools(List.of("send_*"))
                .approvals(call -> Optional.of(Approvals.Decision.approve()))
                .build();
        assertThat(approving.run(plan(approving, MAIL), who()).finalAnswer().asText())
                .isEqualTo("sent to ann@example.com");
        PlanVm denying = builder()
                .approveTools(List.of("send_*"))
                .approvals(call -> Optional.of(Approvals.Decision.deny("not on Sundays")))
                .build();
        RunResult denied = denying.run(plan(denying, MAIL), who());
        assertThat(denied.status()).isEqualTo(RunStatus.FAILED);
        assertThat(denied.error().describe())
                .isEqualTo("seq_no 1 (calling): tool 'send_mail' failed: denied by a reviewer: not on Sundays");
        assertThat(sends).as("one approved call, no denied one").hasValue(1);
    }

    @Test
    void dry_runs_and_replays_ask_nobody() {
        PlanVm vm = builder().approveTools(List.of("send_*")).build();
        assertThat(vm.run(plan(vm, MAIL), who(), RunMode.dryRun(false)).status())
                .isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void a_tool_needing_approval_never_starts_ahead_of_its_turn_and_later_calls_wait_for_it() {
        String plan = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "slow", "tool_params": {"n": 1}, "output_vars": "a"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "send_mail", "tool_params": {"to": "x"}, "output_vars": "s"}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "slow", "tool_params": {"n": 2}, "output_vars": "b"}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${a + b}"}}]""";
        PlanVm vm = builder()
                .tool(Tool.of("slow", "", (p, c) -> {
                    sleep(60);
                    return TextNode.valueOf(p.path("n").asText());
                }))
                .approveTools(List.of("send_*"))
                .approvals(call -> Optional.of(Approvals.Decision.approve()))
                .build();
        RunResult result = vm.run(plan(vm, plan), Map.of());
        assertThat(result.finalAnswer().asText()).isEqualTo("12");
        JsonNode calls = result.trace().path("calls");
        assertThat(calls).hasSize(3);
        double firstEnds = calls.get(0).path("start_ms").asDouble()
                + calls.get(0).path("duration_ms").asDouble();
        double sendStarts = calls.get(1).path("start_ms").asDouble();
        double sendEnds = sendStarts + calls.get(1).path("duration_ms").asDouble();
        assertThat(calls.get(1).path("tool").asText()).isEqualTo("send_mail");
        assertThat(sendStarts).as("send_mail waits for the call before it").isGreaterThanOrEqualTo(firstEnds);
        assertThat(calls.get(2).path("start_ms").asDouble())
                .as("the call after it waits for it")
                .isGreaterThanOrEqualTo(sendEnds);
        assertThat(result.earlyCalls().started()).isZero();
    }

    @Test
    void a_waiting_durable_run_survives_a_restart_and_approving_it_makes_the_call_once_and_finishes() {
        Path file = dir.resolve("runs.db");
        String id;
        try (RunStore store = RunStore.open(file)) {
            PlanVm vm = builder().approveTools(List.of("send_*")).build();
            DurableRun run = new DurableRuns(vm, store).start(plan(vm, MAIL), who(), RunMode.live());
            id = run.id();
            assertThat(run.result().status()).isEqualTo(RunStatus.WAITING);
        }
        try (RunStore store = RunStore.open(file)) { // a new process: nothing in memory
            StoredRun stored = store.find(id).orElseThrow();
            assertThat(stored.status()).isEqualTo(RunStatus.WAITING);
            assertThat(stored.finishedAt()).as("a waiting run has not finished").isNull();
            assertThat(store.list(1).get(0).state()).isEqualTo("waiting");
            assertThat(stored.pendingApproval().orElseThrow().tool()).isEqualTo("send_mail");
            assertThat(stored.pendingApproval()
                            .orElseThrow()
                            .params()
                            .path("to")
                            .asText())
                    .isEqualTo("ann@example.com");
            assertThat(stored.options().approveTools())
                    .as("the VM's rules are kept with the run")
                    .containsExactly("send_*");
            PlanVm vm = builder().approveTools(List.of("send_*")).build();
            DurableRuns runs = new DurableRuns(vm, store);
            assertThatThrownBy(() -> runs.resume(id, RunMode.live(), Map.of()))
                    .isInstanceOf(DurableRunException.class)
                    .hasMessageContaining("waits for approval of seq_no 1 (send_mail)");
            DurableRun approved =
                    runs.approve(id, true, "looks fine", RunRequest.builder().build(), Map.of());
            assertThat(approved.result().finalAnswer().asText()).isEqualTo("sent to ann@example.com");
            assertThat(sends).hasValue(1);
            assertThat(lookups).as("the committed lookup is not called again").hasValue(1);
            StoredRun done = store.find(id).orElseThrow();
            assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(done.approvals()).singleElement().satisfies(a -> {
                assertThat(a.decision()).isEqualTo("approved");
                assertThat(a.reason()).isEqualTo("looks fine");
            });
            assertThatThrownBy(() ->
                            runs.approve(id, true, "", RunRequest.builder().build(), Map.of()))
                    .isInstanceOf(DurableRunException.class)
                    .hasMessageContaining("does not wait for approval (it is succeeded)");
        }
    }

    @Test
    void a_process_without_the_approval_rules_that_denies_a_waiting_run_still_calls_nothing() {
        Path file = dir.resolve("runs.db");
        String id;
        try (RunStore store = RunStore.open(file)) {
            PlanVm vm = builder().approveTools(List.of("send_*")).build();
            id = new DurableRuns(vm, store)
                    .start(plan(vm, MAIL), who(), RunMode.live())
                    .id();
        }
        try (RunStore store = RunStore.open(file)) { // planvm approve RUN --deny, without --approve-tools
            PlanVm bare = builder().build();
            DurableRun denied = new DurableRuns(bare, store)
                    .approve(id, false, "wrong address", RunRequest.builder().build(), Map.of());
            assertThat(sends).as("a denied call is never made").hasValue(0);
            assertThat(denied.result().status()).isEqualTo(RunStatus.FAILED);
            assertThat(denied.result().error().message()).contains("wrong address");
        }
    }

    @Test
    void denying_a_waiting_durable_run_fails_its_step_with_the_reason_and_calls_nothing() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm vm = builder().build();
            DurableRuns runs = new DurableRuns(vm, store);
            RunOptions options = new RunOptions(List.of(), List.of(), List.of("send_mail"), null, null);
            DurableRun run = runs.start(RunRequest.builder(plan(vm, MAIL))
                    .inputs(who())
                    .options(options)
                    .build());
            assertThat(run.result().status()).as("the run's own approveTools").isEqualTo(RunStatus.WAITING);
            assertThat(store.find(run.id()).orElseThrow().options().withClock(null))
                    .isEqualTo(options);
            assertThat(store.find(run.id()).orElseThrow().options().clock())
                    .as("the clock fixed at the start")
                    .isNotNull();
            DurableRun denied = runs.approve(
                    run.id(), false, "wrong address", RunRequest.builder().build(), Map.of());
            assertThat(denied.result().error().describe())
                    .isEqualTo("seq_no 1 (calling): tool 'send_mail' failed: denied by a reviewer: wrong address");
            assertThat(sends).hasValue(0);
            assertThat(store.find(run.id()).orElseThrow().status()).isEqualTo(RunStatus.FAILED);
        }
    }

    @Test
    void a_reviewer_of_a_durable_run_is_asked_once_and_its_decision_is_recorded() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            AtomicInteger asked = new AtomicInteger();
            PlanVm vm = builder()
                    .approveTools(List.of("send_*"))
                    .approvals(call -> {
                        asked.incrementAndGet();
                        return Optional.of(Approvals.Decision.approve());
                    })
                    .build();
            DurableRun run = new DurableRuns(vm, store).start(plan(vm, MAIL), who(), RunMode.live());
            assertThat(run.result().succeeded()).isTrue();
            assertThat(asked).hasValue(1);
            assertThat(store.find(run.id()).orElseThrow().approvals())
                    .singleElement()
                    .satisfies(a -> assertThat(a.decision()).isEqualTo("approved"));
        }
    }

    @Test
    void an_interrupted_run_stops_after_the_step_in_progress_commits_and_resumes_from_there() throws Exception {
        CountDownLatch inLookup = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        PlanVm vm = builder()
                .tool(Tool.of("blocking", "", (p, c) -> {
                    inLookup.countDown();
                    await(release);
                    return TextNode.valueOf("done");
                }))
                .build();
        String plan = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "blocking", "output_vars": "x"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "lookup", "tool_params": {"q": "${x}"}, "output_vars": "y"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${x + ' ' + y}"}}]""";
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            RunControl control = new RunControl();
            Thread stopper = new Thread(() -> {
                await(inLookup);
                control.interrupt("the server is shutting down");
                release.countDown();
            });
            stopper.start();
            DurableRuns runs = new DurableRuns(vm, store);
            DurableRun run = runs.start(
                    RunRequest.builder(plan(vm, plan)).control(control).build());
            stopper.join();
            assertThat(run.result().interrupted()).isTrue();
            assertThat(run.result().error().describe())
                    .isEqualTo("seq_no 1 (calling): the run was interrupted before this "
                            + "step (the server is shutting down); resume continues it here");
            assertThat(lookups).hasValue(0);
            StoredRun stored = store.find(run.id()).orElseThrow();
            assertThat(stored.steps()).as("the step in progress committed").hasSize(1);
            assertThat(store.list(1).get(0).state()).isEqualTo("interrupted");
            DurableRun resumed = runs.resume(run.id(), RunMode.live(), Map.of());
            assertThat(resumed.result().finalAnswer().asText()).isEqualTo("done done@example.com");
        }
    }

    @Test
    void a_cancelled_run_fails_before_its_next_step() {
        PlanVm vm = builder().build();
        RunControl control = new RunControl();
        control.cancel("the user changed their mind");
        RunResult result = vm.run(RunRequest.builder(plan(vm, MAIL))
                .inputs(who())
                .control(control)
                .build());
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().describe())
                .isEqualTo("seq_no 0 (calling): the run was cancelled before this step: the user changed their mind");
        assertThat(lookups).hasValue(0);
    }

    @Test
    void a_runs_own_tool_policy_narrows_the_vms_and_its_step_limit_cannot_raise_the_vms() {
        PlanVm vm = builder().maxSteps(50).build();
        RunOptions narrow = new RunOptions(List.of("lookup"), List.of(), List.of(), null, null);
        assertThatThrownBy(() -> vm.run(RunRequest.builder(plan(vm, MAIL))
                        .inputs(who())
                        .options(narrow)
                        .build()))
                .isInstanceOf(PlanRejectedException.class)
                .hasMessageContaining("seq_no 1: tool 'send_mail' is denied by this run's tool policy");
        RunOptions twoSteps = new RunOptions(List.of(), List.of(), List.of(), 2, null);
        RunResult limited = vm.run(RunRequest.builder(plan(vm, MAIL))
                .inputs(who())
                .options(twoSteps)
                .build());
        assertThat(limited.error().message()).contains("the limit of 2 steps");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
