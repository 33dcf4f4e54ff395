package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The per-run memory budget ({@link RunLimits#maxRunSize()}): live variables plus what the trace
 * keeps. Each value here is far under the per-variable limit; only their sum passes the budget
 * (8 MiB in these tests, so they stay small; the default is 64 MiB).
 */
class RunBudgetTest {

    private static final RunLimits SMALL = RunLimits.DEFAULT.withMaxRunSize(8L * 1024 * 1024);
    private static final Map<String, JsonNode> INPUTS = Map.of("s", TextNode.valueOf("x".repeat(64 * 1024)));

    /** 100 passes, each setting ten new 64 Ki values (the same ten names): 64 MiB written in all. */
    private static final String LOOP = """
            [{"seq_no": 0, "type": "assign", "parameters": {"i": 0}},
             {"seq_no": 1, "type": "assign", "parameters": {"v0": "${s}${i}", "v1": "${s}${i}", "v2": "${s}${i}",
                "v3": "${s}${i}", "v4": "${s}${i}", "v5": "${s}${i}", "v6": "${s}${i}", "v7": "${s}${i}",
                "v8": "${s}${i}", "v9": "${s}${i}", "i": "${i + 1}"}},
             {"seq_no": 2, "type": "jmp", "parameters": {"condition": "${i < 100}", "jump_if_true": 1}},
             {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${i}"}}]""";

    private static RunResult run(PlanVm vm, String plan) {
        return vm.run(vm.loader().load(plan, "p").planOrThrow(), INPUTS);
    }

    @Test
    void the_default_budget_is_64_mib() {
        assertThat(RunLimits.DEFAULT.maxRunSize()).isEqualTo(64L * 1024 * 1024);
    }

    @Test
    void a_loop_whose_trace_would_pass_the_budget_fails_at_the_step_that_would_pass_it() {
        RunResult result = run(PlanVm.builder().runLimits(SMALL).build(), LOOP);

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().describe())
                .matches("seq_no 1 \\(assign\\): keeping the write of 'v\\d' for the trace would"
                        + " take the run past its limit of 8 MiB \\(--max-run-memory\\): its variables would hold [0-9,]+ and its"
                        + " trace [0-9,]+ \\(characters of text and keys, plus one per other value\\)");
        assertThat(result.trace().path("steps").size()).isLessThan(40);
    }

    @Test
    void replaced_values_stop_counting_so_the_same_loop_without_a_trace_runs_to_the_end() {
        RunResult result = run(PlanVm.builder().runLimits(SMALL).tracing(false).build(), LOOP);

        assertThat(result.succeeded()).isTrue();
        assertThat(result.finalAnswer().intValue()).isEqualTo(100);
    }

    @Test
    void live_variables_alone_can_pass_the_budget() {
        StringBuilder keys = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            keys.append(i == 0 ? "" : ", ")
                    .append("\"w")
                    .append(i)
                    .append("\": \"${s}${s}${s}${s}${s}${s}${s}${s}")
                    .append(i)
                    .append('"');
        }
        String plan = "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {" + keys + "}}]";

        RunResult result = run(PlanVm.builder().runLimits(SMALL).tracing(false).build(), plan);

        assertThat(result.error().describe())
                .isEqualTo("seq_no 0 (assign): setting 'w15' would take the run past its limit"
                        + " of 8 MiB (--max-run-memory): its variables would hold 8,388,630 (characters of text and keys, plus one"
                        + " per other value)");
    }
}
