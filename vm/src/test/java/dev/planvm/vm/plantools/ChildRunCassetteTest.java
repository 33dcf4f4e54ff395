package dev.planvm.vm.plantools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.Tool;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.run.RunControl;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cassettes nest (issue 23): a recording keeps a child run's interactions under the plan tool's call
 * ({@code child_interactions}), a child's child under its call again, two concurrent calls each under its own;
 * the tree replays offline; a flat cassette of the earlier format still replays the child; a replayed child
 * that was interrupted and is resumed is not served again what it was served.
 */
class ChildRunCassetteTest {

    private static final String SHOUT = """
            {"name": "shout", "inputs": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
             "plan": [
               {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "${text}"}, "output_vars": ["up"]}},
               {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${up}!"}}]}""";

    /** A plan tool that calls the plan tool {@code shout}: a child's child. */
    private static final String TWICE = """
            {"name": "twice", "inputs": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
             "plan": [
               {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": {"text": "${text}"}, "output_vars": ["a"]}},
               {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "${a}"}, "output_vars": ["b"]}},
               {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${b}"}}]}""";

    /** Two independent calls of {@code shout} (concurrent) and one of {@code twice}. */
    private static final String PARENT = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": {"text": "hi"}, "output_vars": ["a"]}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": {"text": "ho"}, "output_vars": ["b"]}},
             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "twice", "tool_params": {"text": "x"}, "output_vars": ["c"]}},
             {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${a + b + c}"}}]""";

    private final AtomicInteger upperCalls = new AtomicInteger();

    private static Plan plan(String json) {
        return new PlanLoader().load(json, "t.json").planOrThrow();
    }

    private PlanVm vm() {
        return PlanVm.builder()
                .tool(Tool.of("upper", "upper-cases text", (params, call) -> {
                    upperCalls.incrementAndGet();
                    return TextNode.valueOf(params.path("text").asText().toUpperCase());
                }))
                .planTool(plan(SHOUT))
                .planTool(plan(TWICE))
                .build();
    }

    private static String tool(Interaction interaction) {
        return ((Interaction.ToolInteraction) interaction).tool();
    }

    private static List<Interaction> children(Interaction interaction) {
        return ((Interaction.ToolInteraction) interaction).children();
    }

    @Test
    void a_recording_nests_each_childs_interactions_under_its_call_and_the_tree_replays_offline() {
        Cassette cassette;
        try (PlanVm vm = vm()) {
            RunMode.Record record = RunMode.record();
            assertThat(vm.run(plan(PARENT), Map.of(), record).finalAnswer().asText())
                    .isEqualTo("HI!HO!X!");
            cassette = Cassette.fromJson(record.recording().cassette().toJson(), "t.cassette.json");
        }
        List<Interaction> top = cassette.interactions();
        assertThat(top).extracting(ChildRunCassetteTest::tool).containsExactlyInAnyOrder("shout", "shout", "twice");
        for (Interaction call : top) {
            JsonNode params = ((Interaction.ToolInteraction) call).params();
            if (tool(call).equals("shout")) {
                assertThat(children(call)).singleElement().satisfies(child -> {
                    assertThat(tool(child)).isEqualTo("upper");
                    assertThat(((Interaction.ToolInteraction) child).params()).isEqualTo(params);
                });
            } else {
                assertThat(children(call))
                        .extracting(ChildRunCassetteTest::tool)
                        .containsExactly("shout", "upper");
                assertThat(children(children(call).get(0)))
                        .singleElement()
                        .satisfies(grandchild -> assertThat(((Interaction.ToolInteraction) grandchild)
                                        .params()
                                        .path("text")
                                        .asText())
                                .isEqualTo("x"));
            }
        }

        upperCalls.set(0);
        try (PlanVm vm = vm()) {
            RunResult replayed = vm.run(plan(PARENT), Map.of(), RunMode.replay(cassette, false));
            assertThat(replayed.finalAnswer().asText()).isEqualTo("HI!HO!X!");
        }
        assertThat(upperCalls).as("offline").hasValue(0);
    }

    @Test
    void a_flat_cassette_of_the_earlier_format_still_replays_the_child() throws Exception {
        JsonNode flat = new ObjectMapper().readTree("""
                {"format": "planvm-cassette/1", "interactions": [
                  {"type": "tool", "tool": "upper", "params": {"text": "hi"}, "output": "RECORDED", "duration_ms": 1},
                  {"type": "tool", "tool": "shout", "params": {"text": "hi"}, "output": "RECORDED!", "duration_ms": 2,
                   "child_run": true}]}""");
        Cassette old = Cassette.fromJson(flat, "old.cassette.json");
        List<String> children = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (PlanVm vm = vm()) {
            RunResult replayed = vm.run(RunRequest.builder(plan("""
                            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": {"text": "hi"}, "output_vars": ["a"]}},
                             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${a}"}}]"""))
                    .mode(RunMode.replay(old, false))
                    .listener(new dev.planvm.vm.run.RunListener() {
                        @Override
                        public void childStarted(int seqNo, String tool, String childRunId) {
                            children.add(tool);
                        }
                    })
                    .build());
            assertThat(replayed.finalAnswer().asText()).isEqualTo("RECORDED!");
        }
        assertThat(children)
                .as("the child ran, replayed from the flat interactions")
                .containsExactly("shout");
        assertThat(upperCalls).hasValue(0);
        assertThat(old.toJson().at("/interactions/1/child_run").asBoolean()).isTrue();
        assertThat(old.toJson().findValue("child_interactions"))
                .as("written back flat, as read")
                .isNull();
    }

    @Test
    void a_replayed_child_interrupted_and_resumed_is_not_served_again_what_it_was_served(@TempDir Path dir) {
        String ticks = """
                {"name": "ticks", "inputs": {"type": "object"},
                 "plan": [
                   {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "tick", "tool_params": {}, "output_vars": ["a"]}},
                   {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "block", "tool_params": {"after": "${a}"}, "output_vars": ["b"]}},
                   {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "tick", "tool_params": {}, "output_vars": ["c"]}},
                   {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${a + b + c}"}}]}""";
        String parent = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "ticks", "tool_params": {}, "output_vars": ["t"]}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${t}"}}]""";
        AtomicInteger ticked = new AtomicInteger();
        AtomicReference<RunControl> stopping = new AtomicReference<>();
        try (PlanVm vm = PlanVm.builder()
                        .tool(Tool.of(
                                "tick",
                                "counts",
                                (params, call) -> TextNode.valueOf(String.valueOf(ticked.incrementAndGet()))))
                        .tool(Tool.of("block", "stops the run it is called in, once", (params, call) -> {
                            RunControl control = stopping.getAndSet(null);
                            if (control != null) {
                                control.interrupt("test");
                            }
                            return TextNode.valueOf("b");
                        }))
                        .planTool(plan(ticks))
                        .sequential(true) // the two identical tick calls are served in recorded order
                        .build();
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            RunMode.Record record = RunMode.record();
            assertThat(vm.run(plan(parent), Map.of(), record).finalAnswer().asText())
                    .isEqualTo("1b2");
            Cassette cassette = record.recording().cassette();

            DurableRuns runs = new DurableRuns(vm, store);
            RunControl control = new RunControl();
            stopping.set(control);
            DurableRun interrupted = runs.start(RunRequest.builder(plan(parent))
                    .mode(RunMode.replay(cassette, false, Set.of("block"))) // block is called for real: it stops
                    .control(control)
                    .build());
            assertThat(interrupted.result().status()).isEqualTo(RunStatus.INTERRUPTED);
            assertThat(store.children(interrupted.id()))
                    .singleElement()
                    .satisfies(child -> assertThat(child.summary().steps()).isEqualTo(2));

            DurableRun resumed = runs.resume(
                    interrupted.id(),
                    RunRequest.builder()
                            .mode(RunMode.replay(cassette, false, Set.of("block")))
                            .build(),
                    Map.of(),
                    false);
            assertThat(resumed.result().finalAnswer().asText())
                    .as("the second tick's recorded answer, not the first again")
                    .isEqualTo("1b2");
            assertThat(ticked).as("tick was replayed, never called").hasValue(2);
        }
    }
}
