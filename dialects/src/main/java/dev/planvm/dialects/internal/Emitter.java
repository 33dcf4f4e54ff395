package dev.planvm.dialects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the instructions of one alias after another: every tool call becomes a {@code calling}
 * instruction (a call nested in an expression is computed first into a temporary variable), and
 * what is left of the alias becomes one {@code assign}. An alias that is exactly one call stores
 * the call's output itself; the result is stored in {@code final_answer}.
 */
final class Emitter {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Names names;
    private final int maxInstructions;
    private final ArrayNode plan = JSON.arrayNode();
    private final Map<Integer, Integer> lines = new LinkedHashMap<>();
    private boolean overflow;

    Emitter(Names names, int maxInstructions) {
        this.names = names;
        this.maxInstructions = maxInstructions;
    }

    /** Emits an alias; false when the plan grew past the instruction limit. */
    boolean alias(String variable, Ast body, Pos pos, String label) {
        String base = variable.equals(Backend.FINAL_ANSWER) ? "result" : variable;
        if (body instanceof Ast.ToolCall call) {
            calling(call, hoistObject(call.params(), base, label), variable, label);
        } else if (body instanceof Ast.EachCall each) {
            callingEach(each, hoist(each.list(), base, label), variable, label);
        } else {
            Ast flat = hoist(body, base, label);
            if (!overflow) {
                ObjectNode values = JSON.objectNode();
                values.set(variable, Lowering.template(flat));
                emit("assign", values, pos, "line " + pos.line() + ": " + label);
            }
        }
        return !overflow;
    }

    /**
     * Ends the plan in seed 001's {@code use}: an {@code assign} of {@code true} to {@link Backend#USE}, after the
     * result; false when the plan grew past the instruction limit.
     */
    boolean handBack(Pos pos) {
        ObjectNode values = JSON.objectNode();
        values.put(Backend.USE, true);
        emit(
                "assign",
                values,
                pos,
                "line " + pos.line() + ": use: the result goes back to the LLM that wrote the plan");
        return !overflow;
    }

    ArrayNode plan() {
        return plan;
    }

    Map<Integer, Integer> lines() {
        return lines;
    }

    /** {@code ast} with every tool call replaced by the variable its output goes to (calls emitted, innermost first). */
    private Ast hoist(Ast ast, String base, String label) {
        if (ast instanceof Ast.ToolCall call) {
            Ast.ObjectLit params = hoistObject(call.params(), base, label);
            String temp = names.fresh(base + "_" + call.tool());
            calling(call, params, temp, label);
            return new Ast.Var(temp, call.pos());
        }
        if (ast instanceof Ast.EachCall each) {
            Ast list = hoist(each.list(), base, label);
            String temp = names.fresh(base + "_" + each.call().tool());
            callingEach(each, list, temp, label);
            return new Ast.Var(temp, each.pos());
        }
        if (ast instanceof Ast.Template t) {
            return new Ast.Template(hoistAll(t.parts(), base, label), t.pos());
        }
        if (ast instanceof Ast.ArrayLit a) {
            return new Ast.ArrayLit(hoistAll(a.elements(), base, label), a.pos());
        }
        if (ast instanceof Ast.ObjectLit o) {
            return hoistObject(o, base, label);
        }
        if (ast instanceof Ast.Member m) {
            return new Ast.Member(hoist(m.target(), base, label), m.name(), m.pos());
        }
        if (ast instanceof Ast.Index i) {
            return new Ast.Index(hoist(i.target(), base, label), hoist(i.index(), base, label), i.pos());
        }
        if (ast instanceof Ast.BuiltinCall b) {
            return new Ast.BuiltinCall(b.function(), hoistAll(b.args(), base, label), b.pos());
        }
        if (ast instanceof Ast.MethodCall m) {
            return new Ast.MethodCall(
                    hoist(m.target(), base, label), m.method(), hoistAll(m.args(), base, label), m.pos());
        }
        if (ast instanceof Ast.Unwrap u) {
            return new Ast.Unwrap(hoist(u.inner(), base, label), u.pos());
        }
        return ast; // literals, variables, date/time constants
    }

    private List<Ast> hoistAll(List<Ast> items, String base, String label) {
        List<Ast> out = new ArrayList<>(items.size());
        for (Ast item : items) {
            out.add(hoist(item, base, label));
        }
        return out;
    }

    private Ast.ObjectLit hoistObject(Ast.ObjectLit o, String base, String label) {
        List<Ast.Property> properties = new ArrayList<>();
        for (Ast.Property p : o.properties()) {
            properties.add(new Ast.Property(p.key(), hoist(p.value(), base, label), p.pos()));
        }
        return new Ast.ObjectLit(properties, o.pos());
    }

    private void calling(Ast.ToolCall call, Ast.ObjectLit params, String output, String label) {
        ObjectNode parameters = JSON.objectNode();
        parameters.put("tool_name", call.tool());
        parameters.set("tool_params", Lowering.template(params));
        parameters.put("output_vars", output);
        slots(call, parameters);
        emit("calling", parameters, call.pos(), "line " + call.pos().line() + ": " + label + " calls " + call.tool());
    }

    /** {@code "slots": true} when the call's params are seed 000's slots (a YAML domain call with slots). */
    private static void slots(Ast.ToolCall call, ObjectNode parameters) {
        if (call.slots() && !call.params().properties().isEmpty()) {
            parameters.put("slots", true);
        }
    }

    /** A {@code calling} with {@code for_each}: the call made once per element of {@code list}. */
    private void callingEach(Ast.EachCall each, Ast list, String output, String label) {
        Ast.ToolCall call = each.call();
        ObjectNode parameters = JSON.objectNode();
        parameters.put("tool_name", call.tool());
        parameters.set("for_each", list instanceof Ast.ArrayLit ? Lowering.template(list) : reference(list));
        if (!each.as().equals(dev.planvm.instructions.ForEach.DEFAULT_AS)) {
            parameters.put("as", each.as());
        }
        parameters.set("tool_params", Lowering.template(call.params()));
        parameters.put("output_vars", output);
        slots(call, parameters);
        emit(
                "calling",
                parameters,
                each.pos(),
                "line " + each.pos().line() + ": " + label + " calls " + call.tool() + " for each element");
    }

    /** {@code ast} as exactly one {@code ${reference}} (for_each takes no text around it). */
    private static JsonNode reference(Ast ast) {
        return TextNode.valueOf("${" + Lowering.expr(ast) + "}");
    }

    private void emit(String type, JsonNode parameters, Pos pos, String objective) {
        if (plan.size() >= maxInstructions) {
            overflow = true;
            return;
        }
        int seqNo = plan.size();
        ObjectNode instruction = plan.addObject();
        instruction.put("seq_no", seqNo);
        instruction.put("type", type);
        instruction.set("execution_objective", TextNode.valueOf(objective));
        instruction.set("parameters", parameters);
        lines.put(seqNo, pos.line());
    }
}
