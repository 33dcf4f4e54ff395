package dev.planvm.dialects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * How both YAML dialects (plans and PPE scripts) read a plain scalar: by YAML 1.2's core schema. {@code null},
 * {@code ~} and the empty scalar are null, {@code true}/{@code false} (three spellings each) booleans, integers
 * of up to 18 characters ints (or longs when they do not fit), decimals of up to 40 characters doubles (not an
 * infinite one); anything else is text. A quoted scalar is always text: the caller does not ask.
 */
public final class YamlScalars {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Pattern INTEGER = Pattern.compile("[-+]?[0-9]+");
    private static final Pattern FLOAT = Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");

    private YamlScalars() {}

    /** The core-schema value of plain scalar {@code v} (null, boolean, number), or {@code null} when it is text. */
    public static JsonNode typed(String v) {
        switch (v) {
            case "", "~", "null", "Null", "NULL" -> {
                return JSON.nullNode();
            }
            case "true", "True", "TRUE" -> {
                return JSON.booleanNode(true);
            }
            case "false", "False", "FALSE" -> {
                return JSON.booleanNode(false);
            }
            default -> {}
        }
        if (v.length() <= 18 && INTEGER.matcher(v).matches()) {
            return number(Long.parseLong(v.startsWith("+") ? v.substring(1) : v));
        }
        if (v.length() <= 40 && FLOAT.matcher(v).matches()) {
            double x = new BigDecimal(v.startsWith("+") ? v.substring(1) : v).doubleValue();
            if (!Double.isInfinite(x)) {
                return JSON.numberNode(x);
            }
        }
        return null;
    }

    /** Int values that fit an int are IntNodes (as the plan loader reads them). */
    public static JsonNode number(long n) {
        return n == (int) n ? JSON.numberNode((int) n) : JSON.numberNode(n);
    }
}
