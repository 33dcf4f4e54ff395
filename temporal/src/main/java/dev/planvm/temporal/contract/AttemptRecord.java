package dev.planvm.temporal.contract;

/**
 * One failed attempt of a call, as the trace lists it under {@code "attempts"}.
 *
 * @param waitedMs the wait before the next attempt, or {@code null} when none followed
 */
public record AttemptRecord(int attempt, String error, double durationMs, Long waitedMs) {}
