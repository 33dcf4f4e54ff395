package dev.planvm.dialects.internal.ppe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.dialects.DialectOptions;
import dev.planvm.dialects.ImportedPlan;
import dev.planvm.instructions.Plan;
import dev.planvm.llm.LlmConfig;
import dev.planvm.llm.LlmGenerateTool;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * planvm's own extensions keep working on a PPE script compiled the reference's way (the conversation as chat
 * messages, a chain to a script found beside it by name): a durable run stores it and its result, a recorded run
 * replays from its cassette with no LLM at all, and the script the chain names runs as a plan tool.
 */
class PpeExtensionsTest {

    private static final String SCRIPT = """
            ---
            description: a joke, then its words counted by the script beside it
            ---
            system: You tell short jokes.
            user: Tell me a joke about plans.
            assistant: "[[JOKE]]"
            -> shout
            """;

    private static final String SHOUT = """
            ---
            input: [content]
            ---
            - $echo: "?=upper(content) + '!'"
            """;

    private static DeterministicLlm llm;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        llm = DeterministicLlm.start(0, null);
    }

    @AfterAll
    static void stop() {
        llm.close();
    }

    @Test
    void a_script_records_replays_and_runs_durably_with_its_chain_as_a_plan_tool() throws IOException {
        Path script = Files.writeString(dir.resolve("joke.ai.yaml"), SCRIPT);
        Files.writeString(dir.resolve("shout.ai.yaml"), SHOUT);
        Compiled compiled =
                DialectCompiler.of(Dialect.PPE, DialectOptions.DEFAULT).compile(script);
        assertThat(compiled.errors()).isEmpty();
        assertThat(compiled.imports()).extracting(ImportedPlan::name).containsExactly("shout");

        PlanVm live = vm(true);
        Plan plan = compiled.load(live.loader(), script.toString()).planOrThrow();
        RunMode.Record record = RunMode.record();
        llm.clear();
        RunResult recorded = live.run(plan, Map.of(), record);
        assertThat(recorded.error()).isNull();
        String joke = DeterministicLlm.answer(Map.of(
                "messages",
                java.util.List.of(
                        Map.of("role", "system", "content", "You tell short jokes."),
                        Map.of("role", "user", "content", "Tell me a joke about plans.")),
                "max_tokens",
                new java.math.BigDecimal(2048)));
        assertThat(recorded.finalAnswer()).isEqualTo(TextNode.valueOf(joke.toUpperCase(java.util.Locale.ROOT) + "!"));
        assertThat(llm.exchanges()).hasSize(1);

        Path cassette = dir.resolve("joke.cassette.json");
        record.recording().cassette().write(cassette);
        llm.clear();
        PlanVm offline = vm(false);
        RunResult replayed = offline.run(
                compiled.load(offline.loader(), script.toString()).planOrThrow(),
                Map.of(),
                RunMode.replay(Cassette.read(cassette), false));
        assertThat(replayed.error()).isNull();
        assertThat(replayed.finalAnswer()).isEqualTo(recorded.finalAnswer());
        assertThat(llm.exchanges()).as("a replay asks no LLM").isEmpty();

        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRun run = new DurableRuns(live, store).start(plan, Map.of(), RunMode.live());
            assertThat(run.result().finalAnswer()).isEqualTo(recorded.finalAnswer());
            dev.planvm.vm.durable.StoredRun stored = DurableRuns.find(store, run.id());
            assertThat(stored.status()).isEqualTo(dev.planvm.vm.run.RunStatus.SUCCEEDED);
            assertThat(stored.finalAnswer()).isEqualTo(recorded.finalAnswer());
        }
    }

    /** A VM with the script's chain as a plan tool, and the deterministic LLM when {@code withLlm}. */
    private PlanVm vm(boolean withLlm) {
        Compiled compiled =
                DialectCompiler.of(Dialect.PPE, DialectOptions.DEFAULT).compile(dir.resolve("joke.ai.yaml"));
        PlanVmBuilder builder = PlanVm.builder().sequential(true);
        if (withLlm) {
            builder.tool(new LlmGenerateTool(
                    new LlmConfig("sk-conformance", llm.baseUrl(), "fake", Duration.ofSeconds(30))));
        }
        PlanVm probe = builder.build();
        for (ImportedPlan imported : compiled.imports()) {
            builder.planTool(imported.load(probe.loader()).planOrThrow());
        }
        return builder.build();
    }
}
