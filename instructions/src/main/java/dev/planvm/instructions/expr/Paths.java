package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.json.JsonText;

/**
 * Path steps {@code a.b}, {@code a[0]} and {@code a['k']}, and their error messages.
 *
 * <p>A step applied to text navigates into the JSON object or array the text holds (see
 * {@link JsonText#parse}); a part of the day applied to a date/time ({@code tomorrow.morning}) is
 * that time on its date. Every failure names the path read so far and the step that failed; the
 * path text is only built when a step fails.
 */
final class Paths {

    private static final int KEYS_SHOWN = 10;

    private Paths() {}

    /** {@code target.name}, where {@code target} is the value of {@code step.target()}. */
    static JsonNode member(JsonNode target, Expr.Member step, Variables vars) {
        String name = step.name();
        if (target.isObject()) {
            JsonNode value = target.get(name);
            if (value != null) {
                return value;
            }
            throw missingKey(target, name, step, vars);
        }
        if (target.isTextual()) {
            java.util.Optional<JsonNode> part = DateFunctions.partOfDay(target, name, vars);
            if (part.isPresent()) {
                return part.get();
            }
            JsonNode parsed = JsonText.parse(target.textValue()).orElse(null);
            if (parsed != null && parsed.isObject()) {
                return member(parsed, step, vars);
            }
            throw wrongKind(target, parsed, "an object", "'" + name + "'", step, vars);
        }
        throw wrongKind(target, null, "an object", "'" + name + "'", step, vars);
    }

    /** {@code target[key]}: a text key on an object, a whole-number key on an array. */
    static JsonNode index(JsonNode target, JsonNode key, Expr.Index step, Variables vars) {
        JsonNode container = target;
        if (target.isTextual()) {
            container = JsonText.parse(target.textValue()).orElse(null);
        }
        if (key.isTextual()) {
            if (container != null && container.isObject()) {
                JsonNode value = container.get(key.textValue());
                if (value != null) {
                    return value;
                }
                throw missingKey(container, key.textValue(), step, vars);
            }
            throw wrongKind(target, container, "an object", Values.quote(key.textValue()), step, vars);
        }
        if (key.isNumber()) {
            String shown = "[" + JsNumbers.render(key) + "]";
            if (container != null && container.isArray()) {
                return element(container, key, step, vars);
            }
            throw wrongKind(target, container, "an array", shown, step, vars);
        }
        throw fail(
                "the index of '" + pathOf(step.target(), vars) + "' must be text or a number, got "
                        + Values.describe(key),
                step,
                vars);
    }

    private static JsonNode element(JsonNode array, JsonNode key, Expr.Index step, Variables vars) {
        double d = key.doubleValue();
        String target = pathOf(step.target(), vars);
        if (d != Math.rint(d)) {
            throw fail(
                    "'" + target + "' has no element " + JsNumbers.render(key) + ": an index must be a whole number",
                    step,
                    vars);
        }
        if (d < 0 || d >= array.size()) {
            throw fail(
                    "'" + target + "' has no element " + JsNumbers.render(key) + " (" + describeSize(array.size())
                            + ")",
                    step,
                    vars);
        }
        return array.get((int) d);
    }

    private static String describeSize(int size) {
        if (size == 0) {
            return "it is empty";
        }
        return "it has " + size + (size == 1 ? " element" : " elements");
    }

    private static EvaluationException missingKey(JsonNode object, String key, Expr step, Variables vars) {
        String has = object.size() == 0 ? "it is empty" : "it has: " + Values.keyList(object, KEYS_SHOWN);
        return fail(
                "'" + pathOf(targetOf(step), vars) + "' has no key " + Values.quote(key) + " (" + has + ")",
                step,
                vars);
    }

    /**
     * A step that does not fit the value: text holding no JSON, the wrong kind of container, or a
     * scalar.
     *
     * @param parsed what the text {@code target} holds, or null
     */
    private static EvaluationException wrongKind(
            JsonNode target, JsonNode parsed, String wanted, String shownStep, Expr step, Variables vars) {
        String what = "'" + pathOf(targetOf(step), vars) + "'";
        String read = ": cannot read " + shownStep;
        if (target.isTextual()) {
            String holds = parsed == null ? " is text, not " : " holds " + Values.typeName(parsed) + ", not ";
            return fail(what + holds + wanted + read, step, vars);
        }
        if (target.isNull() || target.isMissingNode()) {
            return fail(what + " is null" + read, step, vars);
        }
        String hint = "";
        if (target.isArray() && step instanceof Expr.Member member && isSizeName(member.name())) {
            hint = " (use len(" + pathOf(targetOf(step), vars) + "))";
        }
        return fail(what + " is " + Values.typeName(target) + ", not " + wanted + read + hint, step, vars);
    }

    private static boolean isSizeName(String name) {
        return name.equals("length") || name.equals("size") || name.equals("count");
    }

    private static EvaluationException fail(String message, Expr step, Variables vars) {
        return new EvaluationException(message, rootVariable(step), pathOf(step, vars));
    }

    private static Expr targetOf(Expr step) {
        if (step instanceof Expr.Member member) {
            return member.target();
        }
        if (step instanceof Expr.Index index) {
            return index.target();
        }
        throw new IllegalArgumentException("not a member or index step: " + step);
    }

    /** The variable a path starts from, or null when it starts from something else. */
    static String rootVariable(Expr e) {
        Expr base = e;
        while (base instanceof Expr.Member || base instanceof Expr.Index) {
            base = targetOf(base);
        }
        return base instanceof Expr.Variable variable ? variable.name() : null;
    }

    /**
     * The path text of {@code e} for messages, with computed indexes shown by value:
     * {@code user.address}, {@code items[2].name}, {@code row['first name']}.
     */
    static String pathOf(Expr e, Variables vars) {
        if (e instanceof Expr.Variable variable) {
            return variable.name();
        }
        if (e instanceof Expr.Member m) {
            return pathOf(m.target(), vars) + "." + m.name();
        }
        if (e instanceof Expr.Index i) {
            return pathOf(i.target(), vars) + "[" + indexText(i.index(), vars) + "]";
        }
        String source = Exprs.render(e);
        return e instanceof Expr.Binary || e instanceof Expr.Unary ? "(" + source + ")" : source;
    }

    /** An index as a literal: its value when it can be computed, else its source. */
    private static String indexText(Expr index, Variables vars) {
        JsonNode key;
        try {
            key = Evaluator.eval(index, vars);
        } catch (EvaluationException e) {
            return Exprs.render(index);
        }
        if (key.isTextual()) {
            return "'" + key.textValue().replace("\\", "\\\\").replace("'", "\\'") + "'";
        }
        return key.isNumber() ? JsNumbers.render(key) : Exprs.render(index);
    }
}
