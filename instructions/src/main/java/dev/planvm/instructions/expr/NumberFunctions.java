package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.json.JsonEquality;

/** Builtins over numbers: num, abs, round, floor, ceil, min, max. */
final class NumberFunctions {

    /** From this magnitude on every double is a whole number. */
    private static final double ALL_WHOLE = 4503599627370496.0;

    private NumberFunctions() {}

    static JsonNode num(JsonNode x) {
        if (x.isNumber()) {
            return x;
        }
        if (x.isBoolean()) {
            return JsNumbers.number(x.booleanValue() ? 1L : 0L);
        }
        if (x.isTextual()) {
            String text = x.textValue().strip();
            if (isDecimal(text)) {
                return JsNumbers.number(Double.parseDouble(text));
            }
            throw new EvaluationException("cannot convert " + Values.quote(x.textValue()) + " to a number");
        }
        throw new EvaluationException("cannot convert " + Values.describe(x) + " to a number");
    }

    /** Whether {@code s} is a plain decimal: {@code [+-]? (d+ (. d*)? | . d+) ([eE] [+-]? d+)?}. */
    static boolean isDecimal(String s) {
        int i = 0;
        int n = s.length();
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int intDigits = digits(s, i);
        i += intDigits;
        int fracDigits = 0;
        if (i < n && s.charAt(i) == '.') {
            i++;
            fracDigits = digits(s, i);
            i += fracDigits;
        }
        if (intDigits + fracDigits == 0) {
            return false;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int expDigits = digits(s, i);
            if (expDigits == 0) {
                return false;
            }
            i += expDigits;
        }
        return i == n;
    }

    private static int digits(String s, int from) {
        int i = from;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        return i - from;
    }

    static JsonNode abs(JsonNode x) {
        double d = number("abs", x);
        return d < 0 ? JsNumbers.number(-d) : x;
    }

    /** JavaScript's Math.round: halves go toward +infinity ({@code round(-2.5)} is -2). */
    static JsonNode round(JsonNode x) {
        double d = number("round", x);
        if (x.isIntegralNumber() || Math.abs(d) >= ALL_WHOLE) {
            return x;
        }
        return JsNumbers.number((double) Math.round(d));
    }

    static JsonNode floor(JsonNode x) {
        double d = number("floor", x);
        return x.isIntegralNumber() ? x : JsNumbers.number(Math.floor(d));
    }

    static JsonNode ceil(JsonNode x) {
        double d = number("ceil", x);
        return x.isIntegralNumber() ? x : JsNumbers.number(Math.ceil(d));
    }

    static JsonNode min(JsonNode[] args) {
        return extreme("min", args, -1);
    }

    static JsonNode max(JsonNode[] args) {
        return extreme("max", args, 1);
    }

    /** The first number that no other beats in direction {@code sign} (-1 for min, 1 for max). */
    private static JsonNode extreme(String function, JsonNode[] args, int sign) {
        JsonNode[] values = args;
        if (args.length == 1 && args[0].isArray()) {
            values = new JsonNode[args[0].size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = args[0].get(i);
            }
            if (values.length == 0) {
                throw new EvaluationException(function + "() of an empty array");
            }
        }
        JsonNode best = null;
        for (JsonNode v : values) {
            if (!v.isNumber()) {
                throw Builtins.needs(function, "numbers", v);
            }
            if (best == null || JsonEquality.compareNumbers(v, best) * sign > 0) {
                best = v;
            }
        }
        return best;
    }

    private static double number(String function, JsonNode x) {
        if (!x.isNumber()) {
            throw Builtins.needs(function, "a number", x);
        }
        return x.doubleValue();
    }
}
