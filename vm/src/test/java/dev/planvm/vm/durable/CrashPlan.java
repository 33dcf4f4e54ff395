package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * The plan the crash test kills and resumes: {@link #PASSES} passes of a loop, each calling a slow
 * tool that appends "session pass" to a log file before answering (so every invocation is counted,
 * even one a SIGKILL interrupts). Also the child process's entry point.
 */
final class CrashPlan {

    static final int PASSES = 12;
    static final String EXPECTED = "0,1,2,3,4,5,6,7,8,9,10,11,";

    static final String PLAN = """
            [{"seq_no": 0, "type": "assign", "parameters": {"i": 0, "acc": ""}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "work", "tool_params": {"i": "${i}"}, "output_vars": "r"}},
             {"seq_no": 2, "type": "assign", "parameters": {"acc": "${acc + r + ','}", "i": "${i + 1}"}},
             {"seq_no": 3, "type": "jmp", "parameters": {"condition": "${i < %d}", "jump_if_true": 1}},
             {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${acc}"}}]""".formatted(PASSES);

    private CrashPlan() {}

    static PlanVm vm(Path log, int session) {
        return PlanVm.builder()
                .tool(Tool.of("work", "Logs its call, waits, answers the pass.", (params, context) -> {
                    int pass = params.path("i").asInt();
                    try {
                        Files.writeString(
                                log,
                                session + " " + pass + "\n",
                                StandardCharsets.UTF_8,
                                StandardOpenOption.CREATE,
                                StandardOpenOption.APPEND);
                        Thread.sleep(15);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return TextNode.valueOf(String.valueOf(pass));
                }))
                .build();
    }

    /** Runs the plan from the start, storing it: {@code CrashPlan STORE LOG}. */
    public static void main(String[] args) {
        Path storePath = Path.of(args[0]);
        Path log = Path.of(args[1]);
        PlanVm vm = vm(log, 1);
        Plan plan = vm.loader().load(PLAN, "crash.json").planOrThrow();
        try (RunStore store = RunStore.open(storePath)) {
            RunResult result = new DurableRuns(vm, store)
                    .start(plan, Map.of(), RunMode.live())
                    .result();
            System.out.println(result.finalAnswer().asText());
        }
    }
}
