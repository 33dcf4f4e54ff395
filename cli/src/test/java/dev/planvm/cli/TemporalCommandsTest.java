package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.TestServicesStarter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Temporal commands against a real Temporal protocol peer on 127.0.0.1 (Temporal's test server
 * behind a loopback gRPC port): {@code planvm worker} holds a configured HTTP tool and its secret,
 * {@code run --temporal} and {@code batch --temporal} print what the local commands print, and
 * {@code show --temporal} prints a workflow.
 */
class TemporalCommandsTest {

    private static final String TOKEN = "city-token-0123456789";

    @TempDir
    static Path dir;

    private static HttpServer cities;
    private static final AtomicReference<String> authorization = new AtomicReference<>();
    private static TestServicesStarter temporal;
    private static Server grpc;
    private static String target;
    private static Thread worker;
    private static final ByteArrayOutputStream workerErr = new ByteArrayOutputStream();
    private static Path config;

    @BeforeAll
    static void start() throws Exception {
        cities = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        cities.createContext("/cities/", exchange -> {
            authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            String city = exchange.getRequestURI().getPath().substring("/cities/".length());
            if (city.equals("Atlantis")) { // a call that fails for good
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            byte[] body = ("{\"data\": {\"city\": \"" + city + "\", \"population\": 709000}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        cities.start();
        config = Files.writeString(
                dir.resolve("planvm.json"), """
                {"httpTools": [{"name": "lookup", "description": "Looks a city up", "method": "GET",
                  "url": "http://127.0.0.1:%d/cities/${city}",
                  "headers": {"Authorization": "Bearer ${secret:CITY_TOKEN}"}, "output": "/data",
                  "params": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]}
                """.formatted(cities.getAddress().getPort()));

        temporal = new TestServicesStarter(true, 0);
        NettyServerBuilder builder =
                NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        GRPCServerHelper.registerServicesAndHealthChecks(temporal.getServices(), builder);
        grpc = builder.build().start();
        target = "127.0.0.1:" + grpc.getPort();

        worker = new Thread(
                () -> Main.run(
                        new String[] {
                            "worker",
                            "--temporal",
                            target,
                            "--config",
                            config.toString(),
                            "--secret",
                            "CITY_TOKEN=" + TOKEN
                        },
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        new PrintStream(workerErr, true, StandardCharsets.UTF_8),
                        Map.of()),
                "planvm-worker-under-test");
        worker.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!workerErr.toString(StandardCharsets.UTF_8).contains("polling task queue")
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(workerErr.toString(StandardCharsets.UTF_8))
                .contains("planvm worker: polling task queue 'planvm' of" + " namespace 'default' at " + target
                        + " (plan workflows, calls of lookup)");
    }

    @AfterAll
    static void stop() throws Exception {
        worker.interrupt();
        worker.join(TimeUnit.SECONDS.toMillis(40));
        grpc.shutdownNow();
        temporal.close();
        cities.stop(0);
    }

    private static Path plan(String name, String json) throws IOException {
        return Files.writeString(dir.resolve(name), json);
    }

    @Test
    void run_on_temporal_prints_what_a_local_run_prints_and_the_secret_stays_on_the_worker() throws Exception {
        Path plan = plan("city.json", """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "lookup", "tool_params": {"city": "Oslo"},
                  "output_vars": ["population"]}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${population}"}}]""");
        Path trace = dir.resolve("trace.json");
        CliRun remote = CliRun.of("run", plan.toString(), "--temporal", target, "--trace", trace.toString());
        CliRun local = CliRun.withEnvironment(
                Map.of("CITY_TOKEN", TOKEN), "run", plan.toString(), "--config", config.toString(), "--no-store");

        assertThat(remote.exitCode()).as(remote.err()).isZero();
        assertThat(remote.out()).isEqualTo(local.out()).isEqualTo("709000\n");
        assertThat(authorization.get()).isEqualTo("Bearer " + TOKEN);
        JsonNode written = new ObjectMapper().readTree(trace.toFile());
        assertThat(written.get("steps")).hasSize(2);
        assertThat(Files.readString(trace)).doesNotContain(TOKEN);
    }

    @Test
    void an_idyll_document_runs_on_temporal_and_a_failing_block_lets_the_next_run() throws Exception {
        Path document = plan("cities.idyll", """
                <document id="cities">
                  <fncall id="atlantis" idyll-fn="lookup"><params>{"city": "Atlantis"}</params></fncall>
                  <fncall id="oslo" idyll-fn="lookup"><params>{"city": "Oslo"}</params></fncall>
                </document>
                """);
        CliRun remote = CliRun.of("run", document.toString(), "--temporal", target);
        assertThat(remote.exitCode()).as(remote.err()).isEqualTo(1);
        JsonNode report = new ObjectMapper().readTree(remote.out());
        assertThat(report.at("/nodes/0/success").asBoolean()).isFalse();
        assertThat(report.at("/nodes/1/data/population").asInt()).isEqualTo(709000);
        assertThat(report.at("/metadata/nodesFailed").asInt()).isEqualTo(1);
        assertThat(remote.err()).contains("1 block failed");
    }

    @Test
    void a_traced_run_on_temporal_is_one_trace_from_the_command_to_the_workflow() throws Exception {
        Path plan = plan("traced.json", """
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "traced"}}]""");
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            Map<String, String> otel =
                    Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(), "OTEL_BSP_SCHEDULE_DELAY", "50");
            ByteArrayOutputStream tracedErr = new ByteArrayOutputStream();
            Thread traced = new Thread(
                    () -> Main.run(
                            new String[] {"worker", "--temporal", target, "--task-queue", "traced"},
                            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                            new PrintStream(tracedErr, true, StandardCharsets.UTF_8),
                            otel),
                    "planvm-traced-worker-under-test");
            traced.start();
            CliRun run;
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!tracedErr.toString(StandardCharsets.UTF_8).contains("polling task queue")
                        && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                run = CliRun.withEnvironment(
                        otel, "run", plan.toString(), "--temporal", target, "--task-queue", "traced");
            } finally {
                traced.interrupt(); // the worker exports its spans as it stops
                traced.join(TimeUnit.SECONDS.toMillis(40));
            }
            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).contains("traced");

            List<io.opentelemetry.proto.trace.v1.Span> spans = receiver.spans();
            io.opentelemetry.proto.trace.v1.Span client = spans.stream()
                    .filter(span -> span.getName().equals("planvm.temporal.run"))
                    .findFirst()
                    .orElseThrow();
            io.opentelemetry.proto.trace.v1.Span workflowRun = spans.stream()
                    .filter(span -> span.getName().equals("planvm.run"))
                    .findFirst()
                    .orElseThrow();
            assertThat(client.getKind()).isEqualTo(io.opentelemetry.proto.trace.v1.Span.SpanKind.SPAN_KIND_CLIENT);
            assertThat(workflowRun.getTraceId()).isEqualTo(client.getTraceId());
            assertThat(workflowRun.getParentSpanId())
                    .as("the workflow's run span: a child of the command's")
                    .isEqualTo(client.getSpanId());
        }
    }

