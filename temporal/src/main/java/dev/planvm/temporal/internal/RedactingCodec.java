package dev.planvm.temporal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.tools.Redactor;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.EncodingKeys;
import io.temporal.payload.codec.PayloadCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The last guard of a worker's secrets: every payload it sends to the server (activity results,
 * workflow inputs and results, query answers, heartbeat details) that still holds one of the
 * secrets it knows, in any form the {@link Redactor} catches, is written with the secret replaced
 * by {@code «secret:NAME»}. A payload without a secret is sent as it was. Decoding changes
 * nothing: a redacted value cannot be restored.
 */
public final class RedactingCodec implements PayloadCodec {

    private static final ByteString JSON = ByteString.copyFromUtf8("json/plain");

    private final Redactor redactor;
    private final ObjectMapper mapper = JsonMappers.mapper(JsonLimits.STORE);

    public RedactingCodec(Redactor redactor) {
        this.redactor = redactor;
    }

    @Override
    public List<Payload> encode(List<Payload> payloads) {
        if (redactor.isEmpty()) {
            return payloads;
        }
        List<Payload> encoded = new ArrayList<>(payloads.size());
        for (Payload payload : payloads) {
            encoded.add(redacted(payload));
        }
        return encoded;
    }

    @Override
    public List<Payload> decode(List<Payload> payloads) {
        return payloads;
    }

    private Payload redacted(Payload payload) {
        ByteString encoding = payload.getMetadataOrDefault(EncodingKeys.METADATA_ENCODING_KEY, ByteString.EMPTY);
        boolean json = encoding.equals(JSON);
        if (!json && !encoding.toStringUtf8().startsWith("binary/plain")) {
            return payload; // protobuf and null payloads are planvm's own, never a value a plan computed
        }
        String text = payload.getData().toString(StandardCharsets.UTF_8);
        String redacted = redactor.redact(text);
        if (redacted.equals(text)) {
            return payload;
        }
        if (json) {
            try {
                JsonNode value = mapper.readTree(text);
                redacted = mapper.writeValueAsString(redactor.redact(value));
            } catch (IOException | RuntimeException unreadable) {
                // the text form, redacted as text, is what is sent
            }
        }
        return payload.toBuilder().setData(ByteString.copyFromUtf8(redacted)).build();
    }
}
