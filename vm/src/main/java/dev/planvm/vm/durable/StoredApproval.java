package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.CallContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A call of a stored run that needed a reviewer's approval, and what was decided. Each element of a {@code for_each}
 * step is a call of its own, asked and decided on its own.
 *
 * @param stepIndex   the index of the step that makes the call (its committed predecessors + 1)
 * @param element     the call's index in its {@code for_each} list, or {@link CallContext#NO_ELEMENT}
 * @param params      the call's interpolated params, secrets redacted
 * @param decision    {@code null} while nobody has decided, else {@code approved} or {@code denied}
 * @param reason      the reviewer's reason, or {@code null}
 * @param decidedAt   when it was decided, or {@code null}
 */
public record StoredApproval(
        int stepIndex,
        int seqNo,
        int element,
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

    /** Whether the call is one element of a {@code for_each} step. */
    public boolean isElement() {
        return element != CallContext.NO_ELEMENT;
    }

    /**
     * The id an approval names this call by, when it is a call of run {@code runId}: 16 hex digits of a SHA-256 over
     * the run, the step, the seq_no, the element of a map (for an element), the tool, the params (as stored) and when
     * it was asked. So it names exactly the call a reviewer saw — not the next one the run may wait for, nor another
     * element of the same map — and cannot be guessed without reading the run. It is not a secret: who may read the
     * run may approve it.
     */
    public String callId(String runId) {
        String text = runId + "\n" + stepIndex + "\n" + seqNo + "\n" + (isElement() ? element + "\n" : "") + tool + "\n"
                + params.toString() + "\n" + requestedAt;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
