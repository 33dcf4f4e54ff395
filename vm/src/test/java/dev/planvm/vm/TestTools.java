package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/** Deterministic in-memory tools and a scripted condition evaluator, recording every call. */
final class TestTools {

    final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    final List<List<String>> expectedKeys = new ArrayList<>();
    final List<String> conditionPrompts = new ArrayList<>();
    private final AtomicInteger counter = new AtomicInteger();
    private final Deque<Boolean> answers = new ConcurrentLinkedDeque<>();

    TestTools answering(List<Boolean> conditionAnswers) {
        answers.addAll(conditionAnswers);
        return this;
    }

    List<Tool> tools() {
        JsonNode upperSchema;
        try {
            upperSchema = new ObjectMapper().readTree("""
                    {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
                     "additionalProperties": false}""");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return List.of(
                recorded(Tool.of("object", "Returns its params.", (p, c) -> p)),
                recorded(Tool.of(
                        "text",
                        "Returns params.text as text.",
                        (p, c) -> TextNode.valueOf(p.path("text").asText()))),
                recorded(Tool.of(
                        "upper",
                        "Upper-cases params.text.",
                        upperSchema,
                        (p, c) -> TextNode.valueOf(p.path("text").asText().toUpperCase()))),
                recorded(Tool.of("fail", "Always fails with params.message.", (p, c) -> {
                    throw ToolException.permanent(p.path("message").asText());
                })),
                recorded(
                        Tool.of("counter", "Counts its calls.", (p, c) -> IntNode.valueOf(counter.incrementAndGet()))));
    }

    ConditionEvaluator conditions() {
        return (prompt, context, call) -> {
            conditionPrompts.add(prompt);
            Boolean answer = answers.poll();
            if (answer == null) {
                throw ToolException.permanent("no scripted answer left for condition '" + prompt + "'");
            }
            return new ConditionResult(answer, "scripted " + answer);
        };
    }

    private Tool recorded(Tool tool) {
        return Tool.of(tool.name(), tool.description(), tool.paramsSchema(), (JsonNode params, CallContext context) -> {
            calls.computeIfAbsent(tool.name(), n -> new AtomicInteger()).incrementAndGet();
            synchronized (expectedKeys) {
                expectedKeys.add(context.expectedKeys());
            }
            return tool.invoke(params, context);
        });
    }
}