    @Test
    void a_failing_step_and_a_plan_that_cannot_run_exit_as_locally() throws Exception {
        Path failing = plan("failing.json", """
                [{"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${user.email}"}}]""");
        CliRun remote = CliRun.of("run", failing.toString(), "--temporal", target, "--var", "user={\"name\": \"Ann\"}");
        CliRun local = CliRun.of("run", failing.toString(), "--no-store", "--var", "user={\"name\": \"Ann\"}");
        assertThat(remote.exitCode()).isEqualTo(local.exitCode()).isEqualTo(1);
        assertThat(remote.err())
                .startsWith(local.err().lines().findFirst().orElseThrow())
                .contains("planvm show planvm-");

        Path unknown = plan("unknown.json", """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {},
                  "output_vars": "final_answer"}}]""");
        CliRun rejected = CliRun.of("run", unknown.toString(), "--temporal", target);
        assertThat(rejected.exitCode()).isEqualTo(2);
        assertThat(rejected.err()).startsWith(unknown + ": seq_no 0: tool 'vector_search' is not installed");
    }

    @Test
    void keep_going_on_temporal_reports_the_failed_steps_and_exits_as_locally() throws Exception {
        Path plan = plan("keep.json", """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "lookup", "tool_params": {"city": "Atlantis"},
                  "output_vars": ["lost"]}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "lookup", "tool_params": {"city": "Oslo"},
                  "output_vars": ["population"]}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${population}"}}]""");
        CliRun remote = CliRun.of("run", plan.toString(), "--temporal", target, "--keep-going");
        CliRun local = CliRun.withEnvironment(
                Map.of("CITY_TOKEN", TOKEN),
                "run",
                plan.toString(),
                "--config",
                config.toString(),
                "--no-store",
                "--keep-going");

        assertThat(local.exitCode()).as(local.err()).isEqualTo(1);
        assertThat(remote.exitCode()).as(remote.err()).isEqualTo(1);
        assertThat(remote.out()).isEqualTo(local.out()).isEqualTo("709000\n");
        assertThat(remote.err())
                .isEqualTo(local.err())
                .startsWith(plan + ": seq_no 0 (calling) failed, tool_error, and the run went on: tool 'lookup' failed")
                .endsWith(plan + ": 1 step failed (--keep-going): the run completed_with_failures\n");

        CliRun batchRemote = CliRun.of("batch", plan.toString(), "--temporal", target, "--keep-going");
        CliRun batchLocal = CliRun.withEnvironment(
                Map.of("CITY_TOKEN", TOKEN), "batch", plan.toString(), "--config", config.toString(), "--keep-going");
        assertThat(batchRemote.exitCode())
                .as(batchRemote.err())
                .isEqualTo(batchLocal.exitCode())
                .isEqualTo(1);
        JsonNode remoteLine = new ObjectMapper().readTree(batchRemote.out());
        JsonNode localLine = new ObjectMapper().readTree(batchLocal.out());
        assertThat(remoteLine.path("status").asText()).isEqualTo("completed_with_failures");
        assertThat(remoteLine.path("failed_steps"))
                .as("a batch line on Temporal lists the steps that failed as a local one")
                .isEqualTo(localLine.path("failed_steps"))
                .hasSize(1);
        assertThat(remoteLine.at("/failed_steps/0/seq_no").asInt()).isZero();
        assertThat(remoteLine.at("/failed_steps/0/kind").asText()).isEqualTo("tool_error");
    }

