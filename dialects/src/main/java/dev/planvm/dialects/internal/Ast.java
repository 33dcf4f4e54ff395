package dev.planvm.dialects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * An expression of a dialect, located in its source. The parsers build the first group of nodes;
 * the {@link Resolver} replaces every {@link Name} and {@link Call} with what it means (the second
 * group), so the {@link Emitter} only ever sees resolved trees.
 */
public sealed interface Ast {

    Pos pos();

    /** Text, a number, a boolean or null ({@code undefined} is null: JSON has no undefined). */
    record Literal(JsonNode value, Pos pos) implements Ast {
        public Literal {
            Objects.requireNonNull(value, "value");
        }
    }

    /** Text built from parts: text {@link Literal}s and expressions, whose values are rendered. */
    record Template(List<Ast> parts, Pos pos) implements Ast {
        public Template {
            parts = List.copyOf(parts);
        }
    }

    record ArrayLit(List<Ast> elements, Pos pos) implements Ast {
        public ArrayLit {
            elements = List.copyOf(elements);
        }
    }

    record ObjectLit(List<Property> properties, Pos pos) implements Ast {
        public ObjectLit {
            properties = List.copyOf(properties);
        }
    }

    /** One {@code key: value} of an object literal ({@code {a}} is {@code {a: a}}). */
    record Property(String key, Ast value, Pos pos) {
        public Property {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }

    /** An identifier as written; resolved to an alias, an input, a date/time helper or an error. */
    record Name(String name, Pos pos) implements Ast {}

    record Member(Ast target, String name, Pos pos) implements Ast {}

    record Index(Ast target, Ast index, Pos pos) implements Ast {}

    /** A call as written; resolved to a tool call, a builtin (the date/time functions are builtins) or an error. */
    record Call(Ast callee, List<Ast> args, Pos pos) implements Ast {
        public Call {
            args = List.copyOf(args);
        }
    }

    /**
     * An arrow function as written ({@code x => tool({...})} or {@code (x, i) => tool({...})}, JavaScript
     * subset); only the argument of {@code list.map(...)} may be one, and the resolver turns that into an
     * {@link EachCall}. Its parameters are kept as parsed (a destructuring pattern is an object or array
     * literal), so the resolver can say, with its place, which shapes it refuses.
     */
    record Arrow(List<Ast> params, Ast body, Pos pos) implements Ast {
        public Arrow {
            params = List.copyOf(params);
        }
    }

    /**
     * {@code call} made once for each element of {@code list}, the element bound to {@code as} inside the
     * call's params (a plan {@code calling} with {@code for_each}); its value is the array of the outputs.
     */
    record EachCall(Ast list, String as, ToolCall call, Pos pos) implements Ast {}

    /** A plan variable: an alias's value, or an input given to the run. */
    record Var(String variable, Pos pos) implements Ast {}

    /**
     * An asynchronous call of a tool with these params (a plan {@code calling} instruction); {@code slots}:
     * the params are seed 000's slots, lists of values (a YAML domain call: {@code "slots": true}).
     */
    record ToolCall(String tool, ObjectLit params, Pos pos, boolean slots) implements Ast {
        public ToolCall(String tool, ObjectLit params, Pos pos) {
            this(tool, params, pos, false);
        }
    }

    /** A call of one of planvm's builtin functions ({@code len}, {@code str}, ...). */
    record BuiltinCall(String function, List<Ast> args, Pos pos) implements Ast {
        public BuiltinCall {
            args = List.copyOf(args);
        }
    }

    /**
     * A date/time name: a helper ({@code today}, {@code morning}), compiled as written, or a weekday or
     * unit ({@code Thursday}, {@code days}), compiled as that text.
     */
    record DateName(String name, Pos pos) implements Ast {}

    /** A date/time method ({@code x.at('3:00pm')}), compiled as written. */
    record MethodCall(Ast target, String method, List<Ast> args, Pos pos) implements Ast {
        public MethodCall {
            args = List.copyOf(args);
        }
    }

    /** The value of {@code inner}, or its only element when it is an array of exactly one. */
    record Unwrap(Ast inner, Pos pos) implements Ast {}
}
