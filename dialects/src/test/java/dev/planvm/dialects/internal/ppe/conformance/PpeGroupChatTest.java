package dev.planvm.dialects.internal.ppe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.dialects.DialectOptions;
import dev.planvm.dialects.ImportedPlan;
import dev.planvm.llm.LlmConfig;
import dev.planvm.llm.LlmGenerateTool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 004's group chat as the reference runs it (seed004/guide's recording shows the same requests): a role answers
 * as its character script with the group's public messages so far, {@code NAME: text} joined by blank lines, as
 * one user message; its answer joins the group and the script's conversation.
 */
class PpeGroupChatTest {

    private static final String GUIDE = """
            ---
            name: guide
            autoRunLLMIfPromptAvailable: false
            roles:
              elf: char-elf
            ---
            system: You guide.
            user[@elf]: "Hello."
            user: Where next?
            elf: "[[NEXT]]"
            $ret: "?=NEXT"
            """;

    private static final String ELF = """
            ---
            type: char
            name: Elf
            description: A house elf.
            ---
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
    void a_role_answers_the_groups_messages_as_its_character() throws IOException {
        Path guide = Files.writeString(dir.resolve("guide.ai.yaml"), GUIDE);
        Files.writeString(dir.resolve("char-elf.ai.yaml"), ELF);
        Compiled compiled =
                DialectCompiler.of(Dialect.PPE, DialectOptions.DEFAULT).compile(guide);
        assertThat(compiled.errors()).isEmpty();
        assertThat(compiled.imports()).extracting(ImportedPlan::name).containsExactly("role_elf");
        PlanVmBuilder builder = PlanVm.builder()
                .sequential(true)
                .tool(new LlmGenerateTool(new LlmConfig("sk-test", llm.baseUrl(), "fake", Duration.ofSeconds(30))));
        PlanVm probe = builder.build();
        compiled.imports().forEach(i -> builder.planTool(i.load(probe.loader()).planOrThrow()));
        PlanVm vm = builder.build();
        llm.clear();
        RunResult result = vm.run(compiled.load(vm.loader(), guide.toString()).planOrThrow(), Map.of());
        assertThat(result.error()).isNull();

        List<Map<String, Object>> sent = llm.exchanges();
        assertThat(sent).hasSize(2);
        String first = lastUserMessage(sent.get(0));
        assertThat(first).isEqualTo("陌生人: Hello.");
        String hello = DeterministicLlm.answer(request(sent.get(0)));
        assertThat(lastUserMessage(sent.get(1))).isEqualTo("陌生人: Hello.\n\nelf: " + hello + "\n\n陌生人: Where next?");
        assertThat(systemMessage(sent.get(1)))
                .contains("Please speak like a Elf.")
                .contains("A house elf.");
        assertThat(result.finalAnswer().asText()).isEqualTo(DeterministicLlm.answer(request(sent.get(1))));
    }

    @Test
    void a_private_message_is_refused_with_its_line() {
        Compiled compiled = DialectCompiler.of(Dialect.PPE)
                .compile("---\nroles:\n  elf: char-elf\n---\nuser[@elf(PM)]: hi\n", "g.ai.yaml");
        assertThat(compiled.errors())
                .singleElement()
                .satisfies(e -> assertThat(e.format("g.ai.yaml"))
                        .contains("line 5")
                        .contains("private messages, @all and several roles are not supported"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> request(Map<String, Object> exchange) {
        return (Map<String, Object>) exchange.get("normal");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> messages(Map<String, Object> exchange) {
        return (List<Map<String, Object>>) request(exchange).get("messages");
    }

    private static String lastUserMessage(Map<String, Object> exchange) {
        List<Map<String, Object>> messages = messages(exchange);
        return (String) messages.get(messages.size() - 1).get("content");
    }

    private static String systemMessage(Map<String, Object> exchange) {
        return (String) messages(exchange).get(0).get("content");
    }
}
