package dev.planvm.temporal.contract;

import java.util.Objects;

/**
 * A tool a worker holds, as a workflow needs to know it: its name, whether it has side effects
 * (never started ahead of its turn), and what it declares about retries and timeouts.
 *
 * @param maxAttempts attempts the tool's configuration asks for, or {@code null}
 * @param timeoutMs   the attempt timeout the tool's configuration asks for, or {@code null}
 */
public record ToolInfo(String name, String description, boolean sideEffects, Integer maxAttempts, Long timeoutMs) {
    public ToolInfo {
        Objects.requireNonNull(name, "name");
        description = description == null ? "" : description;
    }
}
