package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.json.JsonEquality;

/** The strict binary operators: arithmetic, equality and ordering ({@code && ||} are in the evaluator). */
final class Operators {

    private Operators() {}

    static JsonNode apply(BinaryOp op, JsonNode l, JsonNode r) {
        return switch (op) {
            case ADD -> add(l, r);
            case SUB, MUL, DIV, MOD -> arithmetic(op, l, r);
            case EQ -> BooleanNode.valueOf(JsonEquality.equal(l, r));
            case NE -> BooleanNode.valueOf(!JsonEquality.equal(l, r));
            default -> BooleanNode.valueOf(compare(op, l, r));
        };
    }

    /** Text on either side concatenates; numbers add; arrays concatenate. */
    static JsonNode add(JsonNode l, JsonNode r) {
        if (l.isTextual() || r.isTextual()) {
            BuildLimits.text(
                    "'+'", RenderedLength.of(l, BuildLimits.MAX_TEXT) + RenderedLength.of(r, BuildLimits.MAX_TEXT));
            return TextNode.valueOf(Interpolator.render(l) + Interpolator.render(r));
        }
        if (l.isNumber() && r.isNumber()) {
            if (l.isInt() && r.isInt()) {
                return JsNumbers.number((long) l.intValue() + r.intValue());
            }
            return JsNumbers.number(l.doubleValue() + r.doubleValue());
        }
        if (l instanceof ArrayNode left && r instanceof ArrayNode right) {
            BuildLimits.elements("'+'", (long) left.size() + right.size());
            ArrayNode sum = JsonNodeFactory.instance.arrayNode(left.size() + right.size());
            sum.addAll(left);
            sum.addAll(right);
            return sum;
        }
        throw new EvaluationException("cannot add " + Values.typeName(l) + " and " + Values.typeName(r));
    }

    private static JsonNode arithmetic(BinaryOp op, JsonNode l, JsonNode r) {
        if (!l.isNumber() || !r.isNumber()) {
            throw new EvaluationException("'" + op.symbol() + "' needs two numbers, got " + Values.describe(l) + " and "
                    + Values.describe(r) + numHint(l, r));
        }
        if ((op == BinaryOp.DIV || op == BinaryOp.MOD) && r.doubleValue() == 0) {
            throw new EvaluationException("division by zero");
        }
        if (l.isInt() && r.isInt()) {
            long a = l.intValue();
            long b = r.intValue();
            switch (op) {
                case SUB:
                    return JsNumbers.number(a - b);
                case MUL:
                    return JsNumbers.number(a * b);
                case MOD:
                    return JsNumbers.number(a % b);
                default:
                    break;
            }
        }
        double x = l.doubleValue();
        double y = r.doubleValue();
        return switch (op) {
            case SUB -> JsNumbers.number(x - y);
            case MUL -> JsNumbers.number(x * y);
            case DIV -> JsNumbers.number(x / y);
            default -> JsNumbers.number(x % y);
        };
    }

    /** {@code < <= > >=}: numbers by value, text by {@link String#compareTo}. */
    private static boolean compare(BinaryOp op, JsonNode l, JsonNode r) {
        int c;
        if (l.isNumber() && r.isNumber()) {
            double x = l.doubleValue();
            double y = r.doubleValue();
            if (Double.isNaN(x) || Double.isNaN(y)) {
                return false;
            }
            c = JsonEquality.compareNumbers(l, r);
        } else if (l.isTextual() && r.isTextual()) {
            c = l.textValue().compareTo(r.textValue());
        } else {
            throw new EvaluationException("cannot compare " + Values.describe(l) + " and " + Values.describe(r)
                    + " with '" + op.symbol() + "'" + numHint(l, r));
        }
        return switch (op) {
            case LT -> c < 0;
            case LE -> c <= 0;
            case GT -> c > 0;
            default -> c >= 0;
        };
    }

    /** A hint to use num() when a side is text that reads as a number. */
    private static String numHint(JsonNode l, JsonNode r) {
        boolean numericText = (l.isTextual()
                        && NumberFunctions.isDecimal(l.textValue().strip()))
                || (r.isTextual() && NumberFunctions.isDecimal(r.textValue().strip()));
        return numericText ? " (use num(x) to read text as a number)" : "";
    }
}
