package dev.planvm.tools.call;

import java.time.Duration;

/** How the retry link waits between attempts; tests replace it with one that does not wait. */
@FunctionalInterface
public interface Sleeper {

    /** Waits for real. */
    Sleeper REAL = duration -> Thread.sleep(duration.toMillis());

    void sleep(Duration duration) throws InterruptedException;
}
