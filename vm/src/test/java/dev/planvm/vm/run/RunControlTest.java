package dev.planvm.vm.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Stopping a run from outside: the first request wins, and a blank reason gets a default. */
class RunControlTest {

    @Test
    void nothing_is_requested_until_a_stop_is_asked_for() {
        assertThat(new RunControl().requested()).isEmpty();
    }

    @Test
    void the_first_request_wins() {
        RunControl control = new RunControl();
        control.cancel("user pressed stop");
        control.interrupt("server shutting down");
        control.cancel("again");
        assertThat(control.requested()).contains(new RunControl.Stop(true, "user pressed stop"));

        RunControl other = new RunControl();
        other.interrupt("server shutting down");
        other.cancel("user pressed stop");
        other.interrupt("again");
        assertThat(other.requested()).contains(new RunControl.Stop(false, "server shutting down"));
    }

    @Test
    void a_missing_or_blank_reason_gets_a_default() {
        RunControl cancelled = new RunControl();
        cancelled.cancel(" ");
        assertThat(cancelled.requested()).contains(new RunControl.Stop(true, "no reason given"));
        RunControl cancelledWithNull = new RunControl();
        cancelledWithNull.cancel(null);
        assertThat(cancelledWithNull.requested()).contains(new RunControl.Stop(true, "no reason given"));
        RunControl interrupted = new RunControl();
        interrupted.interrupt("");
        assertThat(interrupted.requested()).contains(new RunControl.Stop(false, "interrupted"));
        RunControl interruptedWithNull = new RunControl();
        interruptedWithNull.interrupt(null);
        assertThat(interruptedWithNull.requested()).contains(new RunControl.Stop(false, "interrupted"));
    }
}
