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

/**
 * A loaded, valid plan: its instructions typed and sorted by {@code seq_no}. Immutable, so one
 * plan can be run many times, concurrently. Obtain one from {@link PlanLoader}.
 */
public final class Plan {

    private final String source;
    private final JsonNode document;
    private final List<Instruction> instructions;
    private final Map<Integer, Integer> positions;
    private volatile String digest;

    Plan(String source, JsonNode document, List<Instruction> sortedInstructions) {
        this.source = Objects.requireNonNull(source, "source");
        this.document = Objects.requireNonNull(document, "document");
        this.instructions = List.copyOf(sortedInstructions);
        Map<Integer, Integer> byPosition = new HashMap<>();
        for (int i = 0; i < instructions.size(); i++) {
            byPosition.put(instructions.get(i).seqNo(), i);
        }
        this.positions = Map.copyOf(byPosition);
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
