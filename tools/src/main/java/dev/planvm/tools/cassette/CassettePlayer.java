package dev.planvm.tools.cassette;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.json.JsonDiff;
import dev.planvm.json.JsonEquality;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.Sleeper;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replay: answers every call from a cassette and never proceeds to a real tool or LLM. A tool call
 * matches by tool name and params, a condition by prompt and context (JSON equality, numbers by
 * value). When several interactions match, they are served in recorded order. A call with no
 * match left fails (not retriable), naming the call and showing the closest recorded interaction
 * with a diff. One player per run: it remembers which interactions it served. What an interaction
 * recorded besides its answer is reported to the call's {@link CallEvents} again: the pieces of a
 * streamed answer (at their recorded pace with {@code timing}), then the tokens it spent.
 */
public final class CassettePlayer implements CallInterceptor {

    private final Cassette cassette;
    /** The cassette's interactions, child runs' included ({@link Cassette#flat()}): what indexes refer to. */
    private final List<Interaction> all;

    private final boolean timing;
    /** Unserved interaction indexes per tool name (conditions under {@link #CONDITIONS}), in recorded order. */
    private final Map<String, LinkedList<Integer>> unserved = new HashMap<>();

    private static final String CONDITIONS = "\0conditions";

    private final Redactor redactor;
    private final Set<String> live;
    private final Sleeper sleeper;

    /** The longest {@code --replay-timing} waits for one interaction, whatever its {@code duration_ms}: one minute. */
    public static final Duration MAX_WAIT = Duration.ofMinutes(1);

    /** @param timing sleep each interaction's {@code duration_ms} before answering ({@code --replay-timing}) */
    public CassettePlayer(Cassette cassette, boolean timing) {
        this(cassette, timing, Redactor.none());
    }

    /**
     * @param redactor the secrets a recording left out: a call is matched with them redacted the
     *                 same way, so a cassette recorded with secrets replays with them
     */
    public CassettePlayer(Cassette cassette, boolean timing, Redactor redactor) {
        this(cassette, timing, redactor, Set.of(), Sleeper.REAL);
    }

    /**
     * @param live    tools whose calls pass on to the real tool instead of being answered (a partial replay)
     * @param sleeper how a recorded duration is waited for (tests record the waits); each wait is
     *                at most {@link #MAX_WAIT}
     */
    public CassettePlayer(Cassette cassette, boolean timing, Redactor redactor, Set<String> live, Sleeper sleeper) {
        this.live = Set.copyOf(live);
        this.cassette = cassette;
        this.timing = timing;
        this.redactor = redactor;
        this.sleeper = sleeper;
        this.all = cassette.flat();
        for (int i = 0; i < all.size(); i++) {
            unserved.computeIfAbsent(key(all.get(i)), k -> new LinkedList<>()).add(i);
        }
    }

    private static String key(Interaction interaction) {
        return interaction instanceof Interaction.ToolInteraction tool ? tool.tool() : CONDITIONS;
    }

    private static String key(Call call) {
        return call instanceof Call.ToolCall tool ? tool.tool() : CONDITIONS;
    }

    /** Whether calls of {@code tool} (as the plan spells it) pass on to the real tool: a live tool of a partial replay. */
    public boolean passesOn(String tool) {
        return live.contains(tool);
    }

    @Override
    public JsonNode intercept(Chain chain) {
        if (chain.call() instanceof Call.ToolCall tool && live.contains(tool.tool())) {
            return chain.proceed(chain.call()); // a live tool of a partial replay: called for real
        }
        Call call = redacted(chain.call());
        Interaction interaction = take(call);
        CallEvents events = chain.call().context().events();
        long start = System.nanoTime();
        if (interaction instanceof Interaction.ToolInteraction streamed
                && !streamed.chunks().isEmpty()) {
            events.streamStarted();
            for (Interaction.Chunk chunk : streamed.chunks()) {
                waitUntil(start, chunk.atMs(), call);
                events.chunk(chunk.text());
            }
        }
        waitUntil(start, interaction.durationMs(), call);
        if (!interaction.tokens().isZero()) {
            events.tokens(interaction.tokens());
        }
        if (interaction instanceof Interaction.ToolInteraction tool) {
            if (tool.failed()) {
                throw new ToolException(tool.error(), false, null, null, tool.errorKind());
            }
            return tool.output();
        }
        Interaction.ConditionInteraction condition = (Interaction.ConditionInteraction) interaction;
        return new ConditionResult(condition.result(), condition.explanation()).toJson();
    }

