package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunStoreTest {

    /** Three passes of a loop calling "work" with the pass number, then the collected outputs. */
    private static final String LOOP = """
            [{"seq_no": 0, "type": "assign", "parameters": {"i": 0, "acc": ""}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "work", "tool_params": {"i": "${i}"}, "output_vars": "r"}},
             {"seq_no": 2, "type": "assign", "parameters": {"acc": "${acc + r}", "i": "${i + 1}"}},
             {"seq_no": 3, "type": "jmp", "parameters": {"condition": "${i < 3}", "jump_if_true": 1}},
             {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${acc}"}}]""";

    @TempDir
    Path dir;

    private RunStore store;
    private final List<Integer> calls = new ArrayList<>();
    private final AtomicBoolean broken = new AtomicBoolean();

    @BeforeEach
    void open() {
        store = RunStore.open(dir.resolve("runs.db"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private PlanVm vm() {
        return PlanVm.builder()
                .tool(Tool.of("work", "", (params, context) -> {
                    int i = params.path("i").asInt();
                    if (broken.get() && i == 2) {
                        throw ToolException.permanent("down");
                    }
                    synchronized (calls) {
                        calls.add(i);
                    }
                    return TextNode.valueOf("<" + i + ">");
                }))
                .build();
    }

    private RunResult start(PlanVm vm, Plan plan, Map<String, JsonNode> inputs, String[] id) {
        DurableRun run = new DurableRuns(vm, store).start(plan, inputs, RunMode.live());
        id[0] = run.id();
        return run.result();
    }

    @Test
    void a_closed_store_refuses_every_use_and_never_makes_its_file_again() throws Exception {
        store.close();
        java.nio.file.Files.deleteIfExists(dir.resolve("runs.db"));
        java.nio.file.Files.deleteIfExists(dir.resolve("runs.db-wal"));
        java.nio.file.Files.deleteIfExists(dir.resolve("runs.db-shm"));

        assertThatThrownBy(() -> store.find("abc"))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("closed");
        try (var left = java.nio.file.Files.list(dir)) {
            assertThat(left.toList())
                    .as("a late use after close (a run still in a step) makes no file")
                    .isEmpty();
        }
    }

    @Test
    void every_committed_step_is_stored_in_execution_order_with_what_it_wrote() {
        PlanVm vm = vm();
        Plan plan = vm.loader().load(LOOP, "loop.json").planOrThrow();
        String[] id = new String[1];
        RunResult result = start(vm, plan, Map.of(), id);
        assertThat(result.finalAnswer().asText()).isEqualTo("<0><1><2>");
        StoredRun run = store.find(id[0]).orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.finalAnswer().asText()).isEqualTo("<0><1><2>");
        assertThat(run.steps()).extracting(StoredStep::seqNo).containsExactly(0, 1, 2, 3, 1, 2, 3, 1, 2, 3, 4);
        assertThat(run.steps().get(1).writes().get("r").asText()).isEqualTo("<0>");
        assertThat(run.steps().get(1).trace().at("/inputs/params/i").asInt()).isZero();
        assertThat(run.steps().get(3).nextPosition()).isEqualTo(1);
        assertThat(run.checkpoint().position()).isEqualTo(plan.instructions().size());
        assertThat(store.list(10))
                .singleElement()
                .satisfies(s -> assertThat(s.steps()).isEqualTo(11));
    }

    @Test
    void a_resumed_run_goes_on_after_its_last_committed_step_without_calling_committed_tools_again() {
        PlanVm vm = vm();
        Plan plan = vm.loader().load(LOOP, "loop.json").planOrThrow();
        broken.set(true);
        String[] id = new String[1];
        RunResult failed = start(vm, plan, Map.of(), id);
        assertThat(failed.succeeded()).isFalse();
        assertThat(calls).containsExactly(0, 1);

        broken.set(false);
        StoredRun run = store.find(id[0]).orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        Checkpoint checkpoint = run.checkpoint();
        assertThat(checkpoint.variables().get("i")).isEqualTo(IntNode.valueOf(2));
        RunResult resumed = new DurableRuns(vm, store)
                .resume(run.id(), RunMode.live(), Map.of())
                .result();

        assertThat(resumed.finalAnswer().asText()).isEqualTo("<0><1><2>");
        assertThat(calls).containsExactly(0, 1, 2);
        StoredRun done = store.find(run.id()).orElseThrow();
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(done.sessions()).isEqualTo(2);
        assertThat(done.steps()).hasSize(11);
        assertThat(done.steps().get(10).session()).isEqualTo(2);
    }

    @Test
    void a_replayed_resume_skips_the_interactions_committed_steps_used() {
        PlanVm live = vm();
        Plan plan = live.loader().load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "work", "tool_params": {"i": 7}, "output_vars": "a"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "work", "tool_params": {"i": 7}, "output_vars": "b"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${a}${b}"}}]""", "same.json").planOrThrow();
        Cassette cassette = Cassette.fromJson(
                new com.fasterxml.jackson.databind.ObjectMapper()
                        .valueToTree(Map.of(
                                "format",
                                "planvm-cassette/1",
                                "interactions",
                                List.of(
                                        Map.of(
                                                "type",
                                                "tool",
                                                "tool",
                                                "work",
                                                "params",
                                                Map.of("i", 7),
                                                "output",
                                                "first"),
                                        Map.of(
                                                "type",
                                                "tool",
                                                "tool",
                                                "work",
                                                "params",
                                                Map.of("i", 7),
                                                "output",
                                                "second")))),
                "c");
        PlanVm bare = PlanVm.builder().build();
        String id = store.createRun(plan, Map.of(), "replay", null, null);
        com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        StoredStep first = new StoredStep(
                1,
                0,
                "calling",
                "next",
                1,
                mapper.createObjectNode().put("a", "first"),
                List.of(new Call.ToolCall("work", mapper.valueToTree(Map.of("i", 7)), CallContext.of(0))),
                mapper.valueToTree(Map.of("inputs", Map.of("tool", "work", "params", Map.of("i", 7)))),
                1,
                "t");
        store.commitStep(id, first);
        store.release(id); // the process that ran it died
        RunResult resumed = new DurableRuns(bare, store)
                .resume(id, RunMode.replay(cassette, false), Map.of())
                .result();
        assertThat(resumed.finalAnswer().asText()).isEqualTo("firstsecond");
    }

    @Test
    void runs_are_found_by_an_unambiguous_prefix() {
        PlanVm vm = vm();
        Plan plan = vm.loader().load(LOOP, "loop.json").planOrThrow();
        String id = store.createRun(plan, Map.of(), "live", null, null);
        assertThat(store.find(id.substring(0, 6))).map(StoredRun::id).hasValue(id);
        assertThat(store.find("nope")).isEmpty();
        for (int i = 0; i < 40; i++) {
            store.createRun(plan, Map.of(), "live", null, null);
        }
        assertThatThrownBy(() -> store.find(""))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("give more of the id");
    }
}
