package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Error messages quote values shortened; no shortened form of a secret survives in them or in the trace. */
class SecretFormsRunTest {

    private static final String TOKEN = "tok-" + "9f8e7d6c5b4a".repeat(4);

    private RunResult run(String plan, String secret) {
        PlanVm vm = PlanVm.builder().secrets(Map.of("tok", secret)).build();
        Plan loaded = vm.loader().load(plan, "p.json").planOrThrow();
        return vm.run(loaded, Map.of("tok", TextNode.valueOf(secret)));
    }

    @Test
    void an_error_that_quotes_the_start_of_a_secret_shows_its_placeholder_only() {
        RunResult result = run(
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${tok * 2}\"}}]", TOKEN);

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().message()).contains("«secret:tok»").doesNotContain(TOKEN.substring(0, 8));
        String trace = result.trace().toString();
        assertThat(trace)
                .contains("«secret:tok»")
                .doesNotContain(TOKEN.substring(0, 8))
                .doesNotContain(TOKEN.substring(30));
    }

    @Test
    void a_line_of_a_multi_line_secret_used_alone_is_redacted() {
        String key = "-----BEGIN KEY-----\nMIIEvQIBADANBgkqhkiG9w0B\n-----END KEY-----";
        RunResult result = run("""
                [{"seq_no": 0, "type": "assign", "parameters": {"line": "${split(tok, '\\n')[1]}"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${line * 2}"}}]""", key);

        assertThat(result.error().message()).doesNotContain("MIIEvQIB");
        assertThat(result.trace().toString()).doesNotContain("MIIEvQIB").contains("«secret:tok»");
    }
}
