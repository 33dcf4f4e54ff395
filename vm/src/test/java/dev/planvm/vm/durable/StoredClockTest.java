package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.RunOptions;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A stored run keeps its clock: a resume or a rerun a day later computes the same dates. */
class StoredClockTest {

    private static final ZoneId OSLO = ZoneId.of("Europe/Oslo");
    /** Thursday 2026-11-26, 12:00 in Oslo. */
    private static final Instant THURSDAY = Instant.parse("2026-11-26T11:00:00Z");

    private static final long DAY = 86_400;

    /** Reads today before and after a call that fails until the service is back. */
    private static final String PLAN = """
            [{"seq_no": 0, "type": "assign", "parameters": {"before": "${today}"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "flaky", "output_vars": "r"}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${before} ${today} ${r}"}}]""";

    @TempDir
    Path dir;

    private final AtomicBoolean down = new AtomicBoolean(true);

    private PlanVm vm(Instant now) {
        return PlanVm.builder()
                .clock(Clock.fixed(now, OSLO))
                .tool(Tool.of("flaky", "", (params, context) -> {
                    if (down.get()) {
                        throw ToolException.permanent("the service is down");
                    }
                    return TextNode.valueOf("ok");
                }))
                .build();
    }

    private static Plan plan(PlanVm vm) {
        return vm.loader().load(PLAN, "plan.json").planOrThrow();
    }

    @Test
    void a_resume_a_day_later_computes_the_same_today() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm thursday = vm(THURSDAY);
            DurableRun run = new DurableRuns(thursday, store).start(plan(thursday), Map.of(), RunMode.live());
            assertThat(run.result().succeeded()).isFalse();
            assertThat(store.find(run.id()).orElseThrow().options().clock()).isEqualTo(new RunClock(THURSDAY, OSLO));

            down.set(false);
            PlanVm friday = vm(THURSDAY.plusSeconds(DAY));
            DurableRun resumed = new DurableRuns(friday, store).resume(run.id(), RunMode.live(), Map.of());
            assertThat(resumed.result().finalAnswer().asText()).isEqualTo("2026-11-26 2026-11-26 ok");
            assertThat(resumed.result().trace().get("clock").get("now").asText())
                    .isEqualTo("2026-11-26T11:00:00Z");
        }
    }

    @Test
    void a_resume_with_its_own_clock_and_a_rerun_use_theirs_or_the_stored_one() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm thursday = vm(THURSDAY);
            DurableRun run = new DurableRuns(thursday, store).start(plan(thursday), Map.of(), RunMode.live());
            down.set(false);
            PlanVm later = vm(THURSDAY.plusSeconds(5 * DAY));
            RunClock saturday = new RunClock(THURSDAY.plusSeconds(2 * DAY), OSLO);
            DurableRun resumed = new DurableRuns(later, store)
                    .resume(
                            run.id(),
                            RunRequest.builder()
                                    .options(RunOptions.DEFAULT.withClock(saturday))
                                    .build(),
                            Map.of(),
                            false);
            assertThat(resumed.result().finalAnswer().asText()).isEqualTo("2026-11-26 2026-11-28 ok");

            DurableRun rerun = new DurableRuns(later, store).rerun(run.id(), 2, Map.of(), RunMode.live());
            assertThat(rerun.result().finalAnswer().asText())
                    .as("the parent's stored clock")
                    .isEqualTo("2026-11-26 2026-11-26 ok");
            assertThat(store.find(rerun.id()).orElseThrow().options().clock()).isEqualTo(new RunClock(THURSDAY, OSLO));
        }
    }

    @Test
    void a_store_written_before_runs_had_clocks_opens_and_its_runs_get_a_clock_when_resumed() throws SQLException {
        Path file = dir.resolve("old.db");
        try (Connection old = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement sql = old.createStatement()) {
            sql.execute("CREATE TABLE runs (id TEXT PRIMARY KEY, plan_source TEXT NOT NULL, plan_digest TEXT NOT NULL, "
                    + "plan_json TEXT NOT NULL, inputs_json TEXT NOT NULL, mode TEXT NOT NULL, status TEXT NOT NULL, "
                    + "parent_run TEXT, from_seq INTEGER, started_at TEXT NOT NULL, finished_at TEXT, sessions INTEGER NOT NULL, "
                    + "final_answer TEXT, error TEXT, options_json TEXT)");
        }
        String id;
        try (RunStore store = RunStore.open(file)) {
            PlanVm thursday = vm(THURSDAY);
            id = new DurableRuns(thursday, store)
                    .start(plan(thursday), Map.of(), RunMode.live())
                    .id();
        }
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement sql = raw.createStatement()) {
            sql.execute("UPDATE runs SET clock_json = NULL"); // as an earlier version stored it
        }
        try (RunStore store = RunStore.open(file)) {
            assertThat(store.find(id).orElseThrow().options().clock()).isNull();
            down.set(false);
            PlanVm friday = vm(THURSDAY.plusSeconds(DAY));
            DurableRun resumed = new DurableRuns(friday, store).resume(id, RunMode.live(), Map.of());
            assertThat(resumed.result().finalAnswer().asText())
                    .as("the first step ran on Thursday, the rest today")
                    .isEqualTo("2026-11-26 2026-11-27 ok");
            assertThat(store.find(id).orElseThrow().options().clock())
                    .isEqualTo(new RunClock(THURSDAY.plusSeconds(DAY), OSLO));
        }
    }

    @Test
    void a_plans_source_lines_are_stored_and_a_resume_keeps_naming_them() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm thursday = vm(THURSDAY);
            Plan compiled = plan(thursday).withSourceLines(Map.of(0, 3, 1, 5, 2, 9));
            DurableRun run = new DurableRuns(thursday, store).start(compiled, Map.of(), RunMode.live());
            assertThat(run.result().error().describe()).startsWith("line 5 (seq_no 1, calling): ");
            assertThat(store.find(run.id()).orElseThrow().sourceLines()).isEqualTo(Map.of(0, 3, 1, 5, 2, 9));
            down.set(false);
            DurableRun resumed = new DurableRuns(thursday, store).resume(run.id(), RunMode.live(), Map.of());
            assertThat(resumed.result()
                            .trace()
                            .path("steps")
                            .get(0)
                            .path("line")
                            .asInt())
                    .isEqualTo(5);
        }
    }
}
