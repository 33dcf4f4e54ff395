package dev.planvm.server.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Real runs whose traces the report tests draw: overlapping calls, a retried call, a loop, a hostile output. */
final class ReportRuns {

    /** Two lookups that overlap, a call retried twice, three passes of a loop, an output that tries to break the page. */
    static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "lookup", "tool_params": {"q": "a"}, "output_vars": "a"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "lookup", "tool_params": {"q": "b"}, "output_vars": "b"}},
             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "flaky", "tool_params": {"x": "${a}"}, "output_vars": "f"}},
             {"seq_no": 3, "type": "assign", "parameters": {"i": 0}},
             {"seq_no": 4, "type": "assign", "parameters": {"i": "${i + 1}"}},
             {"seq_no": 5, "type": "jmp", "parameters": {"condition": "${i < 3}", "jump_if_true": 4, "jump_if_false": 6}},
             {"seq_no": 6, "type": "calling", "parameters": {"tool_name": "hostile", "output_vars": "h"}},
             {"seq_no": 7, "type": "assign", "parameters": {"final_answer": "${a + b + f + h}"}}]""";

    static final String HOSTILE =
            "</pre></script><script>document.title='pwned'</script><img src=\"http://example.com/x.png\">";

    private ReportRuns() {}

    static PlanVm vm() {
        AtomicInteger flaky = new AtomicInteger();
        return PlanVm.builder()
                .retryPolicy(RetryPolicy.DEFAULT.withInitialBackoff(Duration.ofMillis(20)))
                .tool(Tool.of("lookup", "", (p, c) -> {
                    sleep(40);
                    return TextNode.valueOf(p.path("q").asText());
                }))
                .tool(Tool.of("flaky", "", (p, c) -> {
                    if (flaky.incrementAndGet() <= 2) {
                        throw ToolException.transientFailure("the service is busy (" + flaky.get() + ")", null);
                    }
                    return TextNode.valueOf("f");
                }))
                .tool(Tool.of("hostile", "", (p, c) -> TextNode.valueOf(HOSTILE)))
                .build();
    }

    static RunResult run() {
        PlanVm vm = vm();
        Plan plan = vm.loader().load(PLAN, "report.json").planOrThrow();
        return vm.run(plan, Map.of());
    }

    static JsonNode planDocument() {
        return vm().loader().load(PLAN, "report.json").planOrThrow().document();
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
