package dev.planvm.vm.durable;

import java.util.Objects;

/**
 * One element of a stored run's {@code for_each} step that answered and was committed on its own (a resumed map
 * does not call it again).
 *
 * @param stepIndex   the index of the step that maps (its committed predecessors + 1): the step may not be
 *                    committed yet, when the run stopped in the middle of the map
 * @param position    the element's index in the list, from 0
 * @param tool        the tool the element called
 * @param session     which session of the run committed it
 * @param committedAt when it was committed
 */
public record StoredElement(int stepIndex, int seqNo, int position, String tool, int session, String committedAt) {
    public StoredElement {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(committedAt, "committedAt");
    }
}
