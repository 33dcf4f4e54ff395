package dev.planvm.temporal.internal;

import io.temporal.workflow.Workflow;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The clock a plan's run takes in its workflow when its request brings none: the workflow's
 * deterministic time, in UTC (a worker's own zone would make the dates depend on which worker
 * replays the workflow). Read only from workflow code.
 */
final class WorkflowClock extends Clock {

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a workflow's clock is in UTC");
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(Workflow.currentTimeMillis());
    }
}
