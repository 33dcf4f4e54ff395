package dev.planvm.instructions;

import java.util.Objects;

/**
 * One problem found while loading a plan: how bad it is, where it is, and a plain sentence.
 *
 * @param severity {@link Severity#ERROR} refuses the plan, {@link Severity#WARNING} does not
 * @param seqNo    the {@code seq_no} of the instruction concerned, or {@code null} for a plan-level problem
 * @param pointer  JSON pointer (RFC 6901) into the plan document as read from the file ({@code ""} is the whole document)
 * @param message  a short sentence for the user, without location (the location is printed beside it)
 */
public record Diagnostic(Severity severity, Integer seqNo, String pointer, String message) {

    /** How a diagnostic affects the plan. */
    public enum Severity {
        ERROR,
        WARNING
    }

    public Diagnostic {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(pointer, "pointer");
        Objects.requireNonNull(message, "message");
    }

    public static Diagnostic error(Integer seqNo, String pointer, String message) {
        return new Diagnostic(Severity.ERROR, seqNo, pointer, message);
    }

    public static Diagnostic warning(Integer seqNo, String pointer, String message) {
        return new Diagnostic(Severity.WARNING, seqNo, pointer, message);
    }

    public boolean isError() {
        return severity == Severity.ERROR;
    }

    /**
     * The one-line form the CLI prints: {@code FILE: seq_no N at /pointer: message}, with
     * {@code warning: } in front of warnings; the parts that are unknown are left out.
     */
    public String format(String file) {
        StringBuilder line = new StringBuilder();
        if (severity == Severity.WARNING) {
            line.append("warning: ");
        }
        line.append(file).append(": ");
        if (seqNo != null) {
            line.append("seq_no ").append(seqNo).append(' ');
        }
        if (!pointer.isEmpty()) {
            line.append("at ").append(pointer).append(": ");
        } else if (seqNo != null) {
            line.setLength(line.length() - 1);
            line.append(": ");
        }
        return line.append(message).toString();
    }
}
