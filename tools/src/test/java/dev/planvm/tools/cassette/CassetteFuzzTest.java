package dev.planvm.tools.cassette;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.json.JsonEquality;
import dev.planvm.json.JsonValues;
import java.nio.charset.StandardCharsets;

/**
 * Cassettes are untrusted, so reading one must turn any bytes into a {@link Cassette} or a
 * {@link CassetteException} that names the source — no other exception, no stack overflow, no
 * hang — and a cassette that reads holds only values JSON can hold, with durations of 0 or more,
 * and reads back the same after it is written. Under plain {@code mvn test} this runs once per
 * file in {@code CassetteFuzzTestInputs} (the stored cassettes, broken ones); with
 * {@code JAZZER_FUZZ=1} Jazzer mutates them (see bench/README.md, "Fuzzing").
 */
class CassetteFuzzTest {

    private static final long MAX_BYTES = 1 << 20;

    @FuzzTest(maxDuration = "30s")
    void any_bytes_read_to_a_cassette_or_a_located_refusal(byte[] bytes) {
        Cassette cassette;
        try {
            JsonNode document = CassetteReader.parse("fuzz.json", bytes, MAX_BYTES);
            cassette = Cassette.fromJson(document, "fuzz.json");
        } catch (CassetteException refused) {
            if (!refused.getMessage().startsWith("fuzz.json: ")
                    || refused.getMessage().contains("\n")) {
                throw new AssertionError(
                        "a refusal that does not name the source on one line: " + refused.getMessage());
            }
            return;
        }
        for (Interaction interaction : cassette.interactions()) {
            if (interaction.durationMs() < 0) {
                throw new AssertionError("a negative duration: " + interaction);
            }
        }
        JsonNode written = cassette.toJson();
        JsonValues.problem(written).ifPresent(problem -> {
            throw new AssertionError("a value JSON cannot hold: " + problem);
        });
        byte[] again = written.toPrettyString().getBytes(StandardCharsets.UTF_8);
        JsonNode reread = Cassette.fromJson(
                        CassetteReader.parse("again.json", again, Long.MAX_VALUE >> 1), "again.json")
                .toJson();
        if (!JsonEquality.equal(written, reread)) {
            throw new AssertionError("the cassette reads back different: " + written + " then " + reread);
        }
    }
}
