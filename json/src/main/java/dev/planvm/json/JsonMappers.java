package dev.planvm.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The one place planvm builds Jackson mappers and parser factories, each enforcing a named
 * {@link JsonLimits} profile.
 *
 * <p>Mappers are costly to build and thread-safe once built, so each profile's mapper is built
 * once, on first use, and shared: <b>never reconfigure a mapper from here</b> (no {@code enable},
 * {@code configure} or {@code registerModule}); derive an {@code ObjectReader} or
 * {@code ObjectWriter} instead, which are immutable.
 */
public final class JsonMappers {

    /** Limits not among the named ones (a plan loader's own limits, say) are cached up to this many. */
    private static final int MAX_CACHED = 64;

    private static final ConcurrentMap<Key, ObjectMapper> SHARED = new ConcurrentHashMap<>();

    private JsonMappers() {}

    private record Key(JsonLimits limits, boolean lenientBinding) {

        // written out: a record's generated equals and hashCode link through invokedynamic on first use,
        // which costs a start of the command line a few milliseconds (every command reaches this map)
        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && lenientBinding == key.lenientBinding && limits.equals(key.limits);
        }

        @Override
        public int hashCode() {
            return 31 * limits.hashCode() + Boolean.hashCode(lenientBinding);
        }
    }

    /** The shared mapper that reads within {@code limits}. */
    public static ObjectMapper mapper(JsonLimits limits) {
        return shared(new Key(limits, false));
    }

    /**
     * The shared mapper for {@code limits} that binds objects to Java types ignoring properties the
     * type does not have (as a protocol SDK's records need: a newer peer may send more).
     */
    public static ObjectMapper lenientBinding(JsonLimits limits) {
        return shared(new Key(limits, true));
    }

    /** The shared factory of {@link #mapper(JsonLimits)}: for streaming parsers and generators. */
    public static JsonFactory factory(JsonLimits limits) {
        return mapper(limits).getFactory();
    }

    /** A writer of indented JSON (Jackson's default pretty printer: two spaces, {@code " : "}). */
    public static ObjectWriter pretty() {
        return mapper(JsonLimits.STORE).writerWithDefaultPrettyPrinter();
    }

    private static ObjectMapper shared(Key key) {
        ObjectMapper mapper = SHARED.get(key);
        if (mapper != null) {
            return mapper;
        }
        if (SHARED.size() >= MAX_CACHED) {
            return build(key);
        }
        return SHARED.computeIfAbsent(key, JsonMappers::build);
    }

    private static ObjectMapper build(Key key) {
        JsonLimits limits = key.limits();
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(limits.constraints())
                .configure(StreamReadFeature.STRICT_DUPLICATE_DETECTION, limits.noDuplicateKeys())
                .build();
        return JsonMapper.builder(factory)
                .configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, limits.oneValue())
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, !key.lenientBinding())
                .build();
    }
}
