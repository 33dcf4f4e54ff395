package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code human_input} in {@code planvm run --no-store} on a real pseudo-terminal ({@code script(1)}): the
 * prompt with its choices is asked there, a wrong answer is refused with the reason and asked again, and the
 * right one is the call's output.
 */
class TerminalInputTest {

    private static final String PROMPT = "seq_no 0 asks: Ship it? [yes/no]";

    @TempDir
    Path dir;

    private Path plan;

    @BeforeEach
    void write() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "needs script(1) for a pseudo-terminal");
        plan = Files.writeString(dir.resolve("ship.json"), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "tool_params": {"prompt": "Ship it?", "choices": ["yes", "no"]}, "output_vars": "a"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "answered ${a}"}}]""");
    }

    @Test
    void the_terminal_is_asked_again_after_a_wrong_answer_and_the_right_one_is_the_output() throws Exception {
        String command = String.join(" ", quoted(javaCommand("run", "--no-store", plan.toString())));
        ProcessBuilder builder =
                new ProcessBuilder("/usr/bin/script", "-qec", command, "/dev/null").redirectErrorStream(true);
        Process script = builder.start();
        ByteArrayOutputStream shown = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> copy(script.getInputStream(), shown));
        reader.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!text(shown).contains(PROMPT) && script.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(text(shown)).as("the prompt on the terminal").contains(PROMPT);
        try (OutputStream typing = script.getOutputStream()) {
            typing.write("maybe\nyes\n".getBytes(StandardCharsets.UTF_8));
            typing.flush();
            assertThat(script.waitFor(60, TimeUnit.SECONDS)).as(text(shown)).isTrue();
        }
        reader.join(10_000);
        assertThat(script.exitValue()).as(text(shown)).isZero();
        assertThat(text(shown))
                .contains("the answer \"maybe\" is not one of the choices yes, no")
                .contains("answered yes");
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
