package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallListener;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.StepRecord;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server's figures in the Prometheus text format ({@code GET /metrics}): runs by how they ended,
 * active runs, stored runs by status, committed steps, call latency histograms by tool, calls in flight,
 * HTTP answers by status. A run and call listener shared by every run (thread-safe). At most
 * {@value #MAX_TOOLS} tool labels: calls of further tools (a cassette may name any) count as {@code other}.
 */
public final class Metrics implements RunListener, CallListener {

    static final int MAX_TOOLS = 200;
    /** Histogram bucket bounds, in seconds. */
    private static final double[] BOUNDS = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};

    private final Map<String, LongAdder> runs = new ConcurrentHashMap<>();
    private final LongAdder steps = new LongAdder();
    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicLong active = new AtomicLong();
    private final Map<String, Histogram> calls = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final Map<Integer, LongAdder> http = new ConcurrentHashMap<>();

    /** One tool's latency histogram. */
    private static final class Histogram {
        final AtomicLongArray buckets = new AtomicLongArray(BOUNDS.length + 1);
        final LongAdder count = new LongAdder();
        final LongAdder sumMicros = new LongAdder();

        void observe(long nanos) {
            double seconds = nanos / 1e9;
            int i = 0;
            while (i < BOUNDS.length && seconds > BOUNDS[i]) {
                i++;
            }
            buckets.incrementAndGet(i);
            count.increment();
            sumMicros.add(nanos / 1_000);
        }
    }

    @Override
    public void stepFinished(StepRecord step) {
        if (!step.failed() || step.recovered()) {
            steps.increment();
        }
    }

    @Override
    public void runFinished(RunResult result) {
        runs.computeIfAbsent(result.status().label(), s -> new LongAdder()).increment();
    }

    @Override
    public void callStarted(Call call) {
        inFlight.incrementAndGet();
    }

    @Override
    public void callFinished(Call call, JsonNode output, long durationNanos) {
        inFlight.decrementAndGet();
        histogram(label(call)).observe(durationNanos);
    }

    @Override
    public void callFailed(Call call, ToolException failure, long durationNanos) {
        inFlight.decrementAndGet();
        String tool = label(call);
        histogram(tool).observe(durationNanos);
        failures.computeIfAbsent(tool, t -> new LongAdder()).increment();
    }

    /** A run started or ended executing in this server. */
    void active(int delta) {
        active.addAndGet(delta);
    }

    /** The server answered an HTTP request with {@code status}. */
    public void answered(int status) {
        http.computeIfAbsent(status, s -> new LongAdder()).increment();
    }

    private Histogram histogram(String tool) {
        Histogram existing = calls.get(tool);
        if (existing != null) {
            return existing;
        }
        return calls.computeIfAbsent(calls.size() >= MAX_TOOLS ? "other" : tool, t -> new Histogram());
    }

    private String label(Call call) {
        String tool = call instanceof Call.ToolCall t ? t.tool() : "(condition)";
        return calls.containsKey(tool) || calls.size() < MAX_TOOLS ? tool : "other";
    }

    /** The figures as Prometheus text; {@code stored} are the store's counts by status label. */
    public String text(Map<String, Integer> stored) {
        StringBuilder out = new StringBuilder(2048);
        header(out, "planvm_runs_total", "counter", "Runs this server ended, by how they ended.");
        new TreeMap<>(runs)
                .forEach((status, n) -> out.append("planvm_runs_total{status=\"")
                        .append(escape(status))
                        .append("\"} ")
                        .append(n.sum())
                        .append('\n'));
        header(out, "planvm_runs_active", "gauge", "Runs executing in this server now.");
        out.append("planvm_runs_active ").append(active.get()).append('\n');
        header(
                out,
                "planvm_runs_stored",
                "gauge",
                "Runs in the run store, by stored status (running includes interrupted).");
        new TreeMap<>(stored)
                .forEach((status, n) -> out.append("planvm_runs_stored{status=\"")
                        .append(escape(status))
                        .append("\"} ")
                        .append(n)
                        .append('\n'));
        header(out, "planvm_steps_total", "counter", "Steps committed by this server's runs.");
        out.append("planvm_steps_total ").append(steps.sum()).append('\n');
        header(out, "planvm_calls_in_flight", "gauge", "Tool calls and LLM conditions running now.");
        out.append("planvm_calls_in_flight ").append(inFlight.get()).append('\n');
        header(
                out,
                "planvm_call_duration_seconds",
                "histogram",
                "Calls through the call chain (retries included), by tool.");
        new TreeMap<>(calls).forEach((tool, h) -> histogramLines(out, escape(tool), h));
        header(out, "planvm_call_failures_total", "counter", "Calls that failed after their last attempt, by tool.");
        new TreeMap<>(failures)
                .forEach((tool, n) -> out.append("planvm_call_failures_total{tool=\"")
                        .append(escape(tool))
                        .append("\"} ")
                        .append(n.sum())
                        .append('\n'));
        header(out, "planvm_http_responses_total", "counter", "HTTP answers of this server, by status code.");
        new TreeMap<>(http)
                .forEach((code, n) -> out.append("planvm_http_responses_total{code=\"")
                        .append(code)
                        .append("\"} ")
                        .append(n.sum())
                        .append('\n'));
        return out.toString();
    }

    private static void histogramLines(StringBuilder out, String tool, Histogram h) {
        long cumulative = 0;
        for (int i = 0; i <= BOUNDS.length; i++) {
            cumulative += h.buckets.get(i);
            String le = i == BOUNDS.length ? "+Inf" : String.format(Locale.ROOT, "%s", BOUNDS[i]);
            out.append("planvm_call_duration_seconds_bucket{tool=\"")
                    .append(tool)
                    .append("\",le=\"")
                    .append(le)
                    .append("\"} ")
                    .append(cumulative)
                    .append('\n');
        }
        out.append("planvm_call_duration_seconds_sum{tool=\"")
                .append(tool)
                .append("\"} ")
                .append(String.format(Locale.ROOT, "%.6f", h.sumMicros.sum() / 1e6))
                .append('\n');
        out.append("planvm_call_duration_seconds_count{tool=\"")
                .append(tool)
                .append("\"} ")
                .append(h.count.sum())
                .append('\n');
    }

    private static void header(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    /** A label value as the text format wants it: backslash, double quote and newline escaped. */
    static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
