package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * JavaScript-like numbers over Jackson nodes.
 *
 * <p>Every number the evaluator computes passes through {@link #number(double)}: a whole number
 * below 2<sup>53</sup> in magnitude becomes an {@code IntNode} (or a {@code LongNode} when it does
 * not fit an int), anything else a {@code DoubleNode}; so {@code 6 / 2} is the integer 3 and
 * {@code 7 / 2} is 3.5. {@link #render(JsonNode)} writes numbers the way JavaScript's
 * {@code String(n)} does: {@code 3}, {@code 3.5}, {@code 1e+21}, {@code 1.5e-7},
 * {@code 0.30000000000000004} — never a trailing {@code .0}. Integer nodes (int, long, big
 * integer) render with all their digits, so large identifiers read from JSON stay intact.
 */
final class JsNumbers {

    /** 2^53: from here on, not every whole number is a double. */
    private static final double SAFE_LIMIT = 9007199254740992.0;

    private static final long SAFE_LIMIT_LONG = 1L << 53;
    /** Double.toString can give more digits than needed on Java 17 only from this length on. */
    private static final int SHORTEN_FROM_DIGITS = 16;

    private JsNumbers() {}

    /**
     * The node for {@code d}: integral and |d| &lt; 2^53 → IntNode or LongNode, else DoubleNode.
     *
     * @throws EvaluationException when {@code d} is NaN or infinite
     */
    public static JsonNode number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new EvaluationException("the result " + renderDouble(d) + " is not a finite number");
        }
        if (Math.abs(d) < SAFE_LIMIT && d == Math.rint(d)) {
            return number((long) d);
        }
        return DoubleNode.valueOf(d);
    }

    /** The node for a whole number, by the same rule as {@link #number(double)}. */
    static JsonNode number(long n) {
        if (n == (int) n) {
            return IntNode.valueOf((int) n);
        }
        if (n > -SAFE_LIMIT_LONG && n < SAFE_LIMIT_LONG) {
            return LongNode.valueOf(n);
        }
        return DoubleNode.valueOf((double) n);
    }

    /**
     * JavaScript's rendering of a number node.
     *
     * @throws IllegalArgumentException when {@code number} is not a number node
     */
    public static String render(JsonNode number) {
        if (!number.isNumber()) {
            throw new IllegalArgumentException("not a number: " + number.getNodeType());
        }
        if (number.isIntegralNumber()) {
            return number.asText();
        }
        return renderDouble(number.doubleValue());
    }

    /** JavaScript's {@code Number.prototype.toString()} of {@code d}. */
    static String renderDouble(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        if (d == 0) {
            return "0";
        }
        if (Math.abs(d) < SAFE_LIMIT && d == Math.rint(d)) {
            return Long.toString((long) d);
        }
        return d < 0 ? "-" + renderPositive(-d) : renderPositive(d);
    }

    private static String renderPositive(double d) {
        BigDecimal shortest = shortestDecimal(d);
        String digits = shortest.unscaledValue().toString();
        int k = digits.length();
        int n = k - shortest.scale();
        StringBuilder sb = new StringBuilder(k + 8);
        if (k <= n && n <= 21) {
            sb.append(digits);
            sb.append("0".repeat(n - k));
        } else if (0 < n && n <= 21) {
            sb.append(digits, 0, n).append('.').append(digits, n, k);
        } else if (-6 < n && n <= 0) {
            sb.append("0.").append("0".repeat(-n)).append(digits);
        } else {
            int exponent = n - 1;
            sb.append(digits.charAt(0));
            if (k > 1) {
                sb.append('.').append(digits, 1, k);
            }
            sb.append('e').append(exponent < 0 ? '-' : '+').append(Math.abs(exponent));
        }
        return sb.toString();
    }

    /** The decimal with the fewest significant digits that reads back as {@code d}. */
    private static BigDecimal shortestDecimal(double d) {
        BigDecimal best = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        int digits = best.precision();
        if (digits < SHORTEN_FROM_DIGITS) {
            return best;
        }
        BigDecimal exact = new BigDecimal(d);
        for (int p = digits - 1; p >= 1; p--) {
            BigDecimal rounded = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            if (rounded.doubleValue() != d) {
                break;
            }
            best = rounded.stripTrailingZeros();
        }
        return best;
    }
}
