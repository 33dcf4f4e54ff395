package dev.planvm.agent;

import dev.planvm.instructions.Diagnostic;
import java.util.List;

/**
 * The planner gave no valid plan: its last answer still had errors after every repair round, or a
 * request failed (the LLM could not be reached, the token budget was spent, a replayed cassette has no
 * such answer). The message is plain text for the user; {@link #problems()} are the last answer's
 * errors, each located.
 */
public final class PlanningException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient List<PlanRound> rounds;
    private final transient List<Diagnostic> problems;

    public PlanningException(String message, List<PlanRound> rounds, List<Diagnostic> problems, Throwable cause) {
        super(message, cause);
        this.rounds = List.copyOf(rounds);
        this.problems = List.copyOf(problems);
    }

    /** The answers the planner got before giving up. */
    public List<PlanRound> rounds() {
        return rounds;
    }

    /** The errors of the last answer (empty when a request failed). */
    public List<Diagnostic> problems() {
        return problems;
    }
}
