package dev.planvm.tools.chain.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.approval.InputRequest;
import dev.planvm.tools.approval.InputRequired;
import dev.planvm.tools.approval.SleepRequest;
import dev.planvm.tools.approval.SleepRequired;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Right after the run mode's link (so a recording keeps what it answers, and a replay or dry run never
 * reaches it): the built-in {@code human_input} and {@code sleep} tools of one run, answered through the
 * run's {@link Approvals}.
 *
 * <p>{@code human_input}: the answer {@link Approvals#answer} knows, checked against the request (a wrong one
 * fails the call); none yet: {@link InputRequired} when the run can wait for it ({@link Approvals#waitsForInput}), else a
 * non-retriable failure {@code human_input needs a durable run or a terminal}.
 *
 * <p>{@code sleep}: waits until the wake time {@link Approvals#wakeAt} keeps (a resumed run sleeps only what is
 * left) and answers {@code {"slept_seconds": n, "woke_at": time}}; in a run that waits for its timer
 * ({@link Approvals#waitsForTimer}) a sleep with time left stops the run instead ({@link SleepRequired}), so that
 * it holds no thread while it sleeps.
 */
public final class PersonLink implements CallInterceptor {

    private final Set<String> handled;
    private final Approvals person;
    private final Clock clock;
    private final Sleeper sleeper;

    /**
     * @param handled which of the built-in names this run's tools mean (a tool of the same name a user
     *                registered is called as any other tool)
     */
    public PersonLink(Set<String> handled, Approvals person, Clock clock, Sleeper sleeper) {
        this.handled = Set.copyOf(handled);
        this.person = Objects.requireNonNull(person, "person");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    @Override
    public JsonNode intercept(Chain chain) {
        if (chain.call() instanceof Call.ToolCall call && handled.contains(call.canonical())) {
            if (call.canonical().equals(InputRequest.TOOL)) {
                return input(call);
            }
            if (call.canonical().equals(SleepRequest.TOOL)) {
                return sleep(call);
            }
        }
        return chain.proceed(chain.call());
    }

    private JsonNode input(Call.ToolCall call) {
        InputRequest request = InputRequest.of(call.params());
        Optional<JsonNode> answer = person.answer(call);
        if (answer.isEmpty()) {
            if (person.waitsForInput()) {
                throw new InputRequired(call, request);
            }
            throw ToolException.permanent(
                    "human_input needs a durable run or a terminal (run with a store, or on a terminal)");
        }
        Optional<String> refusal = request.refusal(answer.get());
        if (refusal.isPresent()) {
            throw ToolException.permanent("human_input: " + refusal.get());
        }
        return answer.get();
    }

    private JsonNode sleep(Call.ToolCall call) {
        SleepRequest request = SleepRequest.of(call.params());
        Instant now = clock.instant();
        Instant wake = person.wakeAt(call, request.wake(now));
        Duration left = Duration.between(clock.instant(), wake);
        if (left.isNegative()) {
            left = Duration.ZERO;
        }
        if (!left.isZero() && person.waitsForTimer()) {
            throw new SleepRequired(call, wake);
        }
        try {
            if (!left.isZero()) {
                sleeper.sleep(left);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new ToolException("interrupted while sleeping", false, interrupted);
        }
        if (person.waitsForTimer()) { // it slept while the run waited: from when it started to its wake time
            Duration slept = Duration.between(person.sleptSince(call, now), wake);
            return SleepRequest.output(slept.isNegative() ? Duration.ZERO : slept, wake);
        }
        return SleepRequest.output(left, wake);
    }
}
