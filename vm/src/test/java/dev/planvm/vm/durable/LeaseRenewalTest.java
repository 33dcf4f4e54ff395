package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A durable run longer than its lease keeps it: the heartbeat renews the lease while another process
 * works on the run, so this process cannot take it over mid-run; once that process dies (SIGKILL,
 * nothing renews any more), the run is taken over and resumed to its end.
 */
@Tag("slow") // crash: a child JVM outliving its lease (mvn -Pslow)
class LeaseRenewalTest {

    /** The child's lease: the claim below comes well after it would have run out without renewal. */
    static final Duration LEASE = Duration.ofMillis(1000);

    static final int PASSES = 20;

    static final String PLAN = """
            [{"seq_no": 0, "type": "assign", "parameters": {"i": 0}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "slow", "tool_params": {"i": "${i}"}, "output_vars": "r"}},
             {"seq_no": 2, "type": "assign", "parameters": {"i": "${r + 1}"}},
             {"seq_no": 3, "type": "jmp", "parameters": {"condition": "${i < %d}", "jump_if_true": 1}},
             {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${i}"}}]""".formatted(PASSES);

    @TempDir
    Path dir;

    @Test
    void a_run_longer_than_its_lease_stays_owned_while_its_process_lives_and_is_taken_over_once_it_died()
            throws Exception {
        Path db = dir.resolve("runs.db");
        Path started = dir.resolve("started");
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-Xshare:auto",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Child.class.getName(),
                        db.toString(),
                        started.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("child.out").toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (child.isAlive() && !Files.exists(started) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(started)
                    .as(Files.exists(dir.resolve("child.out")) ? Files.readString(dir.resolve("child.out")) : "")
                    .exists();
            Thread.sleep(LEASE.toMillis() * 5 / 2); // the lease taken when the run was created has run out by now

            PlanVm vm = vm(0);
            long claimedAt = System.currentTimeMillis();
            try (RunStore store = RunStore.open(db)) {
                String id = store.list(1).get(0).id();
                assertThat(store.list(1).get(0).state()).isEqualTo("running");
                assertThatThrownBy(() -> new DurableRuns(vm, store).resume(id, RunMode.live(), Map.of()))
                        .isInstanceOf(DurableRunException.class)
                        .hasMessageStartingWith("run " + id + " is running in process " + child.pid() + " on host ")
                        .hasMessageEndingWith("; use --force after it died");
                assertThat(child.isAlive())
                        .as("the child still ran the plan when it was refused")
                        .isTrue();
                assertThat(leaseUntil(db, id))
                        .as("renewed after the run was created")
                        .isGreaterThan(claimedAt);

                child.destroyForcibly(); // SIGKILL: its heartbeat stops with it
                child.waitFor();

                assertThat(store.list(1).get(0).state()).isEqualTo("interrupted");
                RunResult resumed = new DurableRuns(vm, store)
                        .resume(id, RunMode.live(), Map.of())
                        .result();
                assertThat(resumed.succeeded())
                        .as(String.valueOf(resumed.error()))
                        .isTrue();
                assertThat(resumed.finalAnswer().intValue()).isEqualTo(PASSES);
                assertThat(store.find(id).orElseThrow().steps().get(0).session())
                        .isEqualTo(1);
            }
        } finally {
            child.destroyForcibly();
        }
    }

    private static long leaseUntil(Path db, String id) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = connection.createStatement()) {
            s.execute("PRAGMA busy_timeout=10000");
            try (ResultSet rows = s.executeQuery("SELECT lease_until FROM runs WHERE id = '" + id + "'")) {
                assertThat(rows.next()).isTrue();
                return rows.getLong(1);
            }
        }
    }

    /** A VM whose {@code slow} tool waits {@code millis} and answers its {@code i}. */
    static PlanVm vm(long millis) {
        return PlanVm.builder()
                .tool(Tool.of("slow", "Waits, then answers params.i.", (params, context) -> {
                    try {
                        Thread.sleep(millis);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return IntNode.valueOf(params.path("i").asInt());
                }))
                .build();
    }

    /** The process that owns the run: {@code Child STORE STARTED}; creates STARTED once its first call runs. */
    static final class Child {
        public static void main(String[] args) {
            Path started = Path.of(args[1]);
            PlanVm vm = PlanVm.builder()
                    .tool(Tool.of("slow", "Marks the start, waits, answers params.i.", (params, context) -> {
                        try {
                            if (!Files.exists(started)) {
                                Files.writeString(started, "started");
                            }
                            Thread.sleep(300);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return IntNode.valueOf(params.path("i").asInt());
                    }))
                    .build();
            RunStore.Settings settings =
                    RunStore.Settings.DEFAULT.withLease(LEASE).withDurability(RunStore.Durability.PROCESS);
            try (RunStore store = RunStore.open(Path.of(args[0]), Redactor.none(), settings)) {
                RunResult result = new DurableRuns(vm, store)
                        .start(vm.loader().load(PLAN, "lease.json").planOrThrow(), Map.of(), RunMode.live())
                        .result();
                System.out.println(result.finalAnswer());
            }
        }
    }
}
