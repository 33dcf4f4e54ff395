package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --approve-tools} and {@code planvm approve}: a run that reaches a tool needing approval stops
 * waiting (exit 3, not on a terminal) and says how to continue; approve makes the call, deny fails the
 * step. The tool is a real HTTP tool ({@code httpTools}) against a loopback server; {@code approveTools}
 * comes from the configuration.
 */
class ApproveCommandTest {

    @TempDir
    Path dir;

    private MailService mail;
    private List<String> sent;
    private Path config;
    private Path plan;

    @BeforeEach
    void start() throws Exception {
        mail = new MailService();
        sent = mail.sent();
        config = Files.writeString(dir.resolve("planvm.json"), """
                {"approveTools": ["send_*"],
                 "httpTools": [{"name": "send_mail", "method": "POST", "url": "http://127.0.0.1:%d/send",
                                "body": {"to": "${to}"}, "output": "/status",
                                "params": {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]}}]}
                """.formatted(mail.port()));
        plan = Files.writeString(dir.resolve("mail.json"), """
                [{"seq_no": 0, "type": "assign", "parameters": {"to": "ann@example.com"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "send_mail", "tool_params": {"to": "${to}"}, "output_vars": "s"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${s}"}}]""");
    }

    @AfterEach
    void stop() {
        mail.close();
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString(), "PLANVM_CONFIG", config.toString()), args);
    }

    @Test
    void a_run_waits_with_exit_3_and_approve_makes_the_call_once() throws Exception {
        CliRun waiting = planvm("run", plan.toString());
        assertThat(waiting.exitCode()).as(waiting.err()).isEqualTo(3);
        assertThat(waiting.out()).isEmpty();
        assertThat(waiting.err())
                .contains(plan + ": seq_no 1 (calling): waiting for approval to call tool 'send_mail' with "
                        + "{\"to\":\"ann@example.com\"}");
        String id = waiting.err()
                .replaceAll("(?s).*run (\\w+) waits for approval.*", "$1")
                .trim();
        assertThat(waiting.err())
                .contains("run " + id + " waits for approval: planvm approve " + id + " continues it, planvm approve "
                        + id + " --deny --reason TEXT fails the step");
        assertThat(sent).isEmpty();
        assertThat(planvm("runs").out()).contains(id).contains("waiting");
        JsonNode shown = new ObjectMapper().readTree(planvm("show", id).out());
        assertThat(shown.path("status").asText()).isEqualTo("waiting");
        assertThat(shown.at("/pending/tool").asText()).isEqualTo("send_mail");
        assertThat(shown.at("/pending/params/to").asText()).isEqualTo("ann@example.com");
        CliRun resumed = planvm("resume", id);
        assertThat(resumed.exitCode()).isEqualTo(2);
        assertThat(resumed.err()).contains("waits for approval of seq_no 1 (send_mail)");
        CliRun approved = planvm("approve", id, "--reason", "checked");
        assertThat(approved.exitCode()).as(approved.err()).isZero();
        assertThat(approved.out()).isEqualTo("sent\n");
        assertThat(sent).containsExactly("{\"to\":\"ann@example.com\"}");
        CliRun again = planvm("approve", id);
        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.err()).contains("does not wait for approval (it is succeeded)");
    }

    @Test
    void denying_fails_the_step_with_the_reason_and_calls_nothing() {
        CliRun waiting = planvm("run", plan.toString());
        String id = waiting.err()
                .replaceAll("(?s).*run (\\w+) waits for approval.*", "$1")
                .trim();
        CliRun denied = planvm("approve", id, "--deny", "--reason", "not this address");
        assertThat(denied.exitCode()).isEqualTo(1);
        assertThat(denied.err())
                .contains("run " + id + ": seq_no 1 (calling): tool 'send_mail' failed: denied by a reviewer: "
                        + "not this address");
        assertThat(sent).isEmpty();
    }

    @Test
    void approve_tools_on_the_command_line_and_a_malformed_glob() throws Exception {
        Path other = Files.writeString(dir.resolve("other.json"), "{\"httpTools\": []}");
        Path echo = Files.writeString(
                dir.resolve("p.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        CliRun bad = CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("r2.db").toString()),
                "run",
                echo.toString(),
                "--config",
                other.toString(),
                "--approve-tools",
                "!send_*");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("--approve-tools: approve-tools glob '!send_*' starts with '!'");
        CliRun fine = CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("r2.db").toString()),
                "run",
                echo.toString(),
                "--config",
                other.toString(),
                "--approve-tools",
                "send_*");
        assertThat(fine.exitCode()).isZero();
    }
}