    @Test
    void a_workflow_started_without_waiting_is_shown_by_its_id() throws Exception {
        Path plan = plan(
                "hello.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"hi\"}}]");
        CliRun started =
                CliRun.of("run", plan.toString(), "--temporal", target, "--no-wait", "--workflow-id", "hello-1");
        assertThat(started.exitCode()).as(started.err()).isZero();
        assertThat(started.out()).isEqualTo("hello-1\n");

        ObjectNode shown = null;
        for (int i = 0; i < 100; i++) {
            CliRun show = CliRun.of("show", "hello-1", "--temporal", target);
            assertThat(show.exitCode()).as(show.err()).isZero();
            shown = (ObjectNode) new ObjectMapper().readTree(show.out());
            if (!shown.get("status").asText().equals("running")) {
                break;
            }
            Thread.sleep(100);
        }
        assertThat(shown.get("status").asText()).isEqualTo("succeeded");
        assertThat(shown.get("result").asText()).isEqualTo("hi");
        assertThat(shown.at("/plan/source").asText()).isEqualTo(plan.toString());

        CliRun missing = CliRun.of("show", "no-such-workflow", "--temporal", target);
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).isEqualTo("planvm: no workflow 'no-such-workflow' in this namespace\n");
    }

    @Test
    void answer_on_temporal_refuses_a_wrong_answer_and_continues_the_waiting_workflow() throws Exception {
        Path plan = plan("ask.json", """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input",
                  "tool_params": {"prompt": "Ship it?", "choices": ["yes", "no"]}, "output_vars": "go"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "answer: ${go}"}}]""");
        CliRun started = CliRun.of("run", plan.toString(), "--temporal", target, "--no-wait", "--workflow-id", "ask-1");
        assertThat(started.exitCode()).as(started.err()).isZero();
        ObjectNode shown = showWhile("ask-1", "running");
        assertThat(shown.get("status").asText()).isEqualTo("waiting");
        assertThat(shown.at("/waiting_for/0/params/prompt").asText()).isEqualTo("Ship it?");

        CliRun wrong = CliRun.of("answer", "ask-1", "--text", "maybe", "--temporal", target);
        assertThat(wrong.exitCode()).isEqualTo(2);
        assertThat(wrong.err())
                .startsWith("planvm: workflow 'ask-1' keeps waiting: human_input at seq_no 0 refuses the answer: ")
                .hasLineCount(1);

        CliRun right = CliRun.of("answer", "ask-1", "--value", "\"yes\"", "--call-id", "step-0", "--temporal", target);
        assertThat(right.exitCode()).as(right.err()).isZero();
        assertThat(right.err()).contains("took the answer to human_input at seq_no 0");
        shown = showWhile("ask-1", "waiting");
        assertThat(shown.get("status").asText()).isEqualTo("succeeded");
        assertThat(shown.get("result").asText()).isEqualTo("answer: yes");

        CliRun again = CliRun.of("answer", "ask-1", "--text", "no", "--temporal", target);
        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.err()).isEqualTo("planvm: workflow 'ask-1' has ended (completed) and waits for no answer\n");
    }

    /** The workflow as show prints it, once its status is no longer {@code status} (or running). */
    private static ObjectNode showWhile(String id, String status) throws Exception {
        ObjectNode shown = null;
        for (int i = 0; i < 200; i++) {
            CliRun show = CliRun.of("show", id, "--temporal", target);
            assertThat(show.exitCode()).as(show.err()).isZero();
            shown = (ObjectNode) new ObjectMapper().readTree(show.out());
            String now = shown.get("status").asText();
            if (!now.equals(status) && !now.equals("running")) {
                break;
            }
            Thread.sleep(100);
        }
        return shown;
    }

    @Test
    void now_and_tz_fix_the_clock_of_a_run_on_temporal_as_they_do_locally() throws Exception {
        Path clocked = Files.createDirectories(dir.resolve("clocked"));
        Path plan = Files.writeString(
                clocked.resolve("today.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${today} ${now}\"}}]");
        List<String> clock = List.of("--now", "2026-11-26T12:00:00Z", "--tz", "Pacific/Auckland");
        CliRun remote = CliRun.of(join(List.of("run", plan.toString(), "--temporal", target), clock));
        CliRun local = CliRun.of(join(List.of("run", plan.toString(), "--no-store"), clock));
        assertThat(remote.out())
                .as(remote.err())
                .isEqualTo(local.out())
                .isEqualTo("2026-11-27 2026-11-27T01:00:00+13:00\n");

        CliRun batch = CliRun.of(join(List.of("batch", clocked.toString(), "--temporal", target), clock));
        assertThat(batch.out()).as(batch.err()).contains("\"final_answer\":\"2026-11-27 2026-11-27T01:00:00+13:00\"");
    }

    private static String[] join(List<String> a, List<String> b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all.toArray(String[]::new);
    }

    @Test
    void batch_on_temporal_prints_the_lines_a_local_batch_prints() throws Exception {
        CliRun remote = CliRun.of("batch", "../plans", "--replay-dir", "../plans", "--temporal", target);
        CliRun local = CliRun.of("batch", "../plans", "--replay-dir", "../plans");

        assertThat(remote.exitCode()).as(remote.err()).isEqualTo(local.exitCode());
        long examples;
        try (var files = java.nio.file.Files.list(Path.of("../plans"))) {
            examples =
                    files.filter(f -> f.toString().endsWith(".expected.json")).count(); // one per example plan
        }
        assertThat(withoutDurations(remote.out()))
                .isEqualTo(withoutDurations(local.out()))
                .hasSize((int) examples);
        assertThat(remote.err()).contains(examples + " plans in");
    }

    @Test
    void options_that_belong_elsewhere_are_refused_with_temporal() throws Exception {
        Path plan = plan(
                "hello.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"hi\"}}]");
        CliRun store = CliRun.of("run", plan.toString(), "--temporal", target, "--store", "x.db");
        assertThat(store.exitCode()).isEqualTo(2);
        assertThat(store.err())
                .startsWith("run: --store cannot be used with --temporal: the Temporal server keeps the run");

        CliRun secret = CliRun.of("run", plan.toString(), "--temporal", target, "--secret", "TOKEN=abcdefghijkl");
        assertThat(secret.exitCode()).isEqualTo(2);
        assertThat(secret.err())
                .contains("--secret TOKEN: with --temporal, --secret names a secret the workers hold")
                .doesNotContain("abcdefghijkl");

        CliRun namespace = CliRun.of("run", plan.toString(), "--namespace", "prod");
        assertThat(namespace.exitCode()).isEqualTo(2);
        assertThat(namespace.err()).startsWith("run: --namespace needs --temporal HOST:PORT");
    }

    @Test
    void an_unreachable_server_is_one_sentence_and_exit_1() throws Exception {
        Path plan = plan(
                "hello.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"hi\"}}]");
        CliRun run = CliRun.of("run", plan.toString(), "--temporal", "127.0.0.1:1");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err())
                .startsWith("planvm: cannot reach the Temporal server at 127.0.0.1:1: ")
                .hasLineCount(1);
    }

    private static List<String> withoutDurations(String lines) throws IOException {
        List<String> kept = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : lines.split("\n")) {
            ObjectNode outcome = (ObjectNode) json.readTree(line);
            outcome.remove("duration_ms");
            kept.add(outcome.toString());
        }
        return kept;
    }
}
