package dev.planvm.instructions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A loaded, valid plan: its instructions typed and sorted by {@code seq_no}. Immutable, so one
 * plan can be run many times, concurrently. Obtain one from {@link PlanLoader}.
 *
 * <p>A plan compiled from another language (a YAML or JavaScript dialect) also knows the source
 * line of each instruction ({@link #sourceLine}), so traces and errors can name the line the user
 * wrote; a plan loaded from StackVM JSON has none.
 */
public final class Plan {

    /** The variable that holds a plan's result (DESIGN P11). */
    public static final String FINAL_ANSWER = "final_answer";

    /**
     * Seed 001's {@code use}: a plan that ends with this variable {@code true} hands its {@code final_answer}
     * back to the LLM that wrote it, for another planning round, instead of answering (its counterpart,
     * {@code return}, is {@code final_answer} alone). The JavaScript dialect's {@code use EXPR;} compiles to
     * it; only the JSON value {@code true} marks a run, anything else leaves the variable an ordinary one.
     */
    public static final String USE = "use";

    private final String source;
    private final JsonNode document;
    private final List<Instruction> instructions;
    private final Map<Integer, Integer> positions;
    private final Map<Integer, Integer> sourceLines;
    private volatile String digest;

    Plan(String source, JsonNode document, List<Instruction> sortedInstructions) {
        this(source, document, sortedInstructions, Map.of());
    }

    private Plan(
            String source, JsonNode document, List<Instruction> sortedInstructions, Map<Integer, Integer> sourceLines) {
        this.source = Objects.requireNonNull(source, "source");
        this.document = Objects.requireNonNull(document, "document");
        this.instructions = List.copyOf(sortedInstructions);
        Map<Integer, Integer> byPosition = new HashMap<>();
        for (int i = 0; i < instructions.size(); i++) {
            byPosition.put(instructions.get(i).seqNo(), i);
        }
        this.positions = Map.copyOf(byPosition);
        this.sourceLines = Map.copyOf(sourceLines);
    }

    /**
     * What the plan says about itself when its document is the object form: its name as a plan tool,
     * its description, the schema of its inputs and of its output.
     */
    public java.util.Optional<PlanSignature> signature() {
        return PlanSignature.of(document);
    }

    /**
     * This plan with the source line of each {@code seq_no} (lines count from 1; a {@code seq_no}
     * that is not the plan's is ignored).
     */
    public Plan withSourceLines(Map<Integer, Integer> lines) {
        Map<Integer, Integer> known = new HashMap<>();
        lines.forEach((seqNo, line) -> {
            if (positions.containsKey(seqNo) && line != null && line > 0) {
                known.put(seqNo, line);
            }
        });
        Plan plan = new Plan(source, document, instructions, known);
        plan.digest = digest;
        return plan;
    }

    /** The source line of each {@code seq_no} of a compiled plan; empty for a JSON plan. */
    public Map<Integer, Integer> sourceLines() {
        return sourceLines;
    }

    /** The line of the source that instruction {@code seqNo} was compiled from, if the plan knows it. */
    public OptionalInt sourceLine(int seqNo) {
        Integer line = sourceLines.get(seqNo);
        return line == null ? OptionalInt.empty() : OptionalInt.of(line);
    }

    /** Where the plan came from (a file name, or a caller-chosen label). */
    public String source() {
        return source;
    }

    /** The plan document as read. */
    public JsonNode document() {
        return document;
    }

    /** The instructions in ascending {@code seq_no} order: the order they run in. */
    public List<Instruction> instructions() {
        return instructions;
    }

    /** The position of {@code seqNo} in {@link #instructions()}. */
    public int positionOf(int seqNo) {
        Integer position = positions.get(seqNo);
        if (position == null) {
            throw new NoSuchElementException("no instruction has seq_no " + seqNo);
        }
        return position;
    }

    /** The instruction with this {@code seq_no}. */
    public Instruction instruction(int seqNo) {
        return instructions.get(positionOf(seqNo));
    }

    /** SHA-256 of the plan document (compact JSON), hex: identifies the plan in traces. Computed once. */
    public String digest() {
        String known = digest;
        if (known == null) {
            known = computeDigest();
            digest = known;
        }
        return known;
    }

    private String computeDigest() {
        try {
            byte[] json = PlanReader.MAPPER.writeValueAsString(document).getBytes(StandardCharsets.UTF_8);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot digest the plan", e);
        }
    }
}
