package dev.planvm.tools.cassette;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A cassette keeps the recorded run's clock; one without (an earlier version) has none; a bad one is refused. */
class CassetteClockTest {

    private static JsonNode json(String text) throws Exception {
        return new ObjectMapper().readTree(text);
    }

    @Test
    void the_clock_round_trips_and_survives_remaining() throws Exception {
        Cassette cassette = Cassette.fromJson(json("""
                {"format": "planvm-cassette/1", "clock": {"now": "2026-11-26T11:00:00Z", "tz": "Europe/Oslo"},
                 "interactions": []}"""), "c.json");
        Cassette.RecordedClock expected =
                new Cassette.RecordedClock(Instant.parse("2026-11-26T11:00:00Z"), ZoneId.of("Europe/Oslo"));
        assertThat(cassette.clock()).isEqualTo(expected);
        assertThat(Cassette.fromJson(cassette.toJson(), "again").clock()).isEqualTo(expected);
        assertThat(cassette.remaining(List.of()).clock()).isEqualTo(expected);
        assertThat(cassette.toJson().fieldNames()).toIterable().containsExactly("format", "clock", "interactions");
    }

    @Test
    void a_cassette_without_a_clock_has_none() throws Exception {
        Cassette cassette =
                Cassette.fromJson(json("{\"format\": \"planvm-cassette/1\", \"interactions\": []}"), "c.json");
        assertThat(cassette.clock()).isNull();
        assertThat(cassette.toJson().has("clock")).isFalse();
    }

    @Test
    void a_malformed_clock_is_refused_with_its_place() {
        for (String clock : List.of(
                "\"yesterday\"",
                "{\"now\": \"noon\", \"tz\": \"UTC\"}",
                "{\"now\": \"2026-11-26T11:00:00Z\", \"tz\": \"Mars\"}",
                "{\"now\": \"2026-11-26T11:00:00Z\"}")) {
            assertThatThrownBy(() -> Cassette.fromJson(
                            json("{\"format\": \"planvm-cassette/1\", \"clock\": " + clock + ", \"interactions\": []}"),
                            "c.json"))
                    .isInstanceOf(CassetteException.class)
                    .hasMessage(
                            "c.json: /clock must be {\"now\": an instant such as \"2026-11-26T08:00:00Z\", \"tz\": a time zone"
                                    + " such as \"Europe/Oslo\"}");
        }
    }
}
