package dev.planvm.server;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * One latency histogram of {@code /metrics}: counts per bucket (upper bounds in seconds), the sum and the
 * count, written in the Prometheus text format with cumulative {@code _bucket} lines ending in
 * {@code le="+Inf"}. Thread-safe.
 */
final class LatencyHistogram {

    /** Bounds for calls and steps, in seconds. */
    static final double[] CALL_BOUNDS = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};

    /** Bounds for whole runs, in seconds: runs last longer than their calls. */
    static final double[] RUN_BOUNDS = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800};

    private final double[] bounds;
    private final AtomicLongArray buckets;
    private final LongAdder count = new LongAdder();
    private final LongAdder sumMicros = new LongAdder();

    LatencyHistogram(double[] bounds) {
        this.bounds = bounds;
        this.buckets = new AtomicLongArray(bounds.length + 1);
    }

    void observe(long nanos) {
        double seconds = nanos / 1e9;
        int i = 0;
        while (i < bounds.length && seconds > bounds[i]) {
            i++;
        }
        buckets.incrementAndGet(i);
        count.increment();
        sumMicros.add(nanos / 1_000);
    }

    /**
     * The lines of this histogram.
     *
     * @param labels the series' labels, already escaped ({@code tool="x"}), or empty for none
     */
    void write(StringBuilder out, String name, String labels) {
        String prefix = labels.isEmpty() ? "" : labels + ",";
        String own = labels.isEmpty() ? "" : "{" + labels + "}";
        long cumulative = 0;
        for (int i = 0; i <= bounds.length; i++) {
            cumulative += buckets.get(i);
            String le = i == bounds.length ? "+Inf" : String.format(Locale.ROOT, "%s", bounds[i]);
            out.append(name)
                    .append("_bucket{")
                    .append(prefix)
                    .append("le=\"")
                    .append(le)
                    .append("\"} ")
                    .append(cumulative)
                    .append('\n');
        }
        out.append(name)
                .append("_sum")
                .append(own)
                .append(' ')
                .append(String.format(Locale.ROOT, "%.6f", sumMicros.sum() / 1e6))
                .append('\n');
        out.append(name)
                .append("_count")
                .append(own)
                .append(' ')
                .append(count.sum())
                .append('\n');
    }
}
