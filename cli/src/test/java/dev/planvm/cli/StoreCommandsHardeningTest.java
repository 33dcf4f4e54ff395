package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.instructions.Plan;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.durable.RunStore;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stored-run commands under real use: no store is ever created by reading, pruning, states, batch secrets. */
class StoreCommandsHardeningTest {

    @TempDir
    Path dir;

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString()), args);
    }

    @Test
    void reading_a_mistyped_store_says_there_is_none_and_creates_nothing() {
        Path typo = dir.resolve("tpyo/runs.db");
        for (String command : new String[] {"runs", "show"}) {
            CliRun read = command.equals("runs")
                    ? planvm("runs", "--store", typo.toString())
                    : planvm("show", "abc", "--store", typo.toString());
            assertThat(read.exitCode()).isEqualTo(2);
            assertThat(read.err())
                    .startsWith("planvm: there is no run store at " + typo)
                    .doesNotContain("--verbose");
        }
        assertThat(typo.getParent()).doesNotExist();
    }

    @Test
    void runs_are_listed_with_their_state_and_pruned_to_the_newest() throws Exception {
        Path plan = Files.writeString(
                dir.resolve("p.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${n}\"}}]");
        for (int i = 0; i < 3; i++) {
            assertThat(planvm("run", plan.toString(), "--var", "n=" + i, "--durability", "process")
                            .exitCode())
                    .isZero();
            Thread.sleep(5);
        }
        CliRun runs = planvm("runs");
        assertThat(runs.out().lines().skip(1))
                .hasSize(3)
                .allSatisfy(line -> assertThat(line).contains(" succeeded "));
        assertThat(planvm("runs", "--keep", "1").exitCode()).isEqualTo(2);
        CliRun pruned = planvm("runs", "--prune", "--keep", "1");
        assertThat(pruned.out()).startsWith("pruned 2 runs from ");
        assertThat(planvm("runs").out().lines().skip(1)).hasSize(1);
        assertThat(planvm("runs", "--prune", "--older-than", "30x").err())
                .contains("expected a number and d, h, m or s");
    }

    @Test
    void runs_shows_a_run_as_running_while_its_owner_process_lives_and_interrupted_once_it_is_gone() throws Exception {
        Path db = dir.resolve("runs.db");
        String id;
        try (RunStore store = RunStore.open(db)) {
            Plan plan = PlanVm.builder()
                    .build()
                    .loader()
                    .load(
                            "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]",
                            "owned.json")
                    .planOrThrow();
            id = store.createRun(plan, Map.of(), "live", null, null);
            store.interrupt(id);
        }
        // the owner is another live process of this host, holding a lease for ten minutes
        Process owner = new ProcessBuilder("sleep", "600").start();
        try {
            long started =
                    owner.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
            String host = InetAddress.getLocalHost().getHostName().replace("@", "_");
            try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db);
                    Statement s = connection.createStatement()) {
                s.execute("UPDATE runs SET owner = '" + owner.pid() + "@" + host + "@" + started + "', lease_until = "
                        + (System.currentTimeMillis() + 600_000) + " WHERE id = '" + id + "'");
            }
            CliRun alive = planvm("runs");
            assertThat(alive.exitCode()).as(alive.err()).isZero();
            assertThat(alive.out().lines().skip(1))
                    .singleElement()
                    .asString()
                    .startsWith(id)
                    .contains(" running ");

            owner.destroyForcibly();
            assertThat(owner.waitFor(60, TimeUnit.SECONDS)).isTrue();

            CliRun gone = planvm("runs");
            assertThat(gone.out().lines().skip(1))
                    .singleElement()
                    .asString()
                    .startsWith(id)
                    .contains(" interrupted ");
        } finally {
            owner.destroyForcibly();
        }
    }

    @Test
    void batch_gives_secrets_to_every_plan_and_prints_them_redacted() throws Exception {
        Path plans = Files.createDirectories(dir.resolve("plans"));
        Files.writeString(
                plans.resolve("a.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"token ${token}\"}}]");
        CliRun batch = planvm("batch", plans.toString(), "--secret", "token=s3cr3t-value-123", "--no-progress");
        assertThat(batch.exitCode()).as(batch.out() + batch.err()).isZero();
        assertThat(batch.out())
                .contains("\"status\":\"succeeded\"")
                .contains("token «secret:token»")
                .doesNotContain("s3cr3t-value-123");
    }
}
