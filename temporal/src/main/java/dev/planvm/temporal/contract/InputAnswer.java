package dev.planvm.temporal.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * The answer to a {@code human_input} call a plan workflow waits for, as its {@code answer} update carries it.
 *
 * @param seqNo the {@code seq_no} of the waiting call, or {@code null} for the only one waiting
 * @param value the answer: it must fit the input's {@code schema} or be one of its {@code choices}
 */
public record InputAnswer(Integer seqNo, JsonNode value) {
    public InputAnswer {
        Objects.requireNonNull(value, "value");
    }
}
