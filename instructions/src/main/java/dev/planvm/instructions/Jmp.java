package dev.planvm.instructions;

import dev.planvm.instructions.expr.ValueTemplate;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * {@code jmp} (DESIGN P8): unconditional ({@code target_seq}), conditioned by an LLM
 * ({@code condition_prompt}) or by a local expression ({@code condition}).
 */
public record Jmp(Header header, Branch branch) implements Instruction {

    public Jmp {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(branch, "branch");
    }

    /** The three kinds of jump. */
    public sealed interface Branch permits Unconditional, LlmCondition, LocalCondition {
        /** The {@code seq_no}s this branch may jump to. */
        List<Integer> targets();

        /** Whether a false condition falls through to the next instruction. */
        boolean mayFallThrough();
    }

    /** {@code target_seq}: always jump. */
    public record Unconditional(int target) implements Branch {
        @Override
        public List<Integer> targets() {
            return List.of(target);
        }

        @Override
        public boolean mayFallThrough() {
            return false;
        }
    }

    /**
     * {@code condition_prompt} (+ optional {@code context}) answered by the condition evaluator.
     *
     * @param context {@code null} when absent
     * @param ifFalse {@code null}: fall through to the next instruction when the answer is false
     */
    public record LlmCondition(ValueTemplate prompt, ValueTemplate context, int ifTrue, Integer ifFalse)
            implements Branch {
        public LlmCondition {
            Objects.requireNonNull(prompt, "prompt");
        }

        @Override
        public List<Integer> targets() {
            return ifFalse == null ? List.of(ifTrue) : List.of(ifTrue, ifFalse);
        }

        @Override
        public boolean mayFallThrough() {
            return ifFalse == null;
        }
    }

    /**
     * {@code condition}: a boolean or a {@code ${...}} expression evaluated locally, no LLM.
     *
     * @param ifFalse {@code null}: fall through to the next instruction when false
     */
    public record LocalCondition(ValueTemplate condition, int ifTrue, Integer ifFalse) implements Branch {
        public LocalCondition {
            Objects.requireNonNull(condition, "condition");
        }

        @Override
        public List<Integer> targets() {
            return ifFalse == null ? List.of(ifTrue) : List.of(ifTrue, ifFalse);
        }

        @Override
        public boolean mayFallThrough() {
            return ifFalse == null;
        }
    }

    @Override
    public List<Integer> jumpTargets() {
        return branch.targets();
    }

    @Override
    public boolean mayFallThrough() {
        return branch.mayFallThrough();
    }

    @Override
    public boolean callsOut() {
        return branch instanceof LlmCondition;
    }

    @Override
    public Set<String> reads() {
        Set<String> reads = new LinkedHashSet<>();
        if (branch instanceof LlmCondition c) {
            reads.addAll(c.prompt().variables());
            if (c.context() != null) {
                reads.addAll(c.context().variables());
            }
        } else if (branch instanceof LocalCondition c) {
            reads.addAll(c.condition().variables());
        }
        return reads;
    }
}
