package dev.planvm.vm;

/** How a run ended. */
public enum RunStatus {
    /** The program counter passed the last instruction (or a handler halted). */
    SUCCEEDED,
    /** A step failed, the step limit was hit, or (strict) {@code final_answer} was never set. */
    FAILED
}
