package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile plans against the real command in a child JVM with a small heap: a plan that exhausts
 * the heap fails with one sentence (no stack trace, no hang) and a batch reports it as failed and
 * runs every other plan; the issue's examples — {@code str([s, s, …])} and 900 assigns of thirty
 * 512 Ki values — fail their step with a sentence instead of ending in {@code OutOfMemoryError}.
 */
@Tag("slow") // soak: heap exhaustion in child JVMs (mvn -Pslow)
class HostilePlansChildJvmTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    /** Steps 0-2 double {@code s} from 8 characters to 524,288 (2^19, under the 1,000,000 string limit). */
    private static final String DOUBLE_S = """
            {"seq_no": 0, "type": "assign", "parameters": {"s": "xxxxxxxx", "i": 0}},
            {"seq_no": 1, "type": "assign", "parameters": {"s": "${s + s}"}},
            {"seq_no": 2, "type": "jmp", "parameters": {"condition": "${len(s) < 524288}", "jump_if_true": 1}},""";

    /** 120 distinct variables of 524 Ki characters: 60 MiB live, under the 64 MiB budget, over a 64 MiB heap. */
    private static String hungry() {
        StringBuilder keys = new StringBuilder();
        for (int i = 0; i < 120; i++) {
            keys.append(i == 0 ? "" : ", ")
                    .append("\"v")
                    .append(i)
                    .append("\": \"${s}")
                    .append(i)
                    .append('"');
        }
        return "[" + DOUBLE_S + "\n{\"seq_no\": 3, \"type\": \"assign\", \"parameters\": {" + keys + "}},"
                + "\n{\"seq_no\": 4, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"done\"}}]";
    }

    /** The issue's {@code str([s, s, …])}: 200 references to s, 105 M characters once rendered. */
    private static String rendering() {
        String refs = String.join(", ", java.util.Collections.nCopies(200, "s"));
        return "[" + DOUBLE_S
                + "\n{\"seq_no\": 3, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${len(str([" + refs
                + "]))}\"}}]";
    }

    /** The issue's 900 assigns of thirty 512 Ki values, each value new (its pass number in it). */
    private static String nineHundredAssigns() {
        return assigns(900);
    }

    /** {@code passes} assigns of thirty new 512 Ki values to the same thirty variables. */
    private static String assigns(int passes) {
        StringBuilder keys = new StringBuilder();
        for (int k = 0; k < 30; k++) {
            keys.append("\"v").append(k).append("\": \"${s}${i}\", ");
        }
        return "[" + DOUBLE_S + "\n{\"seq_no\": 3, \"type\": \"assign\", \"parameters\": {" + keys
                + "\"i\": \"${i + 1}\"}},"
                + "\n{\"seq_no\": 4, \"type\": \"jmp\", \"parameters\": {\"condition\": \"${i < " + passes
                + "}\", \"jump_if_true\": 3}},"
                + "\n{\"seq_no\": 5, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${i}\"}}]";
    }

    private Path plan(String name, String json) throws Exception {
        return Files.writeString(dir.resolve(name), json);
    }

    /** What a child {@code planvm} printed and how it exited. */
    private record Child(int exitCode, String out, String err) {}

    private Child planvm(String heap, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap,
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().put("PLANVM_STORE", dir.resolve("runs.db").toString());
        Process child = builder.start();
        if (!child.waitFor(60, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new AssertionError("planvm " + String.join(" ", args) + " hung for 60 s");
        }
        return new Child(
                child.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private static void noStackTrace(Child child) {
        assertThat(child.err())
                .doesNotContain("Exception in thread")
                .doesNotContain("\tat ")
                .doesNotContain("OutOfMemoryError");
    }

    /** The run's budget is raised out of the way (a trace keeps every value too), so the heap runs out first. */
    @Test
    void a_run_that_exhausts_the_heap_fails_with_one_sentence() throws Exception {
        Path hungry = plan("hungry.json", hungry());

        Child child = planvm("64m", "run", "--no-store", "--max-run-memory", "1GiB", hungry.toString());

        assertThat(child.exitCode()).isEqualTo(1);
        noStackTrace(child);
        assertThat(child.err())
                .contains(hungry + ": seq_no 3 (assign): the run ran out of memory (Java heap space)"
                        + " before any limit stopped it; lower --max-run-memory, or give the JVM more (-Xmx)");
    }

    @Test
    void a_batch_reports_the_plan_that_exhausted_the_heap_as_failed_and_keeps_every_other_result() throws Exception {
        Path before =
                plan("a-before.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        Path hungry = plan("b-hungry.json", hungry());
        Path rendering = plan("c-rendering.json", rendering());
        Path after =
                plan("d-after.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 2}}]");

        Child child = planvm("64m", "batch", "--no-progress", "--concurrency", "1", dir.toString());

        assertThat(child.exitCode()).isEqualTo(1);
        noStackTrace(child);
        List<JsonNode> lines = new ArrayList<>();
        for (String line : child.out().strip().split("\n")) {
            lines.add(MAPPER.readTree(line));
        }
        assertThat(lines)
                .extracting(line -> line.path("file").asText())
                .containsExactly(before.toString(), hungry.toString(), rendering.toString(), after.toString());
        assertThat(lines)
                .extracting(line -> line.path("status").asText())
                .containsExactly("succeeded", "failed", "failed", "succeeded");
        assertThat(lines.get(1).path("error").asText()).contains("seq_no 3 (assign): the run ran out of memory");
        assertThat(lines.get(2).path("error").asText())
                .startsWith("seq_no 3 (assign): ${len(str([s, s, s")
                .endsWith(
                        ": str() would build text of more than 10,000,000 characters; one expression cannot build more");
        assertThat(lines.get(3).path("final_answer").asInt()).isEqualTo(2);
    }

    @Test
    void nine_hundred_assigns_of_thirty_large_values_stop_at_the_run_budget_when_traced() throws Exception {
        Path loop = plan("loop.json", nineHundredAssigns());
        Path trace = dir.resolve("trace.json");

        Child child = planvm(
                "256m", "run", "--no-store", "--max-steps", "5000", "--trace", trace.toString(), loop.toString());

        assertThat(child.exitCode()).isEqualTo(1);
        noStackTrace(child);
        assertThat(child.err())
                .containsPattern("loop.json: seq_no 3 \\(assign\\): keeping the write of 'v\\d+' for the"
                        + " trace would take the run past its limit of 64 MiB \\(--max-run-memory\\)");
        assertThat(MAPPER.readTree(trace.toFile()).path("status").asText()).isEqualTo("failed");
    }

    /** 40 passes build 630 M characters in all, far over the 128 MiB heap; only the live 15 M stay. */
    @Test
    void assigns_replacing_their_values_run_in_flat_memory_without_a_trace() throws Exception {
        Path loop = plan("loop.json", assigns(40));

        Child child = planvm("128m", "batch", "--no-progress", loop.toString());

        noStackTrace(child);
        assertThat(child.exitCode()).as(child.err()).isZero();
        assertThat(MAPPER.readTree(child.out()).path("final_answer").asInt()).isEqualTo(40);
    }
}
