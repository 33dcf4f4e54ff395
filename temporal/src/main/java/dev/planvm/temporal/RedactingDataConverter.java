package dev.planvm.temporal;

import dev.planvm.temporal.internal.RedactingCodec;
import dev.planvm.tools.Redactor;
import io.temporal.common.converter.CodecDataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Temporal's default data converter with a payload codec that redacts secrets: every payload a
 * client or worker built on it sends to the server is written with each secret it knows, in every
 * form planvm's {@link Redactor} catches, replaced by {@code «secret:NAME»}. Workers that hold
 * secrets must be built on a client with this converter ({@link PlanWorkers} checks it):
 *
 * <pre>{@code
 * WorkflowClient client = WorkflowClient.newInstance(stubs, WorkflowClientOptions.newBuilder()
 *         .setNamespace("default").setDataConverter(RedactingDataConverter.of(secrets)).build());
 * }</pre>
 */
public final class RedactingDataConverter extends CodecDataConverter {

    private final Map<String, String> secrets;

    private RedactingDataConverter(Map<String, String> secrets) {
        super(DefaultDataConverter.newDefaultInstance(), List.of(new RedactingCodec(Redactor.of(secrets))));
        this.secrets = secrets;
    }

    /**
     * @param secrets secret name to value; values shorter than {@link Redactor#MIN_LENGTH} cannot be
     *                redacted reliably and are refused
     */
    public static RedactingDataConverter of(Map<String, String> secrets) {
        return new RedactingDataConverter(Map.copyOf(new LinkedHashMap<>(secrets)));
    }

    /** Whether this converter redacts {@code name} with this very {@code value}. */
    public boolean redacts(String name, String value) {
        return value.equals(secrets.get(name));
    }
}
