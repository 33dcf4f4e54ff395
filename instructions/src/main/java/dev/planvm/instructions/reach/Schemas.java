package dev.planvm.instructions.reach;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The JSON Schemas of the reach report and of the policy section, read from this package's resources. */
final class Schemas {

    private Schemas() {}

    static JsonNode read(String resource) {
        try (InputStream in = Schemas.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the class path");
            }
            return JsonMappers.mapper(JsonLimits.STORE).readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
