package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The elements of a durable {@code for_each} commit one by one as they answer: a resumed step calls only
 * the elements that did not, and reuses the committed answers in their places.
 */
class ElementCommitsTest {

    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "twice", "for_each": [1, 2, 3, 4],
               "tool_params": {"n": "${item}"}, "output_vars": "doubled"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${doubled}"}}]""";

    @TempDir
    Path dir;

    private final List<Integer> calls = new CopyOnWriteArrayList<>();
    private final AtomicBoolean threeFails = new AtomicBoolean(true);

    private PlanVm vm(boolean sequential) {
        return PlanVm.builder()
                .sequential(sequential)
                .tool(Tool.of("twice", "", (params, context) -> {
                    int n = params.path("n").asInt();
                    calls.add(n);
                    if (n == 3 && threeFails.get()) {
                        throw ToolException.permanent("the service is down");
                    }
                    return IntNode.valueOf(2 * n);
                }))
                .build();
    }

    private static Plan plan(PlanVm vm) {
        return vm.loader().load(PLAN, "plan.json").planOrThrow();
    }

    @Test
    void a_resumed_map_calls_only_the_elements_that_did_not_answer() throws Exception {
        for (boolean sequential : List.of(true, false)) {
            calls.clear();
            threeFails.set(true);
            Path file = dir.resolve("runs-" + sequential + ".db");
            try (RunStore store = RunStore.open(file)) {
                PlanVm vm = vm(sequential);
                DurableRun failed = new DurableRuns(vm, store).start(plan(vm), Map.of(), RunMode.live());
                assertThat(failed.result().succeeded()).isFalse();
                assertThat(calls).containsExactlyInAnyOrder(1, 2, 3, 4);

                calls.clear();
                threeFails.set(false);
                DurableRun resumed = new DurableRuns(vm, store).resume(failed.id(), RunMode.live(), Map.of());
                assertThat(resumed.result().succeeded()).isTrue();
                assertThat(calls).as("sequential " + sequential).containsExactly(3);
                assertThat(resumed.result().finalAnswer()).isEqualTo(new ObjectMapper().readTree("[2, 4, 6, 8]"));
            }
        }
    }

    @Test
    void a_store_written_before_element_commits_opens_and_gets_them() throws Exception {
        Path file = dir.resolve("old.db");
        try (RunStore store = RunStore.open(file)) {
            store.countByStatus();
        }
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement sql = raw.createStatement()) {
            sql.execute("DROP TABLE element_calls"); // as an earlier version made the store
        }
        try (RunStore store = RunStore.open(file)) {
            PlanVm vm = vm(true);
            DurableRun failed = new DurableRuns(vm, store).start(plan(vm), Map.of(), RunMode.live());
            assertThat(failed.result().succeeded()).isFalse();
        }
        try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement sql = raw.createStatement();
                ResultSet rows =
                        sql.executeQuery("SELECT position, answer_json FROM element_calls ORDER BY position")) {
            StringBuilder committed = new StringBuilder();
            while (rows.next()) {
                committed
                        .append(rows.getInt(1))
                        .append('=')
                        .append(rows.getString(2))
                        .append(' ');
            }
            assertThat(committed.toString().trim()).isEqualTo("0=2 1=4 3=8");
        }
    }

    @Test
    void an_element_whose_call_changed_is_called_again() throws Exception {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm vm = vm(true);
            DurableRun failed = new DurableRuns(vm, store).start(plan(vm), Map.of(), RunMode.live());
            assertThat(failed.result().succeeded()).isFalse();
            try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + store.file());
                    Statement sql = raw.createStatement()) {
                sql.execute("UPDATE element_calls SET call_json = replace(call_json, '\"n\":2', '\"n\":20') "
                        + "WHERE position = 1");
            }
            calls.clear();
            threeFails.set(false);
            DurableRun resumed = new DurableRuns(vm, store).resume(failed.id(), RunMode.live(), Map.of());
            assertThat(calls).containsExactly(2, 3);
            JsonNode answer = resumed.result().finalAnswer();
            assertThat(answer).isEqualTo(new ObjectMapper().readTree("[2, 4, 6, 8]"));
        }
    }
}
