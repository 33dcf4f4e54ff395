package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.RunControl;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepRecord;
import java.util.List;
import java.util.NoSuchElementException;
import picocli.CommandLine;

/**
 * {@code planvm run PLAN --only SEQ}: runs exactly one instruction of a plan with the given variables.
 * The engine runs the plan from that instruction and is asked to stop (interrupted) once its first step
 * has finished: nothing is stored, and the step's writes (with {@code next_seq} for a {@code jmp}) are
 * what it did.
 */
final class OnlyStep {

    /** What {@link #run} did: the run's result and the step it ran, or {@code null} when it did not finish. */
    record Done(RunResult result, ObjectNode printed) {}

    private OnlyStep() {}

    /** The position of {@code seqNo} in {@code plan}; a usage error naming the plan's seq_no range if it has none. */
    static int position(Plan plan, int seqNo, CommandLine commandLine) {
        try {
            return plan.positionOf(seqNo);
        } catch (NoSuchElementException e) {
            List<Instruction> all = plan.instructions();
            int low = all.stream().mapToInt(Instruction::seqNo).min().orElse(0);
            int high = all.stream().mapToInt(Instruction::seqNo).max().orElse(0);
            throw new CommandLine.ParameterException(
                    commandLine,
                    "--only " + seqNo + ": the plan has no seq_no " + seqNo
                            + (all.isEmpty()
                                    ? " (it has no instructions)"
                                    : " (its seq_nos run from " + low + " to " + high + ")"));
        }
    }

    /** Runs instruction {@code position} of the request's plan once, with the request's inputs as its variables, nothing stored. */
    static Done run(PlanVm vm, RunRequest request, int position) {
        Plan plan = request.plan();
        RunControl control = new RunControl();
        StepRecord[] ran = new StepRecord[1];
        RunListener once = new RunListener() {
            @Override
            public void stepFinished(StepRecord step) {
                if (ran[0] == null) {
                    ran[0] = step;
                    control.interrupt("--only runs one step");
                }
            }
        };
        RunResult result = vm.run(request.toBuilder()
                .start(new Checkpoint(position, 0, request.start().variables()))
                .listener(once)
                .control(control)
                .build());
        StepRecord step = ran[0];
        if (step == null || step.failed() || result.status() == RunStatus.FAILED || result.waiting()) {
            return new Done(result, null);
        }
        ObjectNode printed = step.writes().deepCopy();
        if (plan.instructions().get(position).type().equals("jmp")) {
            printed.set("next_seq", nextSeq(plan, position, step.outcome()));
        }
        return new Done(result, printed);
    }

    private static int seqAt(Plan plan, int position) {
        return plan.instructions().get(position).seqNo();
    }

    /** Where the run would go after the step: the jump target, the next instruction, or null at the end. */
    private static JsonNode nextSeq(Plan plan, int position, Outcome outcome) {
        if (outcome instanceof Outcome.JumpTo jump) {
            return JsonNodeFactory.instance.numberNode(jump.seqNo());
        }
        if (outcome instanceof Outcome.Next
                && position + 1 < plan.instructions().size()) {
            return JsonNodeFactory.instance.numberNode(seqAt(plan, position + 1));
        }
        return JsonNodeFactory.instance.nullNode();
    }
}
