package dev.planvm.instructions;

import java.util.List;
import java.util.stream.Collectors;

/** Thrown when an invalid plan is asked to run; carries every error, each with its location. */
public final class InvalidPlanException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final transient List<Diagnostic> errors;

    public InvalidPlanException(String source, List<Diagnostic> errors) {
        super(errors.stream().map(d -> d.format(source)).collect(Collectors.joining("\n")));
        this.source = source;
        this.errors = List.copyOf(errors);
    }

    public String source() {
        return source;
    }

    public List<Diagnostic> errors() {
        return errors;
    }
}
