package dev.planvm.tools.chain.internal;

/**
 * How many calls of one tool may be in flight, moved by what its calls report, like TCP's congestion
 * window. Not thread-safe: its {@link ToolLimiter} calls it under its lock.
 *
 * <ul>
 *   <li><b>Overloaded</b> (HTTP 429 or 503, or an answer that asks to wait, {@code Retry-After}): the other side
 *       served the calls that were in flight beside this one, so the limit drops to that number at once
 *       ({@code min(limit, inFlight - 1)}, at least 1). A storm of refusals at the first contact thereby
 *       settles on what the service serves at once instead of collapsing to 1, as a cut per refusal would.
 *       After an overload the limit does not grow for a quiet period (twenty calls' time, at least five
 *       seconds): probing above the limit it just learnt costs a refused call (which then waits as the service
 *       asked), and a map of a few rounds should not pay for it.</li>
 *   <li><b>Timed out</b>: the limit halves, at most once per window (only a call that started after the last
 *       cut cuts again).</li>
 *   <li><b>Slower</b>: when the recent latency of answered calls ({@code short}, a fast average) grows past 2.5
 *       times its long average while the tool is busy (after 30 answers at least), the limit shrinks by a tenth,
 *       once per window.</li>
 *   <li><b>Answered in steady time</b> while at least half the limit is in use: the limit grows — by one per
 *       answer (doubling per round trip) until the first overload, by one per round trip after it — up to
 *       the maximum (a hard ceiling: {@code --tool-concurrency}, or the default).</li>
 * </ul>
 *
 * A failure of any other kind (bad params, a 4xx, an error of the tool) says nothing about load: no change.
 */
final class AdaptiveLimit {

    /** What one call's outcome says about the tool's load. */
    enum Signal {
        ANSWERED,
        OVERLOADED,
        TIMED_OUT,
        OTHER
    }

    private static final double FAST = 0.2;
    private static final double SLOW = 0.02;
    /** Answers the latency rule needs before it may cut (a few slow answers on a busy host prove nothing). */
    private static final int LATENCY_SAMPLES = 30;
    /** How much slower than usual recent answers must be for the latency rule to cut. */
    private static final double SLOWER = 2.5;

    private static final long MIN_QUIET_NANOS = 5_000_000_000L;

    private final int max;
    private double limit;
    /** No overload seen yet: grow by one per answer. */
    private boolean slowStart = true;

    private double shortRtt;
    private double longRtt;
    private long answers;
    /** When the limit was last cut (a call that started before does not cut it again). */
    private long lastCut = Long.MIN_VALUE;
    /** Until when the limit does not grow (after an overload), or 0. */
    private long quietUntil;
    /** Why the limit last changed, for the events: {@code overloaded}, {@code timeout}, {@code latency}, {@code growth}. */
    private String cause = "start";

    /**
     * @param initial the limit at the first call (a wide one: a map starts at full width)
     * @param max     the most it ever grows to
     */
    AdaptiveLimit(int initial, int max) {
        if (max < 1) {
            throw new IllegalArgumentException("an adaptive limit needs a maximum of at least 1, not " + max);
        }
        this.max = max;
        this.limit = Math.max(1, Math.min(initial, max));
    }

    int limit() {
        return (int) limit;
    }

    int max() {
        return max;
    }

    /** Why the limit last changed. */
    String cause() {
        return cause;
    }

    /**
     * One call ended.
     *
     * @param startNanos      when it got its slot
     * @param nowNanos        now
     * @param inFlightAtStart calls in flight, itself included, when it got its slot
     * @param inFlightNow     calls in flight now, itself included
     * @return the limit after it
     */
    int sample(Signal signal, long startNanos, long nowNanos, int inFlightAtStart, int inFlightNow) {
        long rtt = Math.max(1, nowNanos - startNanos);
        switch (signal) {
            case OVERLOADED -> {
                slowStart = false;
                int served = Math.max(1, inFlightNow - 1);
                if (served < limit) {
                    set(served, "overloaded");
                    lastCut = nowNanos;
                } else if (startNanos > lastCut && limit > 1) {
                    set(limit - 1, "overloaded"); // more in flight than the limit: it was just cut, by others
                    lastCut = nowNanos;
                }
                quietUntil = nowNanos + Math.max(MIN_QUIET_NANOS, (long) (20 * longRtt));
            }
            case TIMED_OUT -> {
                slowStart = false;
                if (startNanos > lastCut) {
                    set(Math.max(1, limit / 2), "timeout");
                    lastCut = nowNanos;
                }
            }
            case ANSWERED -> answered(rtt, startNanos, nowNanos, inFlightAtStart);
            case OTHER -> {}
        }
        return limit();
    }

    private void answered(long rtt, long startNanos, long nowNanos, int inFlightAtStart) {
        answers++;
        if (longRtt == 0) {
            shortRtt = rtt;
            longRtt = rtt;
        } else {
            shortRtt += FAST * (rtt - shortRtt);
            longRtt += SLOW * (rtt - longRtt);
        }
        boolean busy = inFlightAtStart * 2 >= limit;
        if (!busy) {
            return; // the tool is not what holds the calls back: nothing learnt
        }
        if (answers >= LATENCY_SAMPLES && shortRtt > SLOWER * longRtt && startNanos > lastCut && limit > 1) {
            set(Math.max(1, limit * 0.9), "latency");
            lastCut = nowNanos;
            return;
        }
        if (nowNanos < quietUntil || limit >= max) {
            return;
        }
        set(Math.min(max, slowStart ? limit + 1 : limit + 1 / limit), "growth");
    }

    private void set(double value, String why) {
        if ((int) value != (int) limit) {
            cause = why;
        }
        limit = value;
    }
}
