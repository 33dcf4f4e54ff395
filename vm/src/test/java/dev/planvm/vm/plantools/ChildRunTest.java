package dev.planvm.vm.plantools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.StoredRun;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plan tool's child run is a real run of its parent's tree (issue 23): lineage, mode, budget, policy. */
class ChildRunTest {

    private static final String SHOUT = """
            {"name": "shout", "inputs": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
             "plan": [
               {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "${text}"}, "output_vars": ["up"]}},
               {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${up}!"}}]}""";

    private static final String PARENT = """
            [{"seq_no": 0, "type": "assign", "parameters": {"x": "hi"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": {"text": "${x}"}, "output_vars": ["a"]}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${a}"}}]""";

    private final AtomicInteger upperCalls = new AtomicInteger();

    private static Plan plan(String json) {
        return new PlanLoader().load(json, "t.json").planOrThrow();
    }

    private PlanVmBuilder vm() {
        return PlanVm.builder()
                .tool(Tool.of("upper", "upper-cases text", (params, call) -> {
                    upperCalls.incrementAndGet();
                    call.events().tokens(new TokenCount(40, 20));
                    return TextNode.valueOf(params.path("text").asText().toUpperCase());
                }))
                .planTool(plan(SHOUT));
    }

    @Test
    void a_stored_parent_stores_its_child_with_the_parents_id_and_seq_no_and_the_trace_names_the_child(
            @TempDir Path dir) {
        try (PlanVm vm = vm().build();
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRun parent = new DurableRuns(vm, store).start(plan(PARENT), Map.of(), RunMode.live());
            assertThat(parent.result().finalAnswer().asText()).isEqualTo("HI!");

            List<RunStore.ChildRun> children = store.children(parent.id());
            assertThat(children).singleElement().satisfies(child -> {
                assertThat(child.seqNo()).isEqualTo(1);
                assertThat(child.summary().state()).isEqualTo("succeeded");
                assertThat(child.summary().steps()).isEqualTo(2);
            });
            String childId = children.get(0).summary().id();
            assertThat(childId).isNotEqualTo(parent.id());
            assertThat(store.caller(childId)).contains(new RunStore.Caller(parent.id(), 1));
            assertThat(store.caller(parent.id())).isEmpty();
            StoredRun child = store.find(childId).orElseThrow();
            assertThat(child.inputs()).containsEntry("text", TextNode.valueOf("hi"));
            assertThat(child.finalAnswer().asText()).isEqualTo("HI!");

            JsonNode call = parent.result().trace().path("calls").get(0);
            assertThat(call.path("tool").asText()).isEqualTo("shout");
            assertThat(call.path("child_run_id").asText()).isEqualTo(childId);
        }
    }

    @Test
    void the_run_listeners_hear_of_the_child_start_and_finish() {
        List<String> events = new CopyOnWriteArrayList<>();
        RunListener listener = new RunListener() {
            @Override
            public void childStarted(int seqNo, String tool, String childRunId) {
                events.add("started " + seqNo + " " + tool + " " + childRunId);
            }

            @Override
            public void childFinished(int seqNo, String tool, String childRunId, RunStatus status) {
                events.add("finished " + seqNo + " " + tool + " " + status.label());
            }
        };
        try (PlanVm vm = vm().build()) {
            vm.run(RunRequest.builder(plan(PARENT)).listener(listener).build());
        }
        assertThat(events).containsExactly("started 1 shout null", "finished 1 shout succeeded");
    }

    @Test
    void the_parent_runs_deny_tools_reach_into_the_child() {
        try (PlanVm vm = vm().build()) {
            RunResult result = vm.run(RunRequest.builder(plan(PARENT))
                    .options(new RunOptions(List.of(), List.of("upper"), List.of(), null, null))
                    .build());
            assertThat(result.succeeded()).isFalse();
            assertThat(result.error().seqNo()).isEqualTo(1);
            assertThat(result.error().message())
                    .contains("plan tool 'shout' cannot run here")
                    .contains("tool 'upper' is denied");
            assertThat(upperCalls).hasValue(0);
        }
    }

