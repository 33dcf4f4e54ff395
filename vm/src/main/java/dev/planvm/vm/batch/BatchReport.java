package dev.planvm.vm.batch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.TerminalText;
import dev.planvm.vm.run.RunStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What a batch produced: its outcomes (in input order) and how long it took, as JSON Lines and as
 * a short human summary.
 *
 * @param outcomes one per plan, in input order
 * @param wallTime from the first plan started to the last one finished
 */
public record BatchReport(List<PlanOutcome> outcomes, Duration wallTime) {

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);

    /** How many plans the summary lists as the slowest. */
    public static final int SLOWEST = 5;

    public BatchReport {
        outcomes = List.copyOf(outcomes);
        Objects.requireNonNull(wallTime, "wallTime");
    }

    /** Whether every plan succeeded. */
    public boolean allSucceeded() {
        return outcomes.stream().allMatch(PlanOutcome::succeeded);
    }

    /** Whether every plan succeeded with no step failing on the way (a batch that keeps going exits 1 otherwise). */
    public boolean allClean() {
        return outcomes.stream().allMatch(PlanOutcome::clean);
    }

    /** How many plans completed past steps that failed (a batch that keeps going): completed_with_failures. */
    public int keptGoing() {
        return (int) outcomes.stream()
                .filter(o -> o.status() == RunStatus.COMPLETED_WITH_FAILURES)
                .count();
    }

    /** How many plans ended in each status (every status present, zero included), in declaration order. */
    public Map<RunStatus, Integer> counts() {
        Map<RunStatus, Integer> counts = new EnumMap<>(RunStatus.class);
        for (RunStatus status : PlanOutcome.STATUSES) {
            counts.put(status, 0);
        }
        outcomes.forEach(outcome -> counts.merge(outcome.status(), 1, Integer::sum));
        return counts;
    }

    /** The {@code n} plans that took longest, longest first (ties in input order). */
    public List<PlanOutcome> slowest(int n) {
        List<PlanOutcome> sorted = new ArrayList<>(outcomes);
        sorted.sort(Comparator.comparingLong(PlanOutcome::durationMs).reversed());
        return List.copyOf(sorted.subList(0, Math.min(n, sorted.size())));
    }

    /** Plans finished per second of wall time. */
    public double throughput() {
        return outcomes.size() / (Math.max(1, wallTime.toNanos()) / 1e9);
    }

    /**
     * Two lines: {@code batch: 12 plans in 1.3 s (9.2 plans/s): 10 succeeded, 1 failed, 1 invalid}
     * (statuses with no plan left out; a plan that kept going past failed steps counts as
     * {@code completed_with_failures}
     * going) and {@code slowest: a.json 812 ms, ...}.
     */
    public String summary() {
        String counts = counts().entrySet().stream()
                .filter(e -> e.getValue() > 0)
                .map(e -> e.getValue() + " " + e.getKey().label())
                .collect(Collectors.joining(", "));
        String slowest = slowest(SLOWEST).stream()
                .map(o -> o.file() + " " + o.durationMs() + " ms")
                .collect(Collectors.joining(", "));
        return String.format(
                Locale.ROOT,
                "batch: %d plan%s in %s (%.1f plans/s): %s%nslowest: %s",
                outcomes.size(),
                outcomes.size() == 1 ? "" : "s",
                formatWallTime(),
                throughput(),
                counts,
                slowest);
    }

    /** Every outcome as one JSON object per line, each line ending with a newline. */
    public String jsonLines() {
        StringBuilder lines = new StringBuilder();
        outcomes.forEach(outcome -> lines.append(jsonLine(outcome)).append('\n'));
        return lines.toString();
    }

    /**
     * One outcome as compact JSON: {@code file}, {@code status} ({@code succeeded}, {@code failed},
     * {@code invalid}, {@code rejected}), {@code final_answer}, {@code use} ({@code true} when the plan ended in
     * seed 001's {@code use}: the answer goes back to the LLM that wrote it; absent otherwise), {@code error} (or null),
     * {@code duration_ms}, {@code steps}, and {@code failed_steps} ({@code [{"seq_no", "type", "tool", "kind",
     * "message"}]}) when steps failed and the run went on; characters that could drive a terminal are escaped
     * ({@link TerminalText#JSON}), so the line is safe to print and means the same.
     */
    public static String jsonLine(PlanOutcome outcome) {
        ObjectNode line = MAPPER.createObjectNode()
                .put("file", outcome.file().toString())
                .put("status", outcome.status().label());
        line.set("final_answer", outcome.finalAnswer());
        if (outcome.use()) {
            line.put("use", true);
        }
        line.put("error", outcome.error())
                .put("duration_ms", outcome.durationMs())
                .put("steps", outcome.steps());
        if (!outcome.failedSteps().isEmpty()) {
            outcome.failedSteps()
                    .forEach(failed -> line.withArray("failed_steps").add(failed.toJson()));
        }
        try {
            return TerminalText.JSON.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a batch line cannot be written: " + e.getOriginalMessage(), e);
        }
    }

    private String formatWallTime() {
        long millis = wallTime.toMillis();
        return millis < 1000 ? millis + " ms" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
