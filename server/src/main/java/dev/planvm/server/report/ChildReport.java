package dev.planvm.server.report;

/**
 * A child run a plan-tool call of a run started: its id, the seq_no of the calling step, and its report when it
 * is at hand (else null: the report shows the child by its id).
 */
public record ChildReport(String id, int seqNo, ReportInput report) {}
