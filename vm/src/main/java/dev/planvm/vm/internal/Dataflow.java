package dev.planvm.vm.internal;

import dev.planvm.instructions.Assign;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Custom;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Jmp;
import dev.planvm.instructions.Plan;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The static dependency facts the concurrent scheduler needs, computed once per plan: basic
 * blocks (a leader is the first instruction, every jump target, and what follows a {@code jmp}, a
 * custom instruction or a {@code calling} whose {@code on_error} jumps); for each call (a {@code calling}, or a {@code condition_prompt} jmp) and
 * each assign, the last earlier instruction of its block writing each variable it reads; and for
 * each call the last earlier side-effecting call of its block. Positions index
 * {@link Plan#instructions()}.
 */
public final class Dataflow {

    /** {@code blockStart[p]}: the first position of the block that holds position {@code p}. */
    final int[] blockStart;
    /** For a call at p: the last position before p in its block that is a side-effecting call, else -1. */
    final int[] lastSideEffect;
    /** The non-side-effecting call positions of each block (keyed by its start), ordered by {@link #lastSideEffect}. */
    final Map<Integer, int[]> callsByReadiness;
    /**
     * For a call or an assign at p: each variable it reads that an earlier instruction of its block
     * writes, to the position of the last such writer (variables not listed come from the store).
     */
    final List<Map<String, Integer>> writerOf;

    private Dataflow(int size) {
        blockStart = new int[size];
        lastSideEffect = new int[size];
        callsByReadiness = new HashMap<>();
        writerOf = new ArrayList<>(java.util.Collections.nCopies(size, Map.<String, Integer>of()));
        java.util.Arrays.fill(lastSideEffect, -1);
    }

    /**
     * The facts of {@code plan} for a run whose calls start as {@code rule} decides: a
     * {@linkplain EarlyStartRule.Start#BARRIER barrier} is never started early, and no later call starts before
     * it; a call made {@linkplain EarlyStartRule.Start#AT_TURN at its turn} is never started early, but later
     * calls may start before it.
     */
    public static Dataflow of(Plan plan, EarlyStartRule rule) {
        List<Instruction> instructions = plan.instructions();
        int n = instructions.size();
        Dataflow flow = new Dataflow(n);
        boolean[] leader = new boolean[n];
        if (n > 0) {
            leader[0] = true;
        }
        for (int p = 0; p < n; p++) {
            Instruction instruction = instructions.get(p);
            if (instruction instanceof Jmp
                    || instruction instanceof Custom
                    || !instruction.jumpTargets().isEmpty()) {
                if (p + 1 < n) {
                    leader[p + 1] = true;
                }
                for (int target : instruction.jumpTargets()) {
                    leader[plan.positionOf(target)] = true;
                }
            }
        }
        int start = 0;
        for (int p = 0; p < n; p++) {
            if (p + 1 == n || leader[p + 1]) {
                flow.analyseBlock(instructions, start, p, rule);
                start = p + 1;
            }
        }
        return flow;
    }

    /**
     * Whether the call at {@code position} never starts early: a barrier (it waits for every earlier call, and
     * later ones for it) or a call made only at its turn.
     */
    boolean isBarrier(int position) {
        int[] free = callsByReadiness.getOrDefault(blockStart[position], new int[0]);
        for (int call : free) {
            if (call == position) {
                return false;
            }
        }
        return true;
    }

    private void analyseBlock(List<Instruction> instructions, int start, int end, EarlyStartRule rule) {
        Map<String, Integer> lastWrite = new HashMap<>();
        int lastEffect = -1;
        List<Integer> calls = new ArrayList<>();
        for (int p = start; p <= end; p++) {
            blockStart[p] = start;
            Instruction instruction = instructions.get(p);
            if (instruction.callsOut() || instruction instanceof Assign) {
                Map<String, Integer> writers = new HashMap<>();
                for (String read : instruction.reads()) {
                    Integer writer = lastWrite.get(read);
                    if (writer != null) {
                        writers.put(read, writer);
                    }
                }
                writerOf.set(p, Map.copyOf(writers));
            }
            if (instruction.callsOut()) {
                lastSideEffect[p] = lastEffect;
                EarlyStartRule.Start when = instruction instanceof Calling calling
                        ? rule.startOf(calling.tool())
                        : EarlyStartRule.Start.EARLY;
                if (when == EarlyStartRule.Start.BARRIER) {
                    lastEffect = p;
                } else if (when == EarlyStartRule.Start.EARLY) {
                    calls.add(p);
                }
            }
            for (String written : instruction.writes()) {
                lastWrite.put(written, p);
            }
        }
        int[] ordered = calls.stream()
                .sorted(Comparator.comparingInt(c -> lastSideEffect[c]))
                .mapToInt(Integer::intValue)
                .toArray();
        callsByReadiness.put(start, ordered);
    }
}
