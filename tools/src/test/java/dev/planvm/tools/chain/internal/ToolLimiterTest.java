package dev.planvm.tools.chain.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The slots of one tool, shared by every run of a VM: bounded, and handed out fairly between run trees. */
class ToolLimiterTest {

    /** Starts a thread that waits for a slot as {@code owner}, then notes it in {@code order} and keeps it. */
    private static Thread waiter(
            ToolLimiter limiter, Object owner, String name, List<String> order, List<ToolLimiter.Permit> held) {
        Thread thread = new Thread(() -> {
            try {
                held.add(limiter.acquire(owner));
                order.add(name);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void awaitWaiting(ToolLimiter limiter, int waiting) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (limiter.state()[2] < waiting) {
            assertThat(System.nanoTime()).as("not hung").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Test
    void a_free_slot_goes_to_the_run_holding_fewest_so_a_queued_map_cannot_starve_another_runs_call() throws Exception {
        ToolLimiter limiter = ToolLimiter.fixed("search", 2, System::nanoTime);
        Object wide = new Object();
        Object other = new Object();
        ToolLimiter.Permit a = limiter.acquire(wide);
        ToolLimiter.Permit b = limiter.acquire(wide);
        List<String> order = new CopyOnWriteArrayList<>();
        List<ToolLimiter.Permit> held = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 5; i++) {
            waiter(limiter, wide, "wide-" + i, order, held);
            awaitWaiting(limiter, i + 1); // one by one: they queue in this order
        }
        waiter(limiter, other, "other", order, held);
        awaitWaiting(limiter, 6);

        a.release(AdaptiveLimit.Signal.ANSWERED);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (order.isEmpty()) {
            assertThat(System.nanoTime()).as("not hung").isLessThan(deadline);
            Thread.sleep(5);
        }
        assertThat(order).as("the other run came last but holds none").containsExactly("other");
        b.release(AdaptiveLimit.Signal.ANSWERED);
        while (order.size() < 2) {
            assertThat(System.nanoTime()).as("not hung").isLessThan(deadline);
            Thread.sleep(5);
        }
        assertThat(order).containsExactly("other", "wide-0");
        assertThat(limiter.state()[1]).as("in flight").isEqualTo(2);
        held.forEach(p -> p.release(AdaptiveLimit.Signal.ANSWERED));
    }

    @Test
    void a_waiter_interrupted_holds_no_slot_and_a_permit_released_twice_frees_one() throws Exception {
        ToolLimiter limiter = ToolLimiter.fixed("t", 1, System::nanoTime);
        ToolLimiter.Permit first = limiter.acquire("run");
        CountDownLatch done = new CountDownLatch(1);
        Thread waiting = new Thread(() -> {
            try {
                limiter.acquire("run");
            } catch (InterruptedException expected) {
                done.countDown();
            }
        });
        waiting.start();
        awaitWaiting(limiter, 1);
        waiting.interrupt();
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(limiter.state()[2]).as("waiting").isZero();
        first.release(AdaptiveLimit.Signal.ANSWERED);
        first.release(AdaptiveLimit.Signal.ANSWERED);
        assertThat(limiter.state()[1]).as("in flight").isZero();
        ToolLimiter.Permit again = limiter.acquire("run");
        assertThat(again.waitedNanos()).isZero();
    }

    @Test
    void an_adaptive_limiter_reports_the_new_limit_when_an_outcome_moves_it() throws Exception {
        ToolLimiter limiter = ToolLimiter.adaptive("svc", new AdaptiveLimit(8, 100), System::nanoTime);
        ToolLimiter.Permit[] permits = new ToolLimiter.Permit[4];
        for (int i = 0; i < 4; i++) {
            permits[i] = limiter.acquire("run");
        }
        assertThat(permits[0].limitAtStart()).isEqualTo(8);
        assertThat(permits[0].release(AdaptiveLimit.Signal.OVERLOADED))
                .as("3 others were served")
                .isEqualTo(3);
        assertThat(limiter.cause()).isEqualTo("overloaded");
        assertThat(permits[1].release(AdaptiveLimit.Signal.OTHER))
                .as("unchanged")
                .isEqualTo(-1);
        assertThat(limiter.state()[3]).as("refused for load").isEqualTo(1);
    }
}
