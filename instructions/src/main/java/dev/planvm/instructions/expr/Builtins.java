package dev.planvm.instructions.expr;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.Collections;

/** The catalog of builtin functions callable from expressions, with their arities. */
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

    /** Every builtin function by name, sorted by name. */
    public static final Map<String, Arity> FUNCTIONS;

    /** The names of all builtin functions, sorted. */
    public static final List<String> NAMES;

    static {
        Map<String, Arity> m = new TreeMap<>();
        for (String one :
                List.of("len", "str", "num", "json", "keys", "values", "lower", "upper", "trim", "abs",
                        "round", "floor", "ceil")) {
            m.put(one, Arity.exactly(1));
        }
        m.put("contains", Arity.exactly(2));
        m.put("split", Arity.exactly(2));
        m.put("join", new Arity(1, 2));
        m.put("min", Arity.atLeast(1));
        m.put("max", Arity.atLeast(1));
        FUNCTIONS = Collections.unmodifiableMap(m);
        NAMES = List.copyOf(m.keySet());
    }

    private Builtins() {}

    /** Whether {@code name} is a builtin function. */
    public static boolean isBuiltin(String name) {
        return FUNCTIONS.containsKey(name);
    }

    /** The arity of a builtin, or empty when {@code name} is not a builtin. */
    public static Optional<Arity> arity(String name) {
        return Optional.ofNullable(FUNCTIONS.get(name));
    }

    /** The sorted names joined with ", ", for messages. */
    public static String knownList() {
        return String.join(", ", NAMES);
    }
}
