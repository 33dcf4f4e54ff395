package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run store never lies: a step it cannot record stops the run, growth is bounded, refusals leave nothing. */
class StoreHardeningTest {

    private static final String THREE_STEPS = """
            [{"seq_no": 0, "type": "assign", "parameters": {"a": 1}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "sabotage", "output_vars": "b"}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${b}"}}]""";

    @TempDir
    Path dir;

    private Path db() {
        return dir.resolve("runs.db");
    }

    private void sql(String statement) {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db());
                Statement s = connection.createStatement()) {
            s.execute("PRAGMA busy_timeout=10000");
            s.execute(statement);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void a_step_the_store_cannot_record_stops_the_run_and_what_was_committed_stays_consistent() {
        // the tool takes the step's row first (another writer), so committing step 2 breaks a constraint
        PlanVm vm = PlanVm.builder()
                .tool(Tool.of("sabotage", "", (params, context) -> {
                    sql(
                            "INSERT INTO steps (run_id, step_index, seq_no, type, outcome, next_position, writes_json, calls_json, "
                                    + "trace_json, session, committed_at) SELECT id, 2, 9, 'x', 'next', 0, '{}', '[]', '{}', 1, 't' FROM runs");
                    return TextNode.valueOf("done");
                }))
                .build();
        Plan plan = vm.loader().load(THREE_STEPS, "p.json").planOrThrow();
        try (RunStore store = RunStore.open(db())) {
            DurableRun run = new DurableRuns(vm, store).start(plan, Map.of(), RunMode.live());
            assertThat(run.result().status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.result().error().seqNo()).isEqualTo(1);
            assertThat(run.result().error().message())
                    .startsWith("the step could not be recorded, so the run stops here: " + db() + ": ")
                    .contains("UNIQUE constraint failed");
            StoredRun stored = store.find(run.id()).orElseThrow();
            assertThat(stored.status()).isEqualTo(RunStatus.FAILED);
            assertThat(stored.steps()).extracting(StoredStep::seqNo).containsExactly(0, 9);
        }
    }

    @Test
    void a_run_past_its_store_budget_stops_with_a_sentence_naming_the_limit() {
        PlanVm vm = PlanVm.builder().maxSteps(10_000).build();
        Plan plan = vm.loader().load("""
                [{"seq_no": 0, "type": "assign", "parameters": {"i": 0, "acc": ""}},
                 {"seq_no": 1, "type": "assign", "parameters": {"acc": "${acc + 'x' + i}", "i": "${i + 1}"}},
                 {"seq_no": 2, "type": "jmp", "parameters": {"condition": "${i < 3000}", "jump_if_true": 1}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${len(acc)}"}}]""", "grow.json").planOrThrow();
        try (RunStore store = RunStore.open(
                db(), dev.planvm.tools.Redactor.none(), RunStore.Settings.DEFAULT.withMaxRunBytes(200_000))) {
            RunResult result = new DurableRuns(vm, store)
                    .start(plan, Map.of(), RunMode.live())
                    .result();
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.error().message())
                    .contains("would store more than 200,000 bytes")
                    .contains("--max-store-bytes");
        }
    }

    @Test
    void re_assigning_a_large_value_in_a_loop_stores_it_once() throws IOException {
        PlanVm vm = PlanVm.builder().maxSteps(10_000).build();
        Plan plan = vm.loader().load("""
                [{"seq_no": 0, "type": "assign", "parameters": {"i": 0}},
                 {"seq_no": 1, "type": "assign", "parameters": {"copy": "${big}", "i": "${i + 1}"}},
                 {"seq_no": 2, "type": "jmp", "parameters": {"condition": "${i < 200}", "jump_if_true": 1}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${len(copy)}"}}]""", "loop.json").planOrThrow();
        try (RunStore store = RunStore.open(
                db(),
                dev.planvm.tools.Redactor.none(),
                RunStore.Settings.DEFAULT.withDurability(RunStore.Durability.PROCESS))) {
            RunResult result = new DurableRuns(vm, store)
                    .start(plan, Map.of("big", TextNode.valueOf("y".repeat(100_000))), RunMode.live())
                    .result();
            assertThat(result.finalAnswer().asInt()).isEqualTo(100_000);
        }
        // 200 passes of a 100,000-character value: 20 MB written naively, about 0.1 MB with one copy
        assertThat(storeBytes()).isLessThan(2_000_000);
        try (RunStore store = RunStore.open(db())) {
            StoredRun run = store.find(store.list(1).get(0).id()).orElseThrow();
            assertThat(run.steps().stream().filter(step -> step.seqNo() == 1))
                    .hasSize(200)
                    .allSatisfy(step ->
                            assertThat(step.writes().get("copy").asText()).hasSize(100_000));
            assertThat(run.checkpoint().variables().get("copy").asText()).hasSize(100_000);
        }
    }

    private long storeBytes() throws IOException {
        long bytes = 0;
        for (String suffix : List.of("", "-wal")) {
            Path file = dir.resolve("runs.db" + suffix);
            bytes += Files.exists(file) ? Files.size(file) : 0;
        }
        return bytes;
    }

    @Test
    void pruning_keeps_the_newest_runs_and_drops_values_no_run_uses() throws Exception {
        PlanVm vm = PlanVm.builder().build();
        Plan plan = vm.loader()
                .load(
                        "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${big}\"}}]",
                        "p.json")
                .planOrThrow();
        try (RunStore store = RunStore.open(db())) {
            DurableRuns runs = new DurableRuns(vm, store);
            for (int i = 0; i < 3; i++) {
                runs.start(
                        plan, Map.of("big", TextNode.valueOf(String.valueOf(i).repeat(1000))), RunMode.live());
                Thread.sleep(5);
            }
            String newest = store.list(1).get(0).id();
            assertThat(store.prune(null, 1)).isEqualTo(2);
            assertThat(store.list(10)).extracting(RunSummary::id).containsExactly(newest);
            assertThat(count("blobs")).isEqualTo(1);
            assertThat(store.prune(Duration.ofDays(30), null)).isZero();
            assertThat(store.prune(Duration.ZERO, null)).isEqualTo(1);
            assertThat(count("blobs")).isZero();
        }
    }

    private int count(String table) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db());
                var rs = connection.createStatement().executeQuery("SELECT COUNT(*) FROM " + table)) {
            return rs.getInt(1);
        }
    }

    @Test
    void a_resume_refused_before_it_runs_changes_nothing_in_the_store() {
        PlanVm withTool = PlanVm.builder()
                .tool(Tool.of("sabotage", "", (p, c) -> {
                    throw dev.planvm.tools.ToolException.permanent("down");
                }))
                .build();
        Plan plan = withTool.loader().load(THREE_STEPS, "p.json").planOrThrow();
        try (RunStore store = RunStore.open(db())) {
            String id = new DurableRuns(withTool, store)
                    .start(plan, Map.of(), RunMode.live())
                    .id();
            StoredRun before = store.find(id).orElseThrow();
            PlanVm without = PlanVm.builder().build();
            assertThatThrownBy(() -> new DurableRuns(without, store).resume(id, RunMode.live(), Map.of()))
                    .isInstanceOf(PlanRejectedException.class);
            assertThatThrownBy(() -> new DurableRuns(without, store).rerun(id, 1, Map.of(), RunMode.live()))
                    .isInstanceOf(PlanRejectedException.class);
            assertThat(store.list(10))
                    .singleElement()
                    .satisfies(s -> assertThat(s.state()).isEqualTo("failed"));
            assertThat(store.find(id).orElseThrow().sessions()).isEqualTo(before.sessions());
        }
    }

    @Test
    void of_two_processes_claiming_an_interrupted_run_at_once_one_proceeds() throws Exception {
        PlanVm vm = PlanVm.builder().build();
        Plan plan = vm.loader()
                .load("[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]", "p")
                .planOrThrow();
        String id;
        try (RunStore store = RunStore.open(db())) {
            id = store.createRun(plan, Map.of(), "live", null, null);
            store.release(id);
        }
        // the run's owner is now a process of another host whose lease ran out: claimable by anyone
        sql("UPDATE runs SET owner = '1@elsewhere@0', lease_until = 1 WHERE id = '" + id + "'");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (RunStore first = RunStore.open(db());
                RunStore second = RunStore.open(db())) {
            List<Future<Integer>> claims =
                    pool.invokeAll(List.<Callable<Integer>>of(() -> claim(first, id), () -> claim(second, id)));
            int won = 0;
            for (Future<Integer> claim : claims) {
                won += claim.get();
            }
            assertThat(won).isEqualTo(1);
            assertThat(first.list(1).get(0).state()).isEqualTo("running");
        } finally {
            pool.shutdownNow();
        }
    }

    private static int claim(RunStore store, String id) {
        try {
            store.claim(id, false);
            return 1;
        } catch (DurableRunException refused) {
            assertThat(refused.getMessage())
                    .startsWith("run " + id + " is running in process ")
                    .endsWith("; use --force after it died");
            return 0;
        }
    }

    @Test
    void a_run_whose_owner_is_alive_elsewhere_is_refused_unless_forced_and_a_stale_lease_is_taken_over() {
        PlanVm vm = PlanVm.builder().build();
        Plan plan = vm.loader()
                .load("[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]", "p")
                .planOrThrow();
        try (RunStore store = RunStore.open(db())) {
            String id = store.createRun(plan, Map.of(), "live", null, null);
            store.release(id);
            sql("UPDATE runs SET owner = '4242@otherhost@0', owned_since = '2026-11-22T10:00:00Z', lease_until = "
                    + (System.currentTimeMillis() + 600_000) + " WHERE id = '" + id + "'");
            assertThat(store.list(1).get(0).state()).isEqualTo("running");
            assertThatThrownBy(() -> new DurableRuns(vm, store).resume(id, RunMode.live(), Map.of()))
                    .isInstanceOf(DurableRunException.class)
                    .hasMessage(
                            "run " + id + " is running in process 4242 on host otherhost since 2026-11-22T10:00:00Z; "
                                    + "use --force after it died");
            sql("UPDATE runs SET lease_until = " + (System.currentTimeMillis() - 1) + " WHERE id = '" + id + "'");
            assertThat(store.list(1).get(0).state()).isEqualTo("interrupted");
            assertThat(new DurableRuns(vm, store)
                            .resume(id, RunMode.live(), Map.of())
                            .result()
                            .succeeded())
                    .isTrue();

            String other = store.createRun(plan, Map.of(), "live", null, null);
            store.release(other);
            sql("UPDATE runs SET owner = '4242@otherhost@0', lease_until = " + (System.currentTimeMillis() + 600_000)
                    + " WHERE id = '" + other + "'");
            assertThat(new DurableRuns(vm, store)
                            .resume(other, RunRequest.builder().build(), Map.of(), true)
                            .result()
                            .succeeded())
                    .isTrue();
        }
    }

    @Test
    void read_only_opening_never_creates_a_store() {
        Path missing = dir.resolve("typo/runs.db");
        assertThatThrownBy(() -> RunStore.openExisting(missing))
                .isInstanceOf(DurableRunException.class)
                .hasMessageStartingWith("there is no run store at " + missing);
        assertThat(missing.getParent()).doesNotExist();
    }

    @Test
    void full_durability_syncs_every_commit_and_process_durability_does_not() {
        try (RunStore full = RunStore.open(db());
                RunStore process = RunStore.open(
                        db(),
                        dev.planvm.tools.Redactor.none(),
                        RunStore.Settings.DEFAULT.withDurability(RunStore.Durability.PROCESS))) {
            assertThat(full.synchronousPragma()).isEqualTo(2); // FULL
            assertThat(process.synchronousPragma()).isEqualTo(1); // NORMAL
        }
    }
}
