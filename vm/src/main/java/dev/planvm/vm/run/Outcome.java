package dev.planvm.vm.run;

/**
 * What a handler says happens after its instruction: go on with the next instruction in
 * {@code seq_no} order, jump to a {@code seq_no}, or halt the run. Handlers never move the program
 * counter themselves.
 */
public sealed interface Outcome permits Outcome.Next, Outcome.JumpTo, Outcome.Halt {

    /** Continue with the next instruction. */
    record Next() implements Outcome {}

    /** Continue at the instruction with this {@code seq_no}. */
    record JumpTo(int seqNo) implements Outcome {}

    /** End the run now, successfully. */
    record Halt() implements Outcome {}

    Outcome NEXT = new Next();
    Outcome HALT = new Halt();

    static Outcome next() {
        return NEXT;
    }

    static Outcome jumpTo(int seqNo) {
        return new JumpTo(seqNo);
    }

    static Outcome halt() {
        return HALT;
    }
}
