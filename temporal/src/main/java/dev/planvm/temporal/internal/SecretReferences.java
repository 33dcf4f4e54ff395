package dev.planvm.temporal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.ToolException;
import java.util.Map;

/**
 * Secrets cross a workflow as references: the plan's secret variable {@code NAME} holds the text
 * {@code «secret:NAME»} (what redaction writes for it anyway), and the worker that calls a tool
 * replaces every reference in the params with the value it holds. So a secret's value is only
 * ever on the worker that needs it, never in a workflow's history.
 */
public final class SecretReferences {

    private static final String START = "«secret:";
    private static final String END = "»";

    private final Map<String, String> values;

    /** @param values secret name to value, as this worker holds them */
    public SecretReferences(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    /** The reference a plan sees for secret {@code name}. */
    public static String reference(String name) {
        return START + name + END;
    }

    /**
     * {@code value} with every reference in its texts replaced by the secret's value.
     *
     * @throws ToolException (not retriable) naming a secret this worker does not hold
     */
    public JsonNode resolve(JsonNode value) {
        if (value == null) {
            return null;
        }
        if (value.isTextual()) {
            String text = value.textValue();
            return text.contains(START) ? TextNode.valueOf(resolve(text)) : value;
        }
        if (value.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            value.properties().forEach(field -> copy.set(field.getKey(), resolve(field.getValue())));
            return copy;
        }
        if (value.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            value.forEach(element -> copy.add(resolve(element)));
            return copy;
        }
        return value;
    }

    /** {@code text} with every reference replaced by the secret's value. */
    public String resolve(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int from = 0;
        for (int at = text.indexOf(START); at >= 0; at = text.indexOf(START, from)) {
            int end = text.indexOf(END, at + START.length());
            if (end < 0) {
                break;
            }
            String name = text.substring(at + START.length(), end);
            String secret = values.get(name);
            if (secret == null) {
                throw ToolException.permanent("the secret '" + name
                        + "' is not set on this worker: start it with --secret " + name
                        + " (the value from the environment variable " + name + ") or --secret " + name + "=VALUE");
            }
            out.append(text, from, at).append(secret);
            from = end + END.length();
        }
        return out.append(text, from, text.length()).toString();
    }
}
