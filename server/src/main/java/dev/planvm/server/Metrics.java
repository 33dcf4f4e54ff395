package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.StepRecord;
import dev.planvm.vm.run.ToolLimit;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server's figures in the Prometheus text format ({@code GET /metrics}): runs by how they ended,
 * active runs, stored runs by status, committed steps, call latency histograms by tool, calls in flight,
 * latency histograms of runs, of steps by type and of tool calls by tool, each tool's concurrency limit (where
 * it stands, calls waiting, attempts throttled, waits for a slot), HTTP answers by status. A run
 * and call listener shared by every run (thread-safe). At most {@value #MAX_TOOLS} label values per series:
 * calls of further tools (a cassette may name any) count as {@code other}.
 */
public final class Metrics implements RunListener {

    static final int MAX_TOOLS = 200;

    private final Map<String, LongAdder> runs = new ConcurrentHashMap<>();
    private final LongAdder steps = new LongAdder();
    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicLong active = new AtomicLong();
    private final Map<String, LatencyHistogram> calls = new ConcurrentHashMap<>();
    private final LatencyHistogram runDurations = new LatencyHistogram(LatencyHistogram.RUN_BOUNDS);
    private final Map<String, LatencyHistogram> stepDurations = new ConcurrentHashMap<>();
    private final Map<String, LatencyHistogram> toolCalls = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final Map<Integer, LongAdder> http = new ConcurrentHashMap<>();

    @Override
    public void stepFinished(StepRecord step) {
        if (!step.failed() || step.recovered()) {
            steps.increment();
        }
        bounded(stepDurations, step.type(), LatencyHistogram.CALL_BOUNDS).observe(step.durationNanos());
    }

    @Override
    public void runFinished(RunResult result) {
        runs.computeIfAbsent(result.status().label(), s -> new LongAdder()).increment();
        if (result.duration() != null) {
            runDurations.observe(result.duration().toNanos());
        }
    }

    @Override
    public void callStarted(Call call) {
        inFlight.incrementAndGet();
    }

    @Override
    public void callFinished(Call call, JsonNode output, long durationNanos) {
        inFlight.decrementAndGet();
        histogram(label(call)).observe(durationNanos);
        toolCall(call, durationNanos);
    }

    @Override
    public void callFailed(Call call, ToolException failure, long durationNanos) {
        inFlight.decrementAndGet();
        String tool = label(call);
        histogram(tool).observe(durationNanos);
        toolCall(call, durationNanos);
        failures.computeIfAbsent(tool, t -> new LongAdder()).increment();
    }

    /** A tool call (not an LLM condition) took {@code nanos}, retries included. */
    private void toolCall(Call call, long nanos) {
        if (call instanceof Call.ToolCall tool) {
            bounded(toolCalls, tool.tool(), LatencyHistogram.CALL_BOUNDS).observe(nanos);
        }
    }

    /** The histogram of {@code label} in {@code series}, or of {@code other} past {@value #MAX_TOOLS} labels. */
    private static LatencyHistogram bounded(Map<String, LatencyHistogram> series, String label, double[] bounds) {
        LatencyHistogram existing = series.get(label);
        if (existing != null) {
            return existing;
        }
        return series.computeIfAbsent(series.size() >= MAX_TOOLS ? "other" : label, l -> new LatencyHistogram(bounds));
    }

    /** A run started or ended executing in this server. */
    void active(int delta) {
        active.addAndGet(delta);
    }

    /** The server answered an HTTP request with {@code status}. */
    public void answered(int status) {
        http.computeIfAbsent(status, s -> new LongAdder()).increment();
    }

    private LatencyHistogram histogram(String tool) {
        return bounded(calls, tool, LatencyHistogram.CALL_BOUNDS);
    }

    private String label(Call call) {
        String tool = call instanceof Call.ToolCall t ? t.tool() : "(condition)";
        return calls.containsKey(tool) || calls.size() < MAX_TOOLS ? tool : "other";
    }

    /** The figures as Prometheus text; {@code stored} are the store's counts by status label. */
    public String text(Map<String, Integer> stored) {
        return text(stored, Map.of());
    }

    /**
     * The figures as Prometheus text; {@code stored} are the store's counts by status label, {@code limits} the
     * VM's tool concurrency limits ({@code PlanVm.toolLimits()}).
     */
    public String text(Map<String, Integer> stored, Map<String, ToolLimit> limits) {
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
        new TreeMap<>(calls)
                .forEach((tool, h) -> h.write(out, "planvm_call_duration_seconds", "tool=\"" + escape(tool) + "\""));
        header(out, "planvm_call_failures_total", "counter", "Calls that failed after their last attempt, by tool.");
        new TreeMap<>(failures)
                .forEach((tool, n) -> out.append("planvm_call_failures_total{tool=\"")
                        .append(escape(tool))
                        .append("\"} ")
                        .append(n.sum())
                        .append('\n'));
        header(out, "planvm_run_duration_seconds", "histogram", "Runs of this server, start (or resume) to end.");
        runDurations.write(out, "planvm_run_duration_seconds", "");
        header(out, "planvm_step_duration_seconds", "histogram", "Steps of this server's runs, by instruction type.");
        new TreeMap<>(stepDurations)
                .forEach((type, h) -> h.write(out, "planvm_step_duration_seconds", "type=\"" + escape(type) + "\""));
        header(
                out,
                "planvm_tool_call_duration_seconds",
                "histogram",
                "Tool calls (not LLM conditions) through the call chain, retries included, by tool.");
        new TreeMap<>(toolCalls)
                .forEach((tool, h) ->
                        h.write(out, "planvm_tool_call_duration_seconds", "tool=\"" + escape(tool) + "\""));
        toolLimits(out, limits);
        header(out, "planvm_http_responses_total", "counter", "HTTP answers of this server, by status code.");
        new TreeMap<>(http)
                .forEach((code, n) -> out.append("planvm_http_responses_total{code=\"")
                        .append(code)
                        .append("\"} ")
                        .append(n.sum())
                        .append('\n'));
        return out.toString();
    }

    /** Each tool's concurrency limit: where it stands, calls waiting for a slot, throttled calls, waits. */
    private static void toolLimits(StringBuilder out, Map<String, ToolLimit> limits) {
        Map<String, ToolLimit> shown = new TreeMap<>();
        limits.values().stream().limit(MAX_TOOLS).forEach(limit -> shown.put(limit.tool(), limit));
        header(
                out,
                "planvm_tool_concurrency_limit",
                "gauge",
                "Calls of the tool that may be in flight now, across all runs (its adaptive limit, or its fixed one).");
        shown.forEach((tool, l) -> series(out, "planvm_tool_concurrency_limit", tool, l.limit()));
        header(out, "planvm_tool_calls_waiting", "gauge", "Calls of the tool waiting for a slot of its limit now.");
        shown.forEach((tool, l) -> series(out, "planvm_tool_calls_waiting", tool, l.waiting()));
        header(
                out,
                "planvm_tool_throttled_total",
                "counter",
                "Attempts the tool refused for load (HTTP 429 or 503, Retry-After); each shrinks its limit.");
        shown.forEach((tool, l) -> series(out, "planvm_tool_throttled_total", tool, l.overloaded()));
        header(
                out,
                "planvm_tool_slot_waits_total",
                "counter",
                "Attempts that waited for a slot of the tool's limit before they could start.");
        shown.forEach((tool, l) -> series(out, "planvm_tool_slot_waits_total", tool, l.waited()));
    }

    private static void series(StringBuilder out, String name, String tool, long value) {
        out.append(name)
                .append("{tool=\"")
                .append(escape(tool))
                .append("\"} ")
                .append(value)
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
