package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunStatus;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An answer the run could not hold — larger or deeper than one variable, a number beyond a double, text with a
 * lone surrogate — is refused when it is given ({@link DurableRuns#answer}), and the run keeps waiting: it is
 * never recorded, so the run cannot fail on it, now or at every resume.
 */
class AnswerRefusalTest {

    static final String ASK_NAME = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "tool_params": {"prompt": "Name?", "schema": {"type": "string"}}, "output_vars": "final_answer"}}]""";

    static final String ASK_ANY = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "tool_params": {"prompt": "Anything?"}, "output_vars": "final_answer"}}]""";

    @TempDir
    Path dir;

    private final PlanVm vm = PlanVm.builder()
            .runLimits(RunLimits.DEFAULT.withMaxValueSize(100).withMaxValueDepth(5))
            .build();

    private String waiting(DurableRuns runs, String plan) {
        DurableRun run = runs.start(vm.loader().load(plan, "ask.json").planOrThrow(), Map.of(), RunMode.live());
        assertThat(run.result().status()).isEqualTo(RunStatus.WAITING);
        return run.id();
    }

    private static DurableRun answer(DurableRuns runs, String id, JsonNode value) {
        return runs.answer(
                id, null, value, RunRequest.builder().mode(RunMode.live()).build(), Map.of());
    }

    private static void refused(DurableRuns runs, RunStore store, String id, JsonNode value, String reason) {
        assertThatThrownBy(() -> answer(runs, id, value))
                .isInstanceOf(DurableRunException.class)
                .hasMessage("run " + id + " keeps waiting: " + reason)
                .extracting(e -> ((DurableRunException) e).kind())
                .isEqualTo(FailureKind.REJECTED_BEFORE_RUNNING);
        assertThat(store.find(id).orElseThrow().status()).isEqualTo(RunStatus.WAITING);
        assertThat(store.pendingInput(id)).as("nothing recorded").isPresent();
    }

    @Test
    void an_answer_larger_than_a_variable_may_hold_is_refused_and_a_right_one_then_completes_the_run() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(vm, store);
            String id = waiting(runs, ASK_NAME);
            refused(
                    runs,
                    store,
                    id,
                    TextNode.valueOf("x".repeat(101)),
                    "the answer is text of 101 characters; the limit for one value is 100");
            DurableRun answered = answer(runs, id, TextNode.valueOf("Ann"));
            assertThat(answered.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(answered.result().finalAnswer().asText()).isEqualTo("Ann");
        }
    }

    @Test
    void an_answer_deeper_than_a_variable_may_be_is_refused() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(vm, store);
            String id = waiting(runs, ASK_ANY);
            JsonNode deep = JsonNodeFactory.instance.arrayNode();
            for (int i = 0; i < 6; i++) {
                deep = JsonNodeFactory.instance.arrayNode().add(deep);
            }
            refused(runs, store, id, deep, "the answer is nested deeper than 5 levels, the limit for one value");
        }
    }

    @Test
    void a_number_beyond_a_double_or_text_with_a_lone_surrogate_is_refused() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(vm, store);
            String id = waiting(runs, ASK_ANY);
            refused(
                    runs,
                    store,
                    id,
                    DecimalNode.valueOf(new BigDecimal("1e400")),
                    "the answer is the number 1E+400, which JSON cannot hold (a stored run could not keep it)");
            refused(
                    runs,
                    store,
                    id,
                    DoubleNode.valueOf(Double.POSITIVE_INFINITY),
                    "the answer is the number Infinity, which JSON cannot hold (a stored run could not keep it)");
            refused(
                    runs,
                    store,
                    id,
                    JsonNodeFactory.instance.objectNode().put("name", "a\ud800"),
                    "the answer at /name is text with a lone surrogate \\uD800 at character 1, which JSON cannot"
                            + " hold (a stored run could not keep it)");
            assertThat(answer(runs, id, TextNode.valueOf("a\ud83d\ude00"))
                            .result()
                            .finalAnswer()
                            .asText())
                    .isEqualTo("a\ud83d\ude00");
        }
    }
}
