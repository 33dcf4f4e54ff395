package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.Pos;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The instructions of a script, written in order; jumps name {@link Label}s, which become
 * {@code seq_no}s when the plan is finished (so a prologue can still be put in front). A label placed
 * after the last instruction gets an end marker ({@code reasoning}) to land on.
 */
final class PlanBuilder {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** A place in the plan that jumps may name before it is known. */
    static final class Label {
        private Step at;
    }

    private record Jump(ObjectNode parameters, String key, Label label) {}

    private static final class Step {
        final ObjectNode instruction;
        final Pos pos;

        Step(ObjectNode instruction, Pos pos) {
            this.instruction = instruction;
            this.pos = pos;
        }
    }

    private final int maxInstructions;
    private final List<Step> steps = new ArrayList<>();
    private final List<Step> prologue = new ArrayList<>();
    private final List<Jump> jumps = new ArrayList<>();
    private final List<Label> pending = new ArrayList<>();
    private boolean overflow;

    PlanBuilder(int maxInstructions) {
        this.maxInstructions = maxInstructions;
    }

    Label label() {
        return new Label();
    }

    /** Places {@code label} at the next instruction written. */
    void place(Label label) {
        pending.add(label);
    }

    void assign(ObjectNode values, Pos pos, String objective) {
        add(instruction("assign", values, objective), pos);
    }

    /** An assign put in front of everything written so far and later (input defaults). */
    void prologueAssign(ObjectNode values, Pos pos, String objective) {
        if (!values.isEmpty()) {
            prologue.add(new Step(instruction("assign", values, objective), pos));
        }
    }

    void calling(String tool, ObjectNode params, String output, Pos pos, String objective) {
        ObjectNode parameters = JSON.objectNode();
        parameters.put("tool_name", tool);
        parameters.set("tool_params", params);
        parameters.put("output_vars", output);
        add(instruction("calling", parameters, objective), pos);
    }

    void jump(Label target, Pos pos, String objective) {
        ObjectNode parameters = JSON.objectNode();
        jumps.add(new Jump(parameters, "target_seq", target));
        add(instruction("jmp", parameters, objective), pos);
    }

    /** Jumps to {@code whenTrue} when {@code condition} (a {@code ${...}} evaluating to a boolean) holds. */
    void jumpIf(String condition, Label whenTrue, Pos pos, String objective) {
        ObjectNode parameters = JSON.objectNode();
        parameters.put("condition", condition);
        jumps.add(new Jump(parameters, "jump_if_true", whenTrue));
        add(instruction("jmp", parameters, objective), pos);
    }

    private ObjectNode instruction(String type, ObjectNode parameters, String objective) {
        ObjectNode instruction = JSON.objectNode();
        instruction.put("type", type);
        instruction.put("execution_objective", objective);
        instruction.set("parameters", parameters);
        return instruction;
    }

    private void add(ObjectNode instruction, Pos pos) {
        if (prologue.size() + steps.size() >= maxInstructions) {
            overflow = true;
            return;
        }
        Step step = new Step(instruction, pos);
        for (Label label : pending) {
            label.at = step;
        }
        pending.clear();
        steps.add(step);
    }

    /** The variables the instructions so far write (assign keys, call outputs). */
    java.util.Set<String> written() {
        java.util.Set<String> names = new java.util.HashSet<>();
        for (List<Step> list : List.of(prologue, steps)) {
            for (Step step : list) {
                ObjectNode parameters = (ObjectNode) step.instruction.get("parameters");
                switch (step.instruction.path("type").asText()) {
                    case "assign" -> parameters.fieldNames().forEachRemaining(names::add);
                    case "calling" -> names.add(parameters.path("output_vars").asText());
                    default -> {}
                }
            }
        }
        return names;
    }

    /** Whether the plan grew past the instruction limit (nothing more is written). */
    boolean overflow() {
        return overflow;
    }

    /** Whether anything has been written. */
    boolean isEmpty() {
        return steps.isEmpty() && prologue.isEmpty();
    }

    /** The plan's instructions with their {@code seq_no}s and jump targets; the line of each in {@code lines}. */
    ArrayNode finish(Pos end, Map<Integer, Integer> lines) {
        if (!pending.isEmpty()) {
            ObjectNode parameters = JSON.objectNode();
            parameters.put("chain_of_thoughts", "the end of the script");
            add(instruction("reasoning", parameters, "line " + end.line() + ": the end of the script"), end);
        }
        List<Step> all = new ArrayList<>(prologue);
        all.addAll(steps);
        Map<Step, Integer> seqNos = new IdentityHashMap<>();
        ArrayNode plan = JSON.arrayNode();
        for (Step step : all) {
            int seqNo = plan.size();
            seqNos.put(step, seqNo);
            ObjectNode numbered = JSON.objectNode();
            numbered.put("seq_no", seqNo);
            numbered.setAll(step.instruction);
            plan.add(numbered);
            lines.put(seqNo, step.pos.line());
        }
        for (Jump jump : jumps) {
            Integer target = jump.label.at == null ? null : seqNos.get(jump.label.at);
            jump.parameters.put(jump.key, target == null ? 0 : target);
        }
        return plan;
    }

    static JsonNode text(String s) {
        return JSON.textNode(s);
    }
}
