package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.TestServicesStarter;
import java.io.ByteArrayOutputStream;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plan tools with {@code run --temporal} against Temporal's test server on a loopback port and a
 * {@code planvm worker} with no plan-tool files: the command sends the plan tools of {@code --plan-tools}
 * and a PPE script's imports (issue 27) with the plan, and each call runs as a child workflow whose id
 * the trace names and {@code show --temporal} prints.
 */
@Tag("slow") // end to end on Temporal's test server; PlanToolsOnTemporalTest checks plan tools there (mvn -Pslow)
class TemporalPlanToolsCliTest {

    @TempDir
    static Path dir;

    private static TestServicesStarter temporal;
    private static Server grpc;
    private static String target;
    private static Thread worker;
    private static final ByteArrayOutputStream workerErr = new ByteArrayOutputStream();

    @BeforeAll
    static void start() throws Exception {
        temporal = new TestServicesStarter(true, 0);
        NettyServerBuilder builder =
                NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        GRPCServerHelper.registerServicesAndHealthChecks(temporal.getServices(), builder);
        grpc = builder.build().start();
        target = "127.0.0.1:" + grpc.getPort();
        Path config = Files.writeString(dir.resolve("planvm.json"), "{}");
        worker = new Thread(
                () -> Main.run(
                        new String[] {"worker", "--temporal", target, "--config", config.toString()},
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
        assertThat(workerErr.toString(StandardCharsets.UTF_8)).contains("polling task queue");
    }

    @AfterAll
    static void stop() throws Exception {
        worker.interrupt();
        worker.join(TimeUnit.SECONDS.toMillis(40));
        grpc.shutdownNow();
        temporal.close();
    }

    private static Path write(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    @Test
    void a_script_that_imports_runs_on_temporal_as_parent_child_and_grandchild_workflows() throws Exception {
        write("lib/shout.ai.yaml", "---\ninput: [content]\n---\n- $ret: \"?=upper(content) + '!'\"\n");
        write(
                "lib/exclaim.ai.yaml",
                "---\ninput: [content]\nimport: [shout.ai.yaml]\n---\n"
                        + "- $echo: \"?=content + ' there'\"\n- -> shout\n");
        Path parent = write(
                "parent.ai.yaml",
                "---\nimport:\n  - lib/exclaim.ai.yaml: greet\n---\n- $echo: hi\n- -> greet -> $print\n");
        Path trace = dir.resolve("ppe.trace.json");

        CliRun remote = CliRun.of(
                "run", parent.toString(), "--temporal", target, "--workflow-id", "ppe-1", "--trace", trace.toString());
        CliRun local = CliRun.of("run", parent.toString(), "--no-store");

        assertThat(remote.exitCode()).as(remote.err()).isZero();
        assertThat(remote.out()).isEqualTo(local.out()).isEqualTo("HI THERE!\n");
        List<String> children = childIds(new ObjectMapper().readTree(trace.toFile()));
        assertThat(children).hasSize(1);
        String child = children.get(0);
        assertThat(child).startsWith("ppe-1/");

        JsonNode shownChild = show(child);
        assertThat(shownChild.get("status").asText()).isEqualTo("succeeded");
        assertThat(shownChild.at("/inputs/content").asText()).isEqualTo("hi");
        assertThat(show("ppe-1").at("/children/0/workflow").asText()).isEqualTo(child);
        assertThat(shownChild.get("children")).hasSize(1);
        String grandchild = shownChild.at("/children/0/workflow").asText();
        assertThat(grandchild).startsWith(child + "/");
        JsonNode shownGrandchild = show(grandchild);
        assertThat(shownGrandchild.get("status").asText()).isEqualTo("succeeded");
        assertThat(shownGrandchild.get("result").asText()).isEqualTo("HI THERE!");

        CliRun batch = CliRun.of("batch", parent.toString(), "--temporal", target);
        assertThat(batch.exitCode()).as(batch.err()).isZero();
        assertThat(batch.out()).contains("\"status\":\"succeeded\"").contains("HI THERE!");
    }

    @Test
    void plan_tools_of_a_directory_travel_with_the_plan_and_answer_as_locally() throws Exception {
        CliRun remote = CliRun.of(
                "run", "../plans/plan-tools-parent.json", "--plan-tools", "../plans/plan-tools", "--temporal", target);
        CliRun local = CliRun.of(
                "run", "../plans/plan-tools-parent.json", "--plan-tools", "../plans/plan-tools", "--no-store");

        assertThat(remote.exitCode()).as(remote.err()).isZero();
        assertThat(local.exitCode()).as(local.err()).isZero();
        assertThat(remote.out()).isEqualTo(local.out());
        assertThat(remote.out()).startsWith("engineers: 4 words on plans that call plans | operators:");
    }

    @Test
    void params_that_do_not_fit_a_plan_tool_refuse_the_plan_before_it_runs_as_locally() throws Exception {
        Path refused = write("refused.json", """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "headline", "tool_params": {"topic": 7},
                  "output_vars": ["final_answer"]}}]""");
        CliRun remote =
                CliRun.of("run", refused.toString(), "--plan-tools", "../plans/plan-tools", "--temporal", target);
        CliRun local = CliRun.of("run", refused.toString(), "--plan-tools", "../plans/plan-tools", "--no-store");

        assertThat(remote.exitCode())
                .as(remote.err())
                .isEqualTo(local.exitCode())
                .isEqualTo(2);
        String located = local.err().lines().findFirst().orElseThrow();
        assertThat(located).contains("seq_no 0").contains("params do not fit the schema of tool 'headline'");
        assertThat(remote.err()).startsWith(located);
    }

    private static JsonNode show(String workflowId) throws Exception {
        CliRun show = CliRun.of("show", workflowId, "--temporal", target);
        assertThat(show.exitCode()).as(show.err()).isZero();
        return new ObjectMapper().readTree(show.out());
    }

    private static List<String> childIds(JsonNode trace) {
        List<String> ids = new ArrayList<>();
        trace.path("calls").forEach(call -> {
            if (call.has("child_run_id")) {
                ids.add(call.get("child_run_id").asText());
            }
        });
        return ids;
    }
}
