package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The builtin functions callable from expressions: ONE registry of name → arity + implementation,
 * used by the parser (arity checks at load time) and the evaluator (the call itself). Each
 * implementation is one small static method of {@link TextFunctions}, {@link NumberFunctions} or
 * {@link CollectionFunctions}:
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
 *   <li>{@code next(x)}, {@code last(x)}, {@code this(x)}: dates from the run's clock ({@link DateFunctions}).</li>
 * </ul>
 *
 * <p>It also holds the date/time helpers that are not functions: the {@link #METHODS} of date/time
 * values ({@code d.at(time)}, {@code d.plus(n, unit)}, {@code d.minus(n, unit)}, {@code d.startOf(unit)},
 * {@code d.endOf(unit)}: {@link DatePeriods}) and the
 * {@link #CONSTANTS}, names such as {@code today} that stand for a value when no variable of that
 * name is set.
 */
public final class Builtins {

    /** How many arguments a function accepts: {@code min..max} inclusive. */
    public record Arity(int min, int max) {

        /** {@link #max()} value of a function taking any number of arguments from {@code min} up. */
        public static final int UNBOUNDED = Integer.MAX_VALUE;

        public Arity {
            if (min < 0 || max < min) {
                throw new IllegalArgumentException("bad arity " + min + ".." + max);
            }
        }

        static Arity exactly(int n) {
            return new Arity(n, n);
        }

        static Arity atLeast(int n) {
            return new Arity(n, UNBOUNDED);
        }

        /** Whether a call with {@code n} arguments is allowed. */
        public boolean accepts(int n) {
            return n >= min && n <= max;
        }

        /** A phrase such as "1 argument", "1 or 2 arguments" or "at least 1 argument". */
        public String describe() {
            if (max == UNBOUNDED) {
                return "at least " + plural(min);
            }
            if (min == max) {
                return plural(min);
            }
            if (max == min + 1) {
                return min + " or " + plural(max);
            }
            return min + " to " + plural(max);
        }

        private static String plural(int n) {
            return n + (n == 1 ? " argument" : " arguments");
        }
    }

    /**
     * A builtin applied to its evaluated arguments (already checked against its arity); the
     * variables give the date/time helpers the run's clock. A method gets its target first.
     */
    @FunctionalInterface
    interface Implementation {
        JsonNode call(JsonNode[] args, Variables vars);
    }

    private record Builtin(Arity arity, Implementation implementation) {}

    private static final Map<String, Builtin> REGISTRY;

    /** Every builtin function by name to its arity, sorted by name. */
    public static final Map<String, Arity> FUNCTIONS;

    /** The names of all builtin functions, sorted. */
    public static final List<String> NAMES;

    private static final Map<String, Builtin> METHOD_REGISTRY;

    /**
     * The methods of date/time values by name to their arity (the target not counted): {@code at},
     * {@code endOf}, {@code minus}, {@code plus}, {@code startOf}. No other value has methods.
     */
    public static final Map<String, Arity> METHODS;

    /**
     * The names that stand for a date/time value when no variable of that name is set: {@code today},
     * {@code tomorrow}, {@code yesterday}, {@code now} and the parts of the day ({@code morning}, ...,
     * {@code closeofbusiness}).
     */
    public static final List<String> CONSTANTS = DateNames.CONSTANTS;

    /**
     * The words the date/time helpers take as bare names in argument positions (weekdays such as
     * {@code Thursday}, units such as {@code day} and {@code days}), with the {@link #CONSTANTS}: what
     * a dialect may write for them.
     */
    public static final java.util.Set<String> DATE_WORDS = java.util.Collections.unmodifiableSet(DateNames.words());

    static {
        Map<String, Builtin> r = new TreeMap<>();
        one(r, "len", x -> CollectionFunctions.len(x));
        one(r, "str", TextFunctions::str);
        one(r, "num", NumberFunctions::num);
        one(r, "json", TextFunctions::json);
        one(r, "keys", CollectionFunctions::keys);
        one(r, "values", CollectionFunctions::values);
        one(r, "lower", TextFunctions::lower);
        one(r, "upper", TextFunctions::upper);
        one(r, "trim", TextFunctions::trim);
        one(r, "abs", NumberFunctions::abs);
        one(r, "round", NumberFunctions::round);
        one(r, "floor", NumberFunctions::floor);
        one(r, "ceil", NumberFunctions::ceil);
        r.put(
                "contains",
                new Builtin(Arity.exactly(2), (args, vars) -> CollectionFunctions.contains(args[0], args[1])));
        r.put("split", new Builtin(Arity.exactly(2), (args, vars) -> TextFunctions.split(args[0], args[1])));
        r.put(
                "join",
                new Builtin(
                        new Arity(1, 2),
                        (args, vars) -> CollectionFunctions.join(args[0], args.length > 1 ? args[1] : null)));
        r.put("min", new Builtin(Arity.atLeast(1), (args, vars) -> NumberFunctions.min(args)));
        r.put("max", new Builtin(Arity.atLeast(1), (args, vars) -> NumberFunctions.max(args)));
        for (String period : List.of("next", "last", "this")) {
            r.put(
                    period,
                    new Builtin(
                            Arity.exactly(1),
                            (args, vars) ->
                                    DateFunctions.period(period, args[0], DateFunctions.clock(vars, period + "()"))));
        }
        REGISTRY = Collections.unmodifiableMap(r);
        Map<String, Builtin> m = new TreeMap<>();
        m.put("at", new Builtin(Arity.exactly(1), (args, vars) -> DateFunctions.at(args[0], args[1], vars)));
        m.put(
                "plus",
                new Builtin(
                        Arity.exactly(2),
                        (args, vars) -> DateFunctions.plus("plus", args[0], args[1], args[2], 1, vars)));
        m.put(
                "minus",
                new Builtin(
                        Arity.exactly(2),
                        (args, vars) -> DateFunctions.plus("minus", args[0], args[1], args[2], -1, vars)));
        m.put(
                "startOf",
                new Builtin(
                        Arity.exactly(1), (args, vars) -> DatePeriods.bound("startOf", args[0], args[1], false, vars)));
        m.put(
                "endOf",
                new Builtin(
                        Arity.exactly(1), (args, vars) -> DatePeriods.bound("endOf", args[0], args[1], true, vars)));
        METHOD_REGISTRY = Collections.unmodifiableMap(m);
        Map<String, Arity> methodArities = new TreeMap<>();
        m.forEach((name, builtin) -> methodArities.put(name, builtin.arity()));
        METHODS = Collections.unmodifiableMap(methodArities);
        Map<String, Arity> arities = new TreeMap<>();
        r.forEach((name, builtin) -> arities.put(name, builtin.arity()));
        FUNCTIONS = Collections.unmodifiableMap(arities);
        NAMES = List.copyOf(r.keySet());
    }

    private static void one(Map<String, Builtin> registry, String name, java.util.function.UnaryOperator<JsonNode> f) {
        registry.put(name, new Builtin(Arity.exactly(1), (args, vars) -> f.apply(args[0])));
    }

    private Builtins() {}

    /** Whether {@code name} is a builtin function. */
    public static boolean isBuiltin(String name) {
        return REGISTRY.containsKey(name);
    }

    /** The arity of a builtin, or empty when {@code name} is not a builtin. */
    public static Optional<Arity> arity(String name) {
        return Optional.ofNullable(FUNCTIONS.get(name));
    }

    /** The sorted names joined with ", ", for messages. */
    public static String knownList() {
        return String.join(", ", NAMES);
    }

    /** Whether {@code name} is a bare date/time helper such as {@code today} (a variable of that name shadows it). */
    public static boolean isConstant(String name) {
        return DateNames.isConstant(name);
    }

    /**
     * Whether a bare identifier {@code name}, written as argument {@code index} of function or method
     * {@code function}, is a word of the date/time helpers rather than a variable:
     * {@code next(Thursday)}, {@code d.plus(2, days)}.
     */
    static boolean takesWord(String function, int index, String name) {
        boolean position = switch (function) {
            case "next", "last", "this" -> index == 0;
            case "plus", "minus" -> index == 1;
            case "startOf", "endOf" -> index == 0;
            default -> false;
        };
        return position && DateNames.isWord(name);
    }

    /** "at, endOf, minus, plus, startOf", for messages. */
    public static String methodList() {
        return String.join(", ", METHODS.keySet());
    }

    /** Calls builtin {@code name}; the arity is checked again, as the AST may not come from the parser. */
    static JsonNode call(String name, JsonNode[] args, Variables vars) {
        Builtin builtin = REGISTRY.get(name);
        if (builtin == null) {
            throw new EvaluationException("unknown function '" + name + "' (known: " + knownList() + ")");
        }
        if (!builtin.arity().accepts(args.length)) {
            throw new EvaluationException(name + "() takes " + builtin.arity().describe() + ", got " + args.length);
        }
        return builtin.implementation().call(args, vars);
    }

    /** Calls method {@code name} of {@code target}; {@code args} are its arguments (the target not counted). */
    static JsonNode callMethod(String name, JsonNode target, JsonNode[] args, Variables vars) {
        Builtin method = METHOD_REGISTRY.get(name);
        if (method == null) {
            throw new EvaluationException("there is no method '" + name + "' (values have no methods; the date/time"
                    + " helpers have " + methodList() + ")");
        }
        if (!method.arity().accepts(args.length)) {
            throw new EvaluationException(name + "() takes " + method.arity().describe() + ", got " + args.length);
        }
        JsonNode[] all = new JsonNode[args.length + 1];
        all[0] = target;
        System.arraycopy(args, 0, all, 1, args.length);
        return method.implementation().call(all, vars);
    }

    /** The error for an argument of the wrong kind: "len() needs text, an array or an object, got ...". */
    static EvaluationException needs(String function, String wanted, JsonNode got) {
        return new EvaluationException(function + "() needs " + wanted + ", got " + Values.describe(got));
    }
}
