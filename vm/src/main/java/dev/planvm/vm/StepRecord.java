package dev.planvm.vm;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What one executed step did, as listeners and the trace see it.
 *
 * @param seqNo          the instruction's {@code seq_no}
 * @param type           the instruction type
 * @param offsetNanos    when the step started, in nanoseconds since the run started
 * @param durationNanos  how long it took
 * @param inputs         resolved inputs (interpolated params, condition, ...)
 * @param writes         variables written, name to value
 * @param jumpTo         the {@code seq_no} jumped to, or {@code null} when execution went on in order
 * @param explanation    why a condition went the way it did, or {@code null}
 * @param error          the failure message, or {@code null} when the step succeeded
 */
public record StepRecord(int seqNo, String type, long offsetNanos, long durationNanos, ObjectNode inputs,
                         ObjectNode writes, Integer jumpTo, String explanation, String error) {
}