    /**
     * With {@code timing}, waits until {@code atMs} after {@code start} ({@code duration_ms}, or a
     * streamed chunk's time), never past {@link #MAX_WAIT} after it, whatever the cassette says.
     */
    private void waitUntil(long start, long atMs, Call call) {
        if (!timing || atMs <= 0) {
            return;
        }
        long left = Math.min(atMs, MAX_WAIT.toMillis()) - (System.nanoTime() - start) / 1_000_000;
        if (left <= 0) {
            return;
        }
        try {
            sleeper.sleep(Duration.ofMillis(left));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException("interrupted while replaying " + call.describe(), false, e);
        }
    }

    private Call redacted(Call call) {
        if (redactor.isEmpty()) {
            return call;
        }
        if (call instanceof Call.ToolCall tool) {
            return tool.withParams(redactor.redact(tool.params()));
        }
        Call.ConditionCall condition = (Call.ConditionCall) call;
        return new Call.ConditionCall(
                redactor.redact(condition.prompt()),
                redactor.redact(condition.conditionContext()),
                condition.context());
    }

    /** The first unserved matching interaction; replaying in recorded order finds it at the head. */
    private synchronized Interaction take(Call call) {
        LinkedList<Integer> candidates = unserved.getOrDefault(key(call), new LinkedList<>());
        for (Iterator<Integer> it = candidates.iterator(); it.hasNext(); ) {
            Interaction candidate = all.get(it.next());
            if (matches(candidate, call)) {
                it.remove();
                return candidate;
            }
        }
        throw ToolException.permanent(noMatch(call));
    }

    static boolean matches(Interaction interaction, Call call) {
        if (interaction instanceof Interaction.ToolInteraction tool && call instanceof Call.ToolCall toolCall) {
            return tool.tool().equals(toolCall.tool()) && JsonEquality.equal(tool.params(), toolCall.params());
        }
        if (interaction instanceof Interaction.ConditionInteraction condition && call instanceof Call.ConditionCall c) {
            return condition.prompt().equals(c.prompt())
                    && JsonEquality.equal(condition.context(), c.conditionContext());
        }
        return false;
    }

    private String noMatch(Call call) {
        StringBuilder message = new StringBuilder("the cassette has no ");
        JsonNode actual = asRecorded(call);
        int exactButServed = 0;
        Interaction closest = null;
        int closestDistance = Integer.MAX_VALUE;
        for (int i = 0; i < all.size(); i++) {
            Interaction candidate = all.get(i);
            if (!sameKind(candidate, call)) {
                continue;
            }
            if (matches(candidate, call)) {
                exactButServed++;
                continue;
            }
            int distance = JsonDiff.count(asRecorded(candidate), actual);
            if (distance < closestDistance) {
                closest = candidate;
                closestDistance = distance;
            }
        }
        message.append(exactButServed > 0 ? "interaction left for " : "recorded interaction for ");
        message.append(call.describe()).append(" with ").append(JsonDiff.brief(actual));
        if (exactButServed > 0) {
            message.append(": its ")
                    .append(exactButServed)
                    .append(exactButServed == 1 ? " recording was" : " recordings were")
                    .append(" already served (the plan makes this call more often than when it was recorded)");
        } else if (closest == null) {
            message.append(": nothing of that kind was recorded");
        } else {
            message.append("; closest recorded: ")
                    .append(JsonDiff.brief(asRecorded(closest)))
                    .append("; differences: ")
                    .append(String.join("; ", JsonDiff.inline(asRecorded(closest), actual, "recorded", 5)));
        }
        return message.toString();
    }

    private static boolean sameKind(Interaction interaction, Call call) {
        return interaction instanceof Interaction.ToolInteraction
                ? call instanceof Call.ToolCall
                : call instanceof Call.ConditionCall;
    }

    /** What matching compares, as one JSON object: tool and params, or prompt and context. */
    private static JsonNode asRecorded(Object callOrInteraction) {
        var json = JsonNodeFactory.instance.objectNode();
        if (callOrInteraction instanceof Call.ToolCall c) {
            json.put("tool", c.tool()).set("params", c.params());
        } else if (callOrInteraction instanceof Call.ConditionCall c) {
            json.put("prompt", c.prompt()).set("context", c.conditionContext());
        } else if (callOrInteraction instanceof Interaction.ToolInteraction t) {
            json.put("tool", t.tool()).set("params", t.params());
        } else if (callOrInteraction instanceof Interaction.ConditionInteraction c) {
            json.put("prompt", c.prompt()).set("context", c.context());
        }
        return json;
    }
}
