package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A call of a stored run that needed a reviewer's approval, and what was decided.
 *
 * @param stepIndex   the index of the step that makes the call (its committed predecessors + 1)
 * @param params      the call's interpolated params, secrets redacted
 * @param decision    {@code null} while nobody has decided, else {@code approved} or {@code denied}
 * @param reason      the reviewer's reason, or {@code null}
 * @param decidedAt   when it was decided, or {@code null}
 */
public record StoredApproval(
        int stepIndex,
        int seqNo,
        String tool,
        JsonNode params,
        String requestedAt,
        String decision,
        String reason,
        String decidedAt) {
    public StoredApproval {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(params, "params");
    }

    /** Whether nobody has decided yet. */
    public boolean pending() {
        return decision == null;
    }
}
