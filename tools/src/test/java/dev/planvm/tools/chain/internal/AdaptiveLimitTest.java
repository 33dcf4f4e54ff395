package dev.planvm.tools.chain.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.tools.chain.internal.AdaptiveLimit.Signal;
import org.junit.jupiter.api.Test;

/** What moves a tool's adaptive concurrency limit, sample by sample, on a clock of the test's own. */
class AdaptiveLimitTest {

    private static final long MS = 1_000_000;

    @Test
    void a_storm_of_refusals_at_first_contact_settles_on_what_the_service_served_not_on_one() {
        AdaptiveLimit limit = new AdaptiveLimit(200, 1000);
        // 100 calls in flight; the service serves 10 and refuses the other 90, which come back one by one
        int inFlight = 100;
        for (int refused = 0; refused < 90; refused++) {
            limit.sample(Signal.OVERLOADED, 0, 5 * MS, 100, inFlight);
            inFlight--;
        }
        assertThat(limit.limit()).isEqualTo(10);
        assertThat(limit.cause()).isEqualTo("overloaded");
    }

    @Test
    void a_refusal_from_a_call_started_before_the_last_cut_cuts_no_further_when_more_are_in_flight_than_the_limit() {
        AdaptiveLimit limit = new AdaptiveLimit(50, 1000);
        limit.sample(Signal.OVERLOADED, 0, 10 * MS, 50, 20);
        assertThat(limit.limit()).isEqualTo(19);
        limit.sample(Signal.OVERLOADED, 1 * MS, 11 * MS, 50, 40); // started before the cut, 40 still in flight
        assertThat(limit.limit()).isEqualTo(19);
        limit.sample(Signal.OVERLOADED, 12 * MS, 20 * MS, 19, 30); // started after it
        assertThat(limit.limit()).isEqualTo(18);
    }

    @Test
    void steady_answers_grow_the_limit_by_one_each_before_any_overload_and_never_past_the_maximum() {
        AdaptiveLimit limit = new AdaptiveLimit(4, 6);
        for (int i = 0; i < 10; i++) {
            limit.sample(Signal.ANSWERED, i * MS, i * MS + 200 * MS, 4, 4);
        }
        assertThat(limit.limit()).isEqualTo(6);
        assertThat(limit.cause()).isEqualTo("growth");
    }

    @Test
    void answers_of_an_idle_tool_teach_nothing() {
        AdaptiveLimit limit = new AdaptiveLimit(20, 100);
        for (int i = 0; i < 50; i++) {
            limit.sample(Signal.ANSWERED, i * MS, i * MS + 200 * MS, 3, 3); // 3 of 20 in use
        }
        assertThat(limit.limit()).isEqualTo(20);
    }

    @Test
    void after_an_overload_the_limit_holds_for_a_quiet_period_then_grows_one_per_round_trip() {
        AdaptiveLimit limit = new AdaptiveLimit(10, 100);
        limit.sample(Signal.OVERLOADED, 0, 1 * MS, 10, 9); // 8 others in flight were served
        assertThat(limit.limit()).isEqualTo(8);
        long t = 2 * MS;
        for (; t < 4_900 * MS; t += 20 * MS) { // answers in steady time within the quiet five seconds
            limit.sample(Signal.ANSWERED, t - 200 * MS, t, 8, 8);
        }
        assertThat(limit.limit())
                .as("quiet for five seconds after the overload")
                .isEqualTo(8);
        for (t = 5_100 * MS; t < 5_100 * MS + 9 * 25 * MS; t += 25 * MS) { // 9 answers: about a round trip
            limit.sample(Signal.ANSWERED, t - 200 * MS, t, 8, 8);
        }
        assertThat(limit.limit())
                .as("one more per round trip (+1/limit per answer)")
                .isEqualTo(9);
    }

    @Test
    void a_timeout_halves_the_limit_once_per_window() {
        AdaptiveLimit limit = new AdaptiveLimit(40, 100);
        limit.sample(Signal.TIMED_OUT, 0, 30_000 * MS, 40, 40);
        assertThat(limit.limit()).isEqualTo(20);
        limit.sample(Signal.TIMED_OUT, 1 * MS, 30_001 * MS, 40, 39); // started before the cut
        assertThat(limit.limit()).isEqualTo(20);
        assertThat(limit.cause()).isEqualTo("timeout");
    }

    @Test
    void answers_slowing_to_well_past_their_usual_time_shrink_the_limit_by_a_tenth() {
        AdaptiveLimit limit = new AdaptiveLimit(100, 100);
        long t = 0;
        for (int i = 0; i < 200; i++, t += MS) {
            limit.sample(Signal.ANSWERED, t, t + 100 * MS, 100, 100);
        }
        assertThat(limit.limit()).isEqualTo(100);
        for (int i = 0; i < 20 && limit.limit() == 100; i++, t += MS) {
            limit.sample(Signal.ANSWERED, t, t + 1_000 * MS, 100, 100);
        }
        assertThat(limit.limit()).isEqualTo(90);
        assertThat(limit.cause()).isEqualTo("latency");
    }

    @Test
    void other_failures_say_nothing_about_load() {
        AdaptiveLimit limit = new AdaptiveLimit(30, 100);
        for (int i = 0; i < 10; i++) {
            limit.sample(Signal.OTHER, 0, MS, 30, 30);
        }
        assertThat(limit.limit()).isEqualTo(30);
    }
}
