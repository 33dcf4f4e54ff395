package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A durable {@code for_each} resumes per element (issue 24): {@code planvm run} in a child JVM is killed
 * with SIGKILL while the fourth of six elements is in flight (a sequential run, so the first three have
 * answered and committed); {@code planvm resume} calls only the
 * elements the killed process had not committed, and the output array equals an uninterrupted run's.
 */
@Tag("slow") // crash: a child JVM killed mid-map (mvn -Pslow)
class ForEachResumeCliTest {

    @TempDir
    Path dir;

    private HttpServer counter;
    private final List<Integer> calls = new CopyOnWriteArrayList<>();
    private final CountDownLatch fourth = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private Path config;

    private static final String MAP = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "count", "for_each": [10, 11, 12, 13, 14, 15],
               "as": "n", "tool_params": {"i": "${n}"}, "output_vars": "counted"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${counted}"}}]""";

    @BeforeEach
    void start() throws Exception {
        counter = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        counter.createContext("/count", exchange -> {
            JsonNode body = new ObjectMapper().readTree(exchange.getRequestBody());
            int i = body.path("i").asInt();
            calls.add(i);
            if (i == 13 && fourth.getCount() > 0) {
                fourth.countDown(); // the first process dies while this call is in flight
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] answer = ("{\"r\": " + (i * 2) + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        counter.setExecutor(Executors.newCachedThreadPool());
        counter.start();
        config = Files.writeString(
                dir.resolve("planvm.json"), """
                {"httpTools": [{"name": "count", "method": "POST", "url": "http://127.0.0.1:%d/count",
                                "body": {"i": "${i}"}, "output": "/r",
                                "params": {"type": "object", "properties": {"i": {"type": "integer"}}, "required": ["i"]}}]}
                """.formatted(counter.getAddress().getPort()));
    }

    @AfterEach
    void stop() {
        release.countDown();
        counter.stop(0);
    }

    private Map<String, String> environment() {
        return Map.of("PLANVM_STORE", dir.resolve("runs.db").toString(), "PLANVM_CONFIG", config.toString());
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(environment(), args);
    }

    @Test
    void a_map_killed_mid_way_resumes_calling_only_the_elements_not_committed() throws Exception {
        Path plan = Files.writeString(dir.resolve("map.json"), MAP);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "run",
                "--sequential", // the elements one by one: 10, 11 and 12 have committed when 13 is called
                plan.toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("first.out").toFile());
        builder.environment().putAll(environment());
        Process first = builder.start();
        try {
            assertThat(fourth.await(120, TimeUnit.SECONDS))
                    .as("the map reached its fourth element: %s", Files.readString(dir.resolve("first.out")))
                    .isTrue();
        } finally {
            first.destroyForcibly(); // SIGKILL, mid-map
            first.waitFor(30, TimeUnit.SECONDS);
            release.countDown();
        }
        assertThat(calls).containsExactly(10, 11, 12, 13);

        CliRun runs = planvm("runs");
        assertThat(runs.exitCode()).as(runs.err()).isZero();
        Matcher interrupted = Pattern.compile("(\\w+) +interrupted ").matcher(runs.out());
        assertThat(interrupted.find()).as(runs.out()).isTrue();

        CliRun resumed = planvm("resume", interrupted.group(1));
        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        // 10, 11 and 12 were committed by the killed process and never called again; 13 was in flight
        assertThat(calls.subList(4, calls.size())).containsExactlyInAnyOrder(13, 14, 15);

        CliRun uninterrupted = planvm("run", plan.toString());
        assertThat(uninterrupted.exitCode()).as(uninterrupted.err()).isZero();
        assertThat(resumed.out()).isEqualTo(uninterrupted.out());
        assertThat(new ObjectMapper().readTree(resumed.out()))
                .isEqualTo(new ObjectMapper().readTree("[20, 22, 24, 26, 28, 30]"));
    }
}
