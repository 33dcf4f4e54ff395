package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * What an expression is evaluated against: read access to variables (null when a variable is
 * unset) and the run's clock, which the date/time helpers read. A view that reads through to other
 * variables ({@link #over}) must keep their clock.
 */
@FunctionalInterface
public interface Variables {

    /** The value of {@code name}, or null when it is unset. */
    JsonNode get(String name);

    /**
     * The run's clock; none by default, and then the date/time helpers ({@code today},
     * {@code next(...)}, ...) fail with a sentence saying so.
     */
    default Optional<RunClock> clock() {
        return Optional.empty();
    }

    /** Variables read through {@code lookup}, with {@code clock} (null for none). */
    static Variables of(Function<String, JsonNode> lookup, RunClock clock) {
        Objects.requireNonNull(lookup, "lookup");
        Optional<RunClock> known = Optional.ofNullable(clock);
        return new Variables() {
            @Override
            public JsonNode get(String name) {
                return lookup.apply(name);
            }

            @Override
            public Optional<RunClock> clock() {
                return known;
            }
        };
    }

    /** A view that reads {@code lookup} and has {@code base}'s clock (e.g. later values over earlier ones). */
    static Variables over(Variables base, Function<String, JsonNode> lookup) {
        return of(lookup, base.clock().orElse(null));
    }
}
