package dev.planvm.temporal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.CassettePlayer;
import dev.planvm.tools.chain.CallChain;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Tools for tests, the same in a local run and on a worker: answers derived from the params (so a
 * call with other params gets another answer), or replayed from the cassette of the plan at hand.
 * Every invocation is counted per {@code seq_no}.
 */
final class StandInTools {

    private final AtomicReference<CallChain> cassette = new AtomicReference<>();
    final Map<Integer, AtomicInteger> invocations = new ConcurrentHashMap<>();

    /** From now on, tools and conditions answer from {@code recorded} (in recorded order), or derive answers when null. */
    void replay(Cassette recorded) {
        cassette.set(
                recorded == null
                        ? null
                        : new CallChain(
                                List.of(new CassettePlayer(recorded, false), chain -> {
                                    throw ToolException.permanent("the cassette has no answer for "
                                            + chain.call().describe());
                                }),
                                List.of()));
        invocations.clear();
    }

    List<Tool> tools(Collection<String> names) {
        List<Tool> tools = new ArrayList<>();
        for (String name : names) {
            tools.add(Tool.of(name, "stand-in " + name, (params, context) -> {
                invocations
                        .computeIfAbsent(context.seqNo(), s -> new AtomicInteger())
                        .incrementAndGet();
                CallChain replayed = cassette.get();
                if (replayed != null) {
                    return replayed.execute(new Call.ToolCall(name, params, context));
                }
                String digest = digest(name + params);
                if (context.expectedKeys().size() < 2) {
                    return TextNode.valueOf(name + " answer " + digest);
                }
                ObjectNode object = JsonNodeFactory.instance.objectNode();
                context.expectedKeys().forEach(key -> object.put(key, key + " " + digest));
                return object;
            }));
        }
        return tools;
    }

    ConditionEvaluator conditions() {
        return (prompt, context, call) -> {
            invocations.computeIfAbsent(call.seqNo(), s -> new AtomicInteger()).incrementAndGet();
            CallChain replayed = cassette.get();
            if (replayed != null) {
                return ConditionResult.fromJson(replayed.execute(new Call.ConditionCall(prompt, context, call)));
            }
            String digest = digest(prompt + context);
            return new ConditionResult(Character.digit(digest.charAt(0), 16) % 2 == 0, "stand-in " + digest);
        };
    }

    static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static JsonNode text(String value) {
        return TextNode.valueOf(value);
    }
}
