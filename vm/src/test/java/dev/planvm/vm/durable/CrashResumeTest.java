package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.instructions.Plan;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash test: {@code planvm}'s store in a separate process (see {@link CrashPlan}) is killed with
 * SIGKILL at a random moment, then the run is resumed until it succeeds. The answer must equal an
 * uninterrupted run's, and no committed tool call may be invoked twice: each committed pass was
 * invoked exactly once by the session that committed it and never again. A pass in flight at the
 * kill may run again (at-least-once, like Temporal activities). {@code -Dplanvm.crash.runs=N}
 * runs more (default 50).
 */
@Tag("slow") // crash: 50 child JVMs killed with SIGKILL (mvn -Pslow)
class CrashResumeTest {

    @TempDir
    Path dir;

    @Test
    void a_run_killed_at_random_points_resumes_to_the_same_answer_without_repeating_committed_calls() throws Exception {
        int runs = Integer.getInteger("planvm.crash.runs", 50);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Boolean>> crashes = new ArrayList<>();
            for (int n = 0; n < runs; n++) {
                int run = n;
                crashes.add(pool.submit(() -> crashAndResume(run, new Random(20261122L + run))));
            }
            int killedMidRun = 0;
            for (Future<Boolean> crash : crashes) {
                killedMidRun += crash.get() ? 1 : 0;
            }
            assertThat(killedMidRun)
                    .as("runs killed after some steps committed and before the end")
                    .isGreaterThan(runs / 2);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One crash: start the child, kill it with SIGKILL once its run is under way, resume, check. */
    private boolean crashAndResume(int n, Random random) throws Exception {
        Path store = dir.resolve("runs-" + n + ".db");
        Path log = dir.resolve("calls-" + n + ".log");
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-Xshare:auto",
                        "-cp",
                        System.getProperty("java.class.path"),
                        CrashPlan.class.getName(),
                        store.toString(),
                        log.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("child-" + n + ".out").toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (child.isAlive() && !Files.exists(log) && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        Thread.sleep(random.nextInt(CrashPlan.PASSES * 15));
        child.destroyForcibly(); // SIGKILL
        child.waitFor();
        String answer = resumeToTheEnd(store, log);
        assertThat(answer).as("run " + n).isEqualTo(CrashPlan.EXPECTED);
        return checkNoCommittedCallRepeated(store, log, n);
    }

    /** Resumes the stored run (or starts it, when the child died before creating it) until it succeeds. */
    private static String resumeToTheEnd(Path storePath, Path log) {
        try (RunStore store = RunStore.open(storePath)) {
            List<RunSummary> runs = store.list(1);
            if (runs.isEmpty()) {
                // the child died before storing the run, so it called nothing: this process is its first session
                PlanVm vm = CrashPlan.vm(log, 1);
                Plan plan = vm.loader().load(CrashPlan.PLAN, "crash.json").planOrThrow();
                return new DurableRuns(vm, store)
                        .start(plan, Map.of(), RunMode.live())
                        .result()
                        .finalAnswer()
                        .asText();
            }
            StoredRun run = store.find(runs.get(0).id()).orElseThrow();
            if (run.status() == RunStatus.SUCCEEDED) {
                return run.finalAnswer().asText();
            }
            PlanVm vm = CrashPlan.vm(log, 2);
            return new DurableRuns(vm, store)
                    .resume(run.id(), RunMode.live(), Map.of())
                    .result()
                    .finalAnswer()
                    .asText();
        }
    }

    /**
     * Each committed pass was invoked exactly once in the session that committed it and in no
     * later one. Returns whether the kill fell between the first and the last pass.
     */
    private static boolean checkNoCommittedCallRepeated(Path storePath, Path log, int n) throws Exception {
        Map<Integer, List<Integer>> sessionsByPass = new HashMap<>();
        for (String line : Files.readAllLines(log)) {
            String[] parts = line.split(" ");
            sessionsByPass
                    .computeIfAbsent(Integer.parseInt(parts[1]), p -> new ArrayList<>())
                    .add(Integer.parseInt(parts[0]));
        }
        int committedByChild = 0;
        try (RunStore store = RunStore.open(storePath)) {
            StoredRun run = store.find(store.list(1).get(0).id()).orElseThrow();
            for (StoredStep step : run.steps()) {
                if (!step.type().equals("calling")) {
                    continue;
                }
                int pass = step.trace().at("/inputs/params/i").asInt();
                List<Integer> sessions = sessionsByPass.get(pass);
                int committedIn = step.session() == 1 ? 1 : 2;
                assertThat(sessions)
                        .as("run %d pass %d invocations by session", n, pass)
                        .filteredOn(s -> s == committedIn)
                        .hasSize(1);
                assertThat(sessions)
                        .as("run %d pass %d invoked after it was committed", n, pass)
                        .allMatch(s -> s <= committedIn);
                committedByChild += committedIn == 1 ? 1 : 0;
            }
        }
        return committedByChild > 0 && committedByChild < CrashPlan.PASSES;
    }
}