    @Test
    void the_process_s_deny_tools_stay_with_a_stored_run_and_bind_its_child_after_a_resume_elsewhere(
            @TempDir Path dir) {
        String asking = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input",
                   "tool_params": {"prompt": "What to shout?"}, "output_vars": "x"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": {"text": "${x}"},
                   "output_vars": ["a"]}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${a}"}}]""";
        String id;
        try (PlanVm denying = vm().toolPolicy(ToolPolicy.of(List.of(), List.of("upper")))
                        .build();
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRun waiting = new DurableRuns(denying, store).start(plan(asking), Map.of(), RunMode.live());
            assertThat(waiting.result().status()).isEqualTo(RunStatus.WAITING);
            id = waiting.id();
            assertThat(store.find(id).orElseThrow().options().denyTools()).contains("upper");
        }
        try (PlanVm open = vm().build();
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRun answered = new DurableRuns(open, store)
                    .answer(
                            id,
                            null,
                            TextNode.valueOf("hi"),
                            RunRequest.builder().build(),
                            Map.of());
            assertThat(answered.result().succeeded()).isFalse();
            assertThat(answered.result().error().message()).contains("tool 'upper' is denied");
        }
        assertThat(upperCalls).hasValue(0);
    }

    @Test
    void the_parent_runs_approval_rules_and_reviewer_bind_the_childs_calls() {
        try (PlanVm vm = vm().build()) {
            RunResult result = vm.run(RunRequest.builder(plan(PARENT))
                    .options(new RunOptions(List.of(), List.of(), List.of("upper"), null, null))
                    .approvals(call -> Optional.of(Approvals.Decision.deny("not today")))
                    .build());
            assertThat(result.succeeded()).isFalse();
            assertThat(result.error().message())
                    .contains("plan tool 'shout' failed at its seq_no 0")
                    .contains("not today");
            assertThat(upperCalls).hasValue(0);
        }
    }

    @Test
    void a_dry_run_of_the_parent_is_a_dry_run_of_the_child() {
        try (PlanVm vm = vm().build()) {
            List<String> children = new CopyOnWriteArrayList<>();
            RunResult result = vm.run(RunRequest.builder(plan(PARENT))
                    .mode(RunMode.dryRun(true))
                    .listener(new RunListener() {
                        @Override
                        public void childStarted(int seqNo, String tool, String childRunId) {
                            children.add(tool);
                        }
                    })
                    .build());
            assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
            assertThat(children).containsExactly("shout");
            assertThat(upperCalls).hasValue(0);
            assertThat(result.finalAnswer().asText())
                    .startsWith(dev.planvm.tools.chain.CallChains.DRY_RUN_PLACEHOLDER_PREFIX);
        }
    }

    @Test
    void one_token_budget_spans_the_parent_and_its_child() {
        String twice = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "a"}, "output_vars": ["b"]}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": {"text": "c"}, "output_vars": ["d"]}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${d}"}}]""";
        try (PlanVm roomy = vm().maxTokens(200).sequential(true).build()) {
            assertThat(roomy.run(plan(twice), Map.of()).succeeded()).isTrue();
        }
        try (PlanVm tight = vm().maxTokens(100).sequential(true).build()) {
            RunResult result = tight.run(plan(twice), Map.of());
            assertThat(result.succeeded()).isFalse();
            assertThat(result.error().seqNo()).isEqualTo(1);
            assertThat(result.error().message())
                    .contains("plan tool 'shout' failed")
                    .contains("token");
        }
    }

    @Test
    void a_recording_holds_the_childs_calls_and_replays_the_whole_tree_offline() {
        Cassette cassette;
        try (PlanVm vm = vm().build()) {
            RunMode.Record record = RunMode.record();
            assertThat(vm.run(plan(PARENT), Map.of(), record).finalAnswer().asText())
                    .isEqualTo("HI!");
            // through its JSON, as a file holds it
            cassette = Cassette.fromJson(record.recording().cassette().toJson(), "t.cassette.json");
        }
        assertThat(cassette.interactions())
                .extracting(i ->
                        ((Interaction.ToolInteraction) i).tool() + " " + ((Interaction.ToolInteraction) i).childRun())
                .containsExactly("shout true");
        assertThat(((Interaction.ToolInteraction) cassette.interactions().get(0)).children())
                .extracting(i -> ((Interaction.ToolInteraction) i).tool())
                .containsExactly("upper");
        assertThat(cassette.flat())
                .extracting(i ->
                        ((Interaction.ToolInteraction) i).tool() + " " + ((Interaction.ToolInteraction) i).childRun())
                .containsExactly("upper false", "shout true");
        assertThat(cassette.toJson().at("/interactions/0/child_run").asBoolean())
                .isTrue();
        assertThat(cassette.toJson()
                        .at("/interactions/0/child_interactions/0/tool")
                        .asText())
                .isEqualTo("upper");
        upperCalls.set(0);
        List<String> children = new CopyOnWriteArrayList<>();
        try (PlanVm vm = vm().build()) {
            RunResult replayed = vm.run(RunRequest.builder(plan(PARENT))
                    .mode(RunMode.replay(cassette, false))
                    .listener(new RunListener() {
                        @Override
                        public void childStarted(int seqNo, String tool, String childRunId) {
                            children.add(tool);
                        }
                    })
                    .build());
            assertThat(replayed.finalAnswer().asText()).isEqualTo("HI!");
        }
        assertThat(children).as("the child ran, replayed").containsExactly("shout");
        assertThat(upperCalls).hasValue(0);
    }

    @Test
    void a_cassette_with_only_the_plan_tools_answer_still_replays_it_whole() {
        Cassette old = new Cassette(List.of(new Interaction.ToolInteraction(
                "shout",
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                        .objectNode()
                        .put("text", "hi"),
                TextNode.valueOf("OLD!"),
                1)));
        List<String> children = new CopyOnWriteArrayList<>();
        try (PlanVm vm = vm().build()) {
            RunResult replayed = vm.run(RunRequest.builder(plan(PARENT))
                    .mode(RunMode.replay(old, false))
                    .listener(new RunListener() {
                        @Override
                        public void childStarted(int seqNo, String tool, String childRunId) {
                            children.add(tool);
                        }
                    })
                    .build());
            assertThat(replayed.finalAnswer().asText()).isEqualTo("OLD!");
        }
        assertThat(children).isEmpty();
    }
}
