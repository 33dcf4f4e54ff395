package dev.planvm.vm.expr;

import static java.util.Map.entry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.expr.Builtins;
import java.util.Map;

/**
 * The builtin functions, installed by name in one place. Each is one small static method of
 * {@link TextFunctions}, {@link NumberFunctions} or {@link CollectionFunctions}:
 *
 * <ul>
 *   <li>{@code len(x)}: code points of text, size of an array or object.</li>
 *   <li>{@code str(x)}: x rendered as text, as when embedded in a string.</li>
 *   <li>{@code num(x)}: a number as is; text read as a decimal number; true/false as 1/0.</li>
 *   <li>{@code json(x)}: text parsed as JSON (also a <code>```json</code> fence or an object in
 *       prose); any other value as is.</li>
 *   <li>{@code keys(x)}, {@code values(x)}: an object's keys / values in document order (also of
 *       text holding an object).</li>
 *   <li>{@code lower(s)}, {@code upper(s)}, {@code trim(s)}: of text.</li>
 *   <li>{@code contains(a, b)}: text contains rendered b; array has an element equal to b; object
 *       has key str(b).</li>
 *   <li>{@code join(array[, sep])}: rendered elements joined by sep (default ",");
 *       {@code split(text, sep)}: texts between the separators (each code point when sep is "").</li>
 *   <li>{@code abs round floor ceil}: of a number; {@code round} is JavaScript's Math.round.</li>
 *   <li>{@code min max}: of number arguments, or of a single array of numbers.</li>
 * </ul>
 */
final class Functions {

    /** A builtin applied to its evaluated arguments. */
    @FunctionalInterface
    interface Builtin {
        JsonNode call(JsonNode[] args);
    }

    private static final Map<String, Builtin> BUILTINS = Map.ofEntries(
            entry("len", args -> CollectionFunctions.len(args[0])),
            entry("str", args -> TextFunctions.str(args[0])),
            entry("num", args -> NumberFunctions.num(args[0])),
            entry("json", args -> TextFunctions.json(args[0])),
            entry("keys", args -> CollectionFunctions.keys(args[0])),
            entry("values", args -> CollectionFunctions.values(args[0])),
            entry("lower", args -> TextFunctions.lower(args[0])),
            entry("upper", args -> TextFunctions.upper(args[0])),
            entry("trim", args -> TextFunctions.trim(args[0])),
            entry("contains", args -> CollectionFunctions.contains(args[0], args[1])),
            entry("join", args -> CollectionFunctions.join(args[0], args.length > 1 ? args[1] : null)),
            entry("split", args -> TextFunctions.split(args[0], args[1])),
            entry("abs", args -> NumberFunctions.abs(args[0])),
            entry("round", args -> NumberFunctions.round(args[0])),
            entry("floor", args -> NumberFunctions.floor(args[0])),
            entry("ceil", args -> NumberFunctions.ceil(args[0])),
            entry("min", args -> NumberFunctions.min(args)),
            entry("max", args -> NumberFunctions.max(args)));

    private Functions() {
    }

    /** Whether {@code name} has an implementation here. */
    static boolean isImplemented(String name) {
        return BUILTINS.containsKey(name);
    }

    /** Calls builtin {@code name}; the arity is checked again, as the AST may not come from the parser. */
    static JsonNode call(String name, JsonNode[] args) {
        Builtin builtin = BUILTINS.get(name);
        Builtins.Arity arity = Builtins.FUNCTIONS.get(name);
        if (builtin == null || arity == null) {
            throw new EvaluationException("unknown function '" + name + "' (known: " + Builtins.knownList() + ")");
        }
        if (!arity.accepts(args.length)) {
            throw new EvaluationException(name + "() takes " + arity.describe() + ", got " + args.length);
        }
        return builtin.call(args);
    }

    /** The error for an argument of the wrong kind: "len() needs text, an array or an object, got ...". */
    static EvaluationException needs(String function, String wanted, JsonNode got) {
        return new EvaluationException(function + "() needs " + wanted + ", got " + Values.describe(got));
    }
}
