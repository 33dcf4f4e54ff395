package dev.planvm.vm.store;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One committed step as the store keeps it.
 *
 * @param index        1, 2, ... in execution order
 * @param nextPosition where execution went on after it
 * @param writes       variables it set
 * @param trace        its trace entry
 * @param session      1 for the first process, 2 for the first resume, ...
 */
public record StoredStep(int index, int seqNo, String type, int nextPosition, JsonNode writes, JsonNode trace,
                         int session, String committedAt) {
}
