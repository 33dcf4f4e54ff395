package dev.planvm.vm.internal.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.ForEach;
import dev.planvm.instructions.OnError;
import dev.planvm.instructions.expr.Variables;
import dev.planvm.tools.call.Call;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.StepContext;
import dev.planvm.vm.run.StepContext.Settled;
import dev.planvm.vm.run.StepError;
import dev.planvm.vm.run.StepFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code calling} with {@code for_each}: the tool is called once per element of the list, the
 * params interpolated with the element bound to {@code as} and its position to {@code index}
 * (inside the params only), the calls made several at a time ({@link StepContext#callEach}); the
 * output is the array of the outputs in the list's order.
 *
 * <p>A failed element: with {@code on_error.value} the value stands for that element's output
 * (and {@code last_error} describes the last failed element, with its {@code index}); with
 * {@code on_error.jump}, or without {@code on_error}, the step fails once every element has
 * settled, naming the first failed element (then {@code on_error.jump} jumps). A failure that
 * protects the machine always ends the step.
 *
 * <p>Each element is a call of its own ({@link dev.planvm.tools.CallContext#element}): in a durable run, what it
 * waits for — a reviewer's approval, a person's answer, a wake time — is kept under the step and its index. Elements
 * that wait stop the step, the run waiting (naming the first that waits) while the others' answers are kept; the
 * step runs again once one of them is decided or answered. A step that has already failed for good (an element
 * failed with no {@code on_error.value}) does not wait for the rest: it fails at once.
 */
final class ForEachCalls {

    private ForEachCalls() {}

    static Outcome execute(Calling calling, StepContext step) {
        ForEach forEach = calling.forEach();
        JsonNode list = step.interpolate(forEach.list());
        if (!list.isArray()) {
            throw new StepFailure("for_each must resolve to a JSON array, but "
                    + describe(forEach.list().toString(), calling) + " is " + kind(list) + " ("
                    + OutputBinding.shown(list, 60) + ")");
        }
        if (list.size() > ForEach.MAX_ELEMENTS) {
            throw new StepFailure("for_each has " + list.size() + " elements; one for_each maps at most "
                    + ForEach.MAX_ELEMENTS + " (split the list, or map it in several steps)");
        }
        step.recordInput("tool", TextNode.valueOf(calling.tool()));
        step.recordInput("for_each", list);
        int n = list.size();
        ArrayNode params = JsonNodeFactory.instance.arrayNode(n);
        Settled[] settled = new Settled[n];
        List<Call> calls = new ArrayList<>(n);
        List<Integer> callIndex = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            JsonNode item = list.get(i);
            IntNode index = IntNode.valueOf(i);
            Variables element = Variables.over(step.variables(), name -> {
                if (name.equals(forEach.as())) {
                    return item;
                }
                return name.equals(ForEach.INDEX) ? index : step.variables().get(name);
            });
            try {
                Call.ToolCall one = CallingHandler.call(calling, element, step.limits());
                Call.ToolCall call = new Call.ToolCall(
                        one.tool(), one.params(), one.context().withElement(i)); // waits are kept per element
                params.add(call.params());
                calls.add(call);
                callIndex.add(i);
            } catch (RuntimeException e) {
                params.addNull();
                settled[i] = Settled.failed(e);
            }
        }
        step.recordInput("params", params);
        List<Settled> answers = step.callEach(calls);
        for (int k = 0; k < answers.size(); k++) {
            settled[callIndex.get(k)] = answers.get(k);
        }
        return bind(calling, step, settled);
    }

    private static Outcome bind(Calling calling, StepContext step, Settled[] settled) {
        RuntimeException wait = null;
        boolean failed = false;
        for (Settled one : settled) {
            if (one.ok()) {
                continue;
            }
            if (waits(one)) {
                wait = wait == null ? one.failure() : wait; // the first element that waits is the one the run names
            } else if (!StepError.recoverable(one.failure())) {
                throw one.failure(); // a limit: the step stops, whatever on_error says
            } else {
                failed = true;
            }
        }
        if (wait != null && !(failed && !(calling.onError() instanceof OnError.Value))) {
            throw wait; // elements wait for a person: the step stops, whatever on_error says, and runs again later
        }
        ArrayNode outputs = JsonNodeFactory.instance.arrayNode(settled.length);
        ArrayNode handled = JsonNodeFactory.instance.arrayNode();
        ArrayNode errors = JsonNodeFactory.instance.arrayNode();
        int firstFailed = -1;
        int failures = 0;
        ObjectNode lastError = null;
        for (int i = 0; i < settled.length; i++) {
            Settled one = settled[i];
            if (one.ok()) {
                outputs.add(one.answer());
                continue;
            }
            if (waits(one)) { // the step fails for another element: this one is not asked any more
                outputs.addNull();
                continue;
            }
            failures++;
            if (firstFailed < 0) {
                firstFailed = i;
            }
            StepError error = new StepError(
                    calling.seqNo(),
                    calling.type(),
                    calling.tool(),
                    StepError.Kind.of(one.failure()),
                    elementMessage(calling, i, settled.length, one.failure()));
            errors.addObject().put("index", i).put("kind", error.kind().label()).put("message", error.message());
            if (calling.onError() instanceof OnError.Value value) {
                outputs.add(value.value());
                handled.add(i);
                lastError = error.lastError();
                lastError.put("index", i);
            } else {
                outputs.addNull();
            }
        }
        step.recordInput("output", outputs);
        if (!errors.isEmpty()) {
            step.recordInput("element_errors", errors);
        }
        if (firstFailed >= 0 && !(calling.onError() instanceof OnError.Value)) {
            RuntimeException cause = settled[firstFailed].failure();
            throw new StepFailure(
                    elementMessage(calling, firstFailed, settled.length, cause)
                            + (failures > 1 ? " (" + (failures - 1) + " more element(s) failed too)" : ""),
                    cause);
        }
        if (!handled.isEmpty()) {
            step.recordInput("handled_elements", handled);
            step.set(OnError.LAST_ERROR, lastError);
        }
        OutputBinding.values(calling.tool(), calling.outputVars(), outputs).forEach(step::set);
        return Outcome.next();
    }

    /** Whether the element waits for a person (an approval, an answer) rather than failed. */
    private static boolean waits(Settled one) {
        FailureKind kind = FailureKind.of(one.failure());
        return kind == FailureKind.WAITING_FOR_APPROVAL || kind == FailureKind.WAITING_FOR_INPUT;
    }

    private static String elementMessage(Calling calling, int index, int size, RuntimeException failure) {
        String cause = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        return "for_each element " + index + " (of " + size + "): tool '" + calling.tool() + "' failed: " + cause;
    }

    private static String describe(String template, Calling calling) {
        JsonNode raw = calling.header().raw().path("parameters").path("for_each");
        return raw.isTextual() ? raw.asText() : template;
    }

    private static String kind(JsonNode value) {
        return switch (value.getNodeType()) {
            case OBJECT -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL, MISSING -> "null";
            default -> value.getNodeType().name().toLowerCase();
        };
    }
}
