package dev.planvm.instructions.expr;

/**
 * Hard ceilings on what one expression may build, checked before anything is allocated, so that a
 * hostile expression (e.g. {@code join(split(s, ''), s)}) fails with an evaluation error instead
 * of exhausting memory. They sit above the configurable run limits, which then apply to the
 * result: no text over {@link #MAX_TEXT} characters, no array over {@link #MAX_ELEMENTS} elements.
 */
final class BuildLimits {

    static final long MAX_TEXT = 10_000_000;
    static final long MAX_ELEMENTS = 1_000_000;

    private BuildLimits() {}

    /** Refuses building text of {@code length} characters (or more) with {@code what}. */
    static void text(String what, long length) {
        if (length > MAX_TEXT) {
            throw EvaluationException.limit(what + " would build text of more than " + String.format("%,d", MAX_TEXT)
                    + " characters; one expression cannot build more");
        }
    }

    /** Refuses building an array of {@code count} elements (or more) with {@code what}. */
    static void elements(String what, long count) {
        if (count > MAX_ELEMENTS) {
            throw EvaluationException.limit(what + " would build an array of more than "
                    + String.format("%,d", MAX_ELEMENTS) + " elements; one expression cannot build more");
        }
    }
}
