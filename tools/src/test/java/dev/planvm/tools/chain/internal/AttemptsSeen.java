package dev.planvm.tools.chain.internal;

import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallListener;
import dev.planvm.tools.call.FailedAttempt;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A test listener: the failed attempts the chain told its listeners about, per call. */
final class AttemptsSeen implements CallListener {

    private final Map<Call, List<FailedAttempt>> attempts = new ConcurrentHashMap<>();

    @Override
    public void attemptFailed(Call call, FailedAttempt attempt) {
        attempts.computeIfAbsent(call, c -> new ArrayList<>()).add(attempt);
    }

    /** Removes and returns the attempts seen for {@code call}. */
    List<FailedAttempt> take(Call call) {
        List<FailedAttempt> taken = attempts.remove(call);
        return taken == null ? List.of() : taken;
    }
}
