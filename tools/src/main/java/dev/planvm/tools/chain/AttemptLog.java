package dev.planvm.tools.chain;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Collects the failed attempts of one run's calls, so that the step that made a call can put them
 * in its trace entry ({@code "attempts"}). Keyed by the call (calls are values: the call a step
 * makes at its turn equals the one started for it ahead of its turn). Thread-safe: calls may run on
 * other threads. Costs nothing until an attempt fails.
 */
public final class AttemptLog implements CallListener {

    private final Map<Call, List<FailedAttempt>> attempts = new ConcurrentHashMap<>();

    @Override
    public void attemptFailed(Call call, FailedAttempt attempt) {
        attempts.compute(call, (c, list) -> {
            List<FailedAttempt> updated = list == null ? new ArrayList<>() : list;
            updated.add(attempt);
            return updated;
        });
    }

    /** Removes and returns the failed attempts of {@code call}, in order; empty when none failed. */
    public List<FailedAttempt> take(Call call) {
        if (attempts.isEmpty()) {
            return List.of();
        }
        List<FailedAttempt> taken = attempts.remove(call);
        return taken == null ? List.of() : List.copyOf(taken);
    }
}
