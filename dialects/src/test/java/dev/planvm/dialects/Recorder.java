package dev.planvm.dialects;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.run.RunResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Real in-process tools that remember every call (tool name and params), for runs of compiled
 * dialect plans without a cassette.
 */
public final class Recorder {

    /** One call a tool received. */
    public record Received(String tool, JsonNode params) {}

    private final List<Received> calls = Collections.synchronizedList(new ArrayList<>());
    private final PlanVmBuilder builder = PlanVm.builder();

    /** Tools that answer with the params they were given. */
    public static Recorder echoing(String... tools) {
        Recorder recorder = new Recorder();
        for (String tool : tools) {
            recorder.tool(tool, params -> params);
        }
        return recorder;
    }

    public Recorder tool(String name, Function<JsonNode, JsonNode> answer) {
        builder.tool(Tool.of(name, "test tool " + name, (params, context) -> {
            calls.add(new Received(name, params));
            return answer.apply(params);
        }));
        return this;
    }

    public List<Received> calls() {
        return List.copyOf(calls);
    }

    public List<Received> calls(String tool) {
        return calls.stream().filter(c -> c.tool().equals(tool)).toList();
    }

    /** Compiles {@code source} as {@code fileName}'s dialect, loads it and runs it with these tools. */
    public RunResult run(String source, String fileName) {
        return run(DialectCompiler.forFile(fileName).compile(source, fileName), fileName);
    }

    public RunResult run(Compiled compiled, String fileName) {
        assertThat(compiled.errors()).as("compile errors").isEmpty();
        PlanVm vm = builder.build();
        Plan plan = compiled.load(vm.loader(), fileName).planOrThrow();
        RunResult result = vm.run(plan, Map.of());
        assertThat(result.error()).as("run error").isNull();
        return result;
    }
}
