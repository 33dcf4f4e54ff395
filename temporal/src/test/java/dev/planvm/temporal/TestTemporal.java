package dev.planvm.temporal;

import io.temporal.testing.TestWorkflowEnvironment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One in-process Temporal test server (with time skipping) for every test class of this module:
 * it takes seconds to start, so test classes share it and keep apart by task queue.
 */
final class TestTemporal {

    private static final AtomicInteger QUEUES = new AtomicInteger();
    private static TestWorkflowEnvironment environment;

    private TestTemporal() {}

    static synchronized TestWorkflowEnvironment environment() {
        if (environment == null) {
            environment = TestWorkflowEnvironment.newInstance();
            TestWorkflowEnvironment started = environment;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close));
        }
        return environment;
    }

    /** A task queue no other test uses. */
    static String queue(String name) {
        return name + "-" + QUEUES.incrementAndGet();
    }

    /** A client for plans on {@code queue}, on the environment's own client (which lets time skip while it waits). */
    static TemporalPlans plans(String queue) {
        return new TemporalPlans(environment().getWorkflowClient(), queue);
    }
}
