package dev.planvm.temporal.contract;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A {@code human_input} call a plan workflow waits for (its {@code inputs} query lists them).
 *
 * @param seqNo  the call's {@code seq_no}
 * @param params the call's params: {@code prompt}, and {@code schema} or {@code choices} when it has them
 */
public record WaitingInput(int seqNo, JsonNode params) {}
