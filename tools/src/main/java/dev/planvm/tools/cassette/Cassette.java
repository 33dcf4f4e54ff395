package dev.planvm.tools.cassette;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.json.JsonFiles;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.JsonValues;
import dev.planvm.json.TerminalText;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import java.io.IOException;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Recorded tool outputs and condition answers (DESIGN §4), stable and hand-writable:
 * <pre>{@code
 * {"format": "planvm-cassette/1",
 *  "clock": {"now": "2026-11-26T08:00:00Z", "tz": "Europe/Oslo"},
 *  "interactions": [
 *    {"type": "tool", "tool": "vector_search", "params": {...}, "output": ..., "duration_ms": 812},
 *    {"type": "condition", "prompt": "Is 4 even?", "context": null, "result": true, "explanation": "...", "duration_ms": 640}]}
 * }</pre>
 * An interaction may also say what its LLM requests spent, {@code "tokens": {"prompt": 812, "completion": 96}},
 * and a tool interaction whose answer was streamed (the planner's) keeps its pieces with when each
 * arrived, {@code "chunks": [{"text": "[{\"seq_no\"", "at_ms": 412}, ...]}}; replay reports both again
 * ({@code --replay-timing} re-emits the pieces at their recorded pace). Both are optional. A tool
 * interaction may hold {@code "error"} (text) instead of {@code "output"}: the call failed, and a replay
 * fails it again with that message and kind ({@code "error_kind"}: {@code "timeout"} or {@code "denied"};
 * absent is {@code "tool_error"}), see {@link Recording#keepingFailures()}.
 *
 * <p>A plan tool's call whose child run was recorded is marked {@code "child_run": true} and holds the
 * child's interactions under it, {@code "child_interactions": [...]} (nested again for a child's child); a
 * cassette of an earlier version kept them flat, before the call, and reads as before. A replay serves both
 * from {@link #flat()}.
 *
 * {@code clock} (optional) is the recorded run's clock: a replay takes it, so the plan's date/time
 * helpers compute the dates they computed when it was recorded (and the params match).
 *
 * @param clock the recorded run's clock, or {@code null} (a cassette of an earlier version, or written by hand)
 */
public record Cassette(List<Interaction> interactions, RecordedClock clock) {

    /**
     * The clock of the run a cassette recorded.
     *
     * @param now  the run's "now"
     * @param zone the run's time zone
     */
    public record RecordedClock(Instant now, ZoneId zone) {
        public RecordedClock {
            Objects.requireNonNull(now, "now");
            Objects.requireNonNull(zone, "zone");
        }
    }

    /** A cassette with no recorded clock. */
    public Cassette(List<Interaction> interactions) {
        this(interactions, null);
    }

    /** This cassette with the recorded run's clock. */
    public Cassette withClock(RecordedClock value) {
        return new Cassette(interactions, value);
    }

    public static final String FORMAT = "planvm-cassette/1";

    /** The largest cassette file {@link #read(Path)} reads: 64 MiB. */
    public static final long MAX_BYTES = 64L * 1024 * 1024;

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);

    public Cassette {
        interactions = List.copyOf(interactions);
    }

    /**
     * Every interaction, those nested under a plan tool's call ({@link Interaction.ToolInteraction#children})
     * included, each child run's before the call that started it, with none nested: the order a flat cassette
     * of an earlier version keeps them in, which a replay serves from.
     */
    public List<Interaction> flat() {
        if (interactions.stream()
                .noneMatch(i -> i instanceof Interaction.ToolInteraction tool
                        && !tool.children().isEmpty())) {
            return interactions;
        }
        List<Interaction> flat = new ArrayList<>();
        flatten(interactions, flat, 0);
        return List.copyOf(flat);
    }

    private static void flatten(List<Interaction> interactions, List<Interaction> into, int depth) {
        if (depth > 64) {
            throw new CassetteException("child interactions are nested more than 64 deep");
        }
        for (Interaction interaction : interactions) {
            if (interaction instanceof Interaction.ToolInteraction tool
                    && !tool.children().isEmpty()) {
                flatten(tool.children(), into, depth + 1);
                into.add(tool.withoutChildren());
            } else {
                into.add(interaction);
            }
        }
    }

    /** The tool names the cassette answers for. */
    public Set<String> tools() {
        Set<String> names = new TreeSet<>();
        for (Interaction interaction : flat()) {
            if (interaction instanceof Interaction.ToolInteraction tool) {
                names.add(tool.tool());
            }
        }
        return names;
    }

    public boolean hasConditions() {
        return flat().stream().anyMatch(i -> i instanceof Interaction.ConditionInteraction);
    }

    /**
     * This cassette without the interactions that {@code served} calls consumed (for each call, the
     * first interaction it matches, in order): what a resumed run may still be served, {@link #flat()}.
     */
    public Cassette remaining(List<Call> served) {
        List<Interaction> left = new ArrayList<>(flat());
        for (Call call : served) {
            for (int i = 0; i < left.size(); i++) {
                if (CassettePlayer.matches(left.get(i), call)) {
                    left.remove(i);
                    break;
                }
            }
        }
        return new Cassette(left, clock);
    }

    /**
     * Reads and checks a cassette file of at most {@link #MAX_BYTES}; every problem is a
     * {@link CassetteException} naming the file and where in it.
     */
    public static Cassette read(Path file) {
        return read(file, MAX_BYTES);
    }

    /**
     * Reads and checks a cassette file. Cassettes are untrusted: a file over {@code maxBytes} is
     * refused before it is read; malformed JSON, a duplicate key and text after the document are
     * refused with their line and column; a {@code duration_ms} that is not a number of
     * milliseconds and a value JSON cannot hold ({@link JsonValues}) with their JSON pointer.
     */
    public static Cassette read(Path file, long maxBytes) {
        return fromJson(CassetteReader.read(file, maxBytes), file.toString());
    }

    /** Parses a cassette document; {@code source} names it in messages. */
    public static Cassette fromJson(JsonNode document, String source) {
        if (document == null || !FORMAT.equals(document.path("format").asText())) {
            throw new CassetteException(source + ": not a cassette: \"format\" must be \"" + FORMAT + "\"");
        }
        JsonNode list = document.path("interactions");
        if (!list.isArray()) {
            throw new CassetteException(source + ": \"interactions\" must be an array");
        }
        JsonValues.find(list).ifPresent(problem -> {
            throw new CassetteException(
                    source + ": " + new JsonValues.Problem("/interactions" + problem.pointer(), problem.description()));
        });
        return new Cassette(interactions(list, source + ": /interactions", 0), clock(document.get("clock"), source));
    }

    private static List<Interaction> interactions(JsonNode list, String where, int depth) {
        if (depth > 64) {
            throw new CassetteException(where + ": child interactions are nested more than 64 deep");
        }
        List<Interaction> interactions = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            interactions.add(interaction(list.get(i), where + "/" + i, depth));
        }
        return interactions;
    }

    /** The recorded clock: absent or null is none; anything else must be {@code {"now": instant, "tz": zone}}. */
    private static RecordedClock clock(JsonNode clock, String source) {
        if (clock == null || clock.isNull()) {
            return null;
        }
        try {
            if (clock.isObject()
                    && clock.path("now").isTextual()
                    && clock.path("tz").isTextual()) {
                return new RecordedClock(
                        Instant.parse(clock.get("now").textValue()),
                        ZoneId.of(clock.get("tz").textValue()));
            }
        } catch (DateTimeException e) {
            // refused below
        }
        throw new CassetteException(source + ": /clock must be {\"now\": an instant such as \"2026-11-26T08:00:00Z\", "
                + "\"tz\": a time zone such as \"Europe/Oslo\"}");
    }

    private static Interaction interaction(JsonNode item, String where, int depth) {
        String type = item.path("type").asText();
        long duration = duration(item.get("duration_ms"), where);
        if (type.equals("tool")) {
            boolean failed = !item.has("output") && item.path("error").isTextual();
            if (!item.path("tool").isTextual() || (!item.has("output") && !failed)) {
                throw new CassetteException(
                        where + ": a tool interaction needs \"tool\" (text) and \"output\" (or \"error\", text)");
            }
            JsonNode params = item.has("params") ? item.get("params") : MAPPER.createObjectNode();
            return new Interaction.ToolInteraction(
                    item.get("tool").asText(),
                    params,
                    failed ? NullNode.getInstance() : item.get("output"),
                    duration,
                    StreamRecord.chunks(item, duration, where),
                    StreamRecord.tokens(item, where),
                    failed ? item.get("error").asText() : null,
                    failed ? errorKind(item.get("error_kind"), where) : null,
                    item.path("child_run").asBoolean(false) || item.has("child_interactions"),
                    children(item.get("child_interactions"), where, depth),
                    waiting(item, failed, where));
        }
        if (type.equals("condition")) {
            if (!item.path("prompt").isTextual() || !item.path("result").isBoolean()) {
                throw new CassetteException(
                        where + ": a condition interaction needs \"prompt\" (text) and \"result\" (boolean)");
            }
            JsonNode context = item.has("context") ? item.get("context") : NullNode.getInstance();
            return new Interaction.ConditionInteraction(
                    item.get("prompt").asText(),
                    context,
                    item.get("result").asBoolean(),
                    item.path("explanation").asText(""),
                    duration,
                    StreamRecord.tokens(item, where));
        }
        throw new CassetteException(where + ": \"type\" must be \"tool\" or \"condition\", not \"" + type + "\"");
    }

    /** Whether a plan tool's call stopped waiting: {@code "waiting": true} needs its {@code "error"}, the reason. */
    private static boolean waiting(JsonNode item, boolean failed, String where) {
        JsonNode waiting = item.get("waiting");
        if (waiting == null || waiting.isNull() || (waiting.isBoolean() && !waiting.booleanValue())) {
            return false;
        }
        boolean childRun = item.path("child_run").asBoolean(false) || item.has("child_interactions");
        if (!waiting.isBoolean() || !failed || !childRun) {
            throw new CassetteException(where + ": \"waiting\": true marks a plan tool's call whose child run waits;"
                    + " it needs \"child_run\": true, \"error\" (what the child waits for) and no \"output\"");
        }
        return true;
    }

    /** The interactions of a child run nested under a plan tool's call: absent is none; else an array of them. */
    private static List<Interaction> children(JsonNode list, String where, int depth) {
        if (list == null || list.isNull()) {
            return List.of();
        }
        if (!list.isArray()) {
            throw new CassetteException(where + "/child_interactions must be an array of interactions");
        }
        return interactions(list, where + "/child_interactions", depth + 1);
    }

    /** A failure's recorded kind: absent is {@code tool_error}; otherwise one of the kinds' labels. */
    private static ToolException.Kind errorKind(JsonNode kind, String where) {
        if (kind == null || kind.isNull()) {
            return ToolException.Kind.TOOL_ERROR;
        }
        for (ToolException.Kind known : ToolException.Kind.values()) {
            if (known.label().equals(kind.asText()) && kind.isTextual()) {
                return known;
            }
        }
        throw new CassetteException(where + "/error_kind must be \"tool_error\", \"timeout\" or \"denied\", not "
                + TerminalText.safe(kind.toString()));
    }

    /** A recorded duration: absent is 0; otherwise a number of milliseconds, 0 or more (a fraction is cut). */
    private static long duration(JsonNode duration, String where) {
        if (duration == null || duration.isNull()) {
            return 0;
        }
        if (!duration.isNumber() || duration.doubleValue() < 0) {
            throw new CassetteException(
                    where + "/duration_ms must be a number of milliseconds, 0 or more, not " + duration);
        }
        return duration.canConvertToLong() ? duration.longValue() : Long.MAX_VALUE;
    }

    /** The cassette as its JSON document. */
    public ObjectNode toJson() {
        ObjectNode document = MAPPER.createObjectNode();
        document.put("format", FORMAT);
        if (clock != null) {
            document.putObject("clock")
                    .put("now", clock.now().toString())
                    .put("tz", clock.zone().getId());
        }
        write(interactions, document.putArray("interactions"));
        return document;
    }

    private static void write(List<Interaction> interactions, ArrayNode list) {
        for (Interaction interaction : interactions) {
            ObjectNode item = list.addObject();
            if (interaction instanceof Interaction.ToolInteraction tool) {
                item.put("type", "tool").put("tool", tool.tool());
                item.set("params", tool.params());
                if (tool.failed()) {
                    item.put("error", tool.error());
                    if (tool.errorKind() != ToolException.Kind.TOOL_ERROR) {
                        item.put("error_kind", tool.errorKind().label());
                    }
                } else {
                    item.set("output", tool.output());
                }
                if (!tool.chunks().isEmpty()) {
                    item.set("chunks", StreamRecord.toJson(tool.chunks()));
                }
                if (tool.childRun()) {
                    item.put("child_run", true);
                }
                if (tool.waiting()) {
                    item.put("waiting", true);
                }
                if (!tool.children().isEmpty()) {
                    write(tool.children(), item.putArray("child_interactions"));
                }
            } else {
                Interaction.ConditionInteraction condition = (Interaction.ConditionInteraction) interaction;
                item.put("type", "condition").put("prompt", condition.prompt());
                item.set("context", condition.context());
                item.put("result", condition.result()).put("explanation", condition.explanation());
            }
            item.put("duration_ms", interaction.durationMs());
            if (!interaction.tokens().isZero()) {
                item.set("tokens", interaction.tokens().toJson());
            }
        }
    }

    /** Writes the cassette atomically: readers see the old file or the whole new one. */
    public void write(Path file) {
        try {
            JsonFiles.writePretty(file, toJson());
        } catch (IOException e) {
            throw new CassetteException(e.getMessage(), e); // AtomicFiles: "cannot write FILE: why"
        }
    }
}
