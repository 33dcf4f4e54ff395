package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code planvm run --approve-tools} on a real pseudo-terminal ({@code script(1)}): the run asks
 * {@code seq_no 1 calls send_mail with {...}: approve? [y/N]} before the call; {@code y} makes the call
 * (exit 0), {@code n} denies it and fails the step (exit 1, nothing sent), and end of input (Ctrl-D) leaves
 * the run waiting (exit 3) for {@code planvm approve}. The tool is a real HTTP tool against a loopback server.
 */
class TerminalApprovalTest {

    private static final String PROMPT = "seq_no 1 calls send_mail with {\"to\":\"ann@example.com\"}: approve? [y/N]";
    private static final byte CTRL_D = 4;

    @TempDir
    Path dir;

    private MailService mail;
    private List<String> sent;
    private Path config;
    private Path plan;

    @BeforeEach
    void start() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "needs script(1) for a pseudo-terminal");
        mail = new MailService();
        sent = mail.sent();
        config = Files.writeString(dir.resolve("planvm.json"), """
                {"httpTools": [{"name": "send_mail", "method": "POST", "url": "http://127.0.0.1:%d/send",
                                "body": {"to": "${to}"}, "output": "/status",
                                "params": {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]}}]}
                """.formatted(mail.port()));
        plan = Files.writeString(dir.resolve("mail.json"), """
                [{"seq_no": 0, "type": "assign", "parameters": {"to": "ann@example.com"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "send_mail", "tool_params": {"to": "${to}"}, "output_vars": "s"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "mail ${s}"}}]""");
    }

    @AfterEach
    void stop() {
        if (mail != null) {
            mail.close();
        }
    }

    /** What a terminal session showed and how planvm exited. */
    private record Session(int exitCode, String terminal) {}

    /**
     * Runs {@code planvm run mail.json --approve-tools send_*} with stdin, stdout and stderr on a
     * pseudo-terminal, waits for the prompt, then types {@code keys}.
     */
    private Session runOnTerminal(byte[] keys) throws Exception {
        String command = String.join(" ", quoted(javaCommand("run", plan.toString(), "--approve-tools", "send_*")));
        ProcessBuilder builder =
                new ProcessBuilder("/usr/bin/script", "-qec", command, "/dev/null").redirectErrorStream(true);
        builder.environment().put("PLANVM_STORE", dir.resolve("runs.db").toString());
        builder.environment().put("PLANVM_CONFIG", config.toString());
        Process script = builder.start();
        ByteArrayOutputStream shown = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> copy(script.getInputStream(), shown));
        reader.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!text(shown).contains(PROMPT) && script.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(text(shown)).as("the prompt on the terminal").contains(PROMPT);
        assertThat(sent).as("nothing is sent before the answer").isEmpty();
        try (OutputStream typing = script.getOutputStream()) {
            typing.write(keys);
            typing.flush();
            assertThat(script.waitFor(60, TimeUnit.SECONDS)).as(text(shown)).isTrue();
        }
        reader.join(10_000);
        return new Session(script.exitValue(), text(shown));
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString(), "PLANVM_CONFIG", config.toString()), args);
    }

    @Test
    void answering_y_at_the_prompt_makes_the_call_and_the_run_succeeds() throws Exception {
        Session session = runOnTerminal("y\n".getBytes(StandardCharsets.UTF_8));

        assertThat(session.exitCode()).as(session.terminal()).isZero();
        assertThat(sent).containsExactly("{\"to\":\"ann@example.com\"}");
        assertThat(session.terminal()).contains("mail sent").doesNotContain("waits for approval");
        assertThat(planvm("runs").out()).contains("succeeded").doesNotContain("waiting");
    }

    @Test
    void answering_n_denies_the_call_fails_the_step_and_sends_nothing() throws Exception {
        Session session = runOnTerminal("n\n".getBytes(StandardCharsets.UTF_8));

        assertThat(session.exitCode()).as(session.terminal()).isEqualTo(1);
        assertThat(session.terminal())
                .contains("seq_no 1 (calling): tool 'send_mail' failed: denied by a reviewer: denied at the terminal")
                .doesNotContain("Exception");
        assertThat(sent).isEmpty();
        assertThat(planvm("runs").out()).contains("failed");
    }

    @Test
    void anything_but_y_or_yes_denies_the_call() throws Exception {
        Session session = runOnTerminal("ok\n".getBytes(StandardCharsets.UTF_8));

        assertThat(session.exitCode()).as(session.terminal()).isEqualTo(1);
        assertThat(session.terminal()).contains("denied by a reviewer: denied at the terminal");
        assertThat(sent).isEmpty();
    }

    @Test
    void end_of_input_at_the_prompt_leaves_the_run_waiting_for_planvm_approve() throws Exception {
        Session session = runOnTerminal(new byte[] {CTRL_D});

        assertThat(session.exitCode()).as(session.terminal()).isEqualTo(3);
        assertThat(session.terminal()).contains("waits for approval: planvm approve ");
        assertThat(sent).isEmpty();
        String id = session.terminal()
                .replaceAll("(?s).*run (\\w+) waits for approval.*", "$1")
                .trim();
        JsonNode shown = new ObjectMapper().readTree(planvm("show", id).out());
        assertThat(shown.path("status").asText()).isEqualTo("waiting");
        assertThat(shown.at("/pending/tool").asText()).isEqualTo("send_mail");

        CliRun approved = planvm("approve", id);

        assertThat(approved.exitCode()).as(approved.err()).isZero();
        assertThat(approved.out()).isEqualTo("mail sent\n");
        assertThat(sent).containsExactly("{\"to\":\"ann@example.com\"}");
    }

    private static String text(ByteArrayOutputStream shown) {
        synchronized (shown) {
            return shown.toString(StandardCharsets.UTF_8);
        }
    }

    private static void copy(InputStream in, ByteArrayOutputStream to) {
        byte[] buffer = new byte[4096];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                synchronized (to) {
                    to.write(buffer, 0, n);
                }
            }
        } catch (IOException closed) {
            // the session ended
        }
    }

    private static List<String> javaCommand(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    private static List<String> quoted(List<String> words) {
        return words.stream().map(w -> "'" + w.replace("'", "'\\''") + "'").toList();
    }
}
