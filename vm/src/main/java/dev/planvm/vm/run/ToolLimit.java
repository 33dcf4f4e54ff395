package dev.planvm.vm.run;

/**
 * The concurrency limit of one tool (or of the LLM, shared by its tools and the {@code condition_prompt}s), as
 * it stands now across every run of a VM ({@code PlanVm.toolLimits()}): what {@code planvm serve} exports on
 * {@code /metrics}.
 *
 * @param tool       the tool's canonical name (the LLM's limit: its first LLM tool's)
 * @param limit      how many of its calls may be in flight now (an adaptive limit moves; a fixed one does not)
 * @param inFlight   its calls in flight now
 * @param waiting    its calls waiting for a slot now
 * @param overloaded its calls the tool refused for load so far (HTTP 429, 503, {@code Retry-After})
 * @param waited     its calls that had to wait for a slot so far
 */
public record ToolLimit(String tool, int limit, int inFlight, int waiting, long overloaded, long waited) {}
