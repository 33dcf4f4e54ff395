package dev.planvm.dialects.internal;

import dev.planvm.instructions.expr.Builtins;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * What each identifier of a plan means: the plan's aliases shadow the external context, which holds
 * the run's inputs, the tools (JavaScript subset only), planvm's builtin functions and the date/time
 * helpers. A plain map filled in one visible place: nothing is looked up by reflection, so a name
 * that is not in the map is an error, never a path into the host.
 */
public final class Bindings {

    /** What a name is bound to. */
    public sealed interface Binding permits Alias, Input, Tool, Builtin, DateConstant, DateFunction {}

    /** An alias of the plan, held in the plan variable {@code variable}. */
    public record Alias(String variable) implements Binding {}

    /** A variable the run is given ({@code --var name=...}). */
    public record Input(String variable) implements Binding {}

    /** A tool, called asynchronously. */
    public record Tool(String tool) implements Binding {}

    /** One of planvm's builtin functions. */
    public record Builtin(Builtins.Arity arity) implements Binding {}

    /** A date/time constant such as {@code today} or {@code Thursday}. */
    public record DateConstant() implements Binding {}

    /** Seed 001's {@code current(x)}, planvm's {@code this(x)}. */
    public record DateFunction() implements Binding {}

    /**
     * Seed 000's and 001's date/time constants: starting values, weekdays, units and parts of the day
     * (planvm's {@link Builtins#DATE_WORDS}). {@code next}, {@code last} and {@code this} are builtins.
     */
    public static final Set<String> DATE_CONSTANTS = Builtins.DATE_WORDS;

    /** Seed 001's name for {@code this(x)}. */
    public static final String CURRENT = "current";

    /** The methods of a date/time value ({@code next(Friday).at('9:00am')}): planvm's {@link Builtins#METHODS}. */
    public static final Set<String> DATE_METHODS = Builtins.METHODS.keySet();

    /** Names a plan may never use for a value or a function, whatever it defines. */
    public static final Set<String> NEVER = Set.of(
            "eval",
            "Function",
            "globalThis",
            "window",
            "require",
            "process",
            "import",
            "constructor",
            "prototype",
            "__proto__");

    private final Map<String, Binding> names;
    private final boolean inferTools;

    private Bindings(Map<String, Binding> names, boolean inferTools) {
        this.names = Map.copyOf(names);
        this.inferTools = inferTools;
    }

    /**
     * @param aliases     alias name to its plan variable
     * @param inputs      names the run provides as variables
     * @param tools       tool names callable from expressions by their identifier (a tool named
     *                    {@code web:search} is {@code web_search}); null when any unknown function
     *                    name is to be taken for a tool
     * @param toolsCalled whether expressions may call tools at all (the JavaScript subset)
     */
    public static Bindings of(Map<String, String> aliases, Set<String> inputs, Set<String> tools, boolean toolsCalled) {
        Map<String, Binding> names = new HashMap<>();
        DATE_CONSTANTS.forEach(n -> names.put(n, new DateConstant()));
        names.put(CURRENT, new DateFunction());
        Builtins.FUNCTIONS.forEach((n, arity) -> names.put(n, new Builtin(arity)));
        if (toolsCalled && tools != null) {
            for (String tool : new TreeSet<>(tools)) {
                String identifier = tool.replaceAll("[^A-Za-z0-9_]", "_");
                if (Lexer.isName(identifier) && !NEVER.contains(identifier)) {
                    names.putIfAbsent(identifier, new Tool(tool));
                    if (identifier.equals(tool)) {
                        names.put(identifier, new Tool(tool)); // a tool's own name wins over a builtin
                    }
                }
            }
        }
        inputs.forEach(n -> names.put(n, new Input(n)));
        aliases.forEach((n, variable) -> names.put(n, new Alias(variable)));
        NEVER.forEach(names::remove);
        return new Bindings(names, toolsCalled && tools == null);
    }

    public Optional<Binding> lookup(String name) {
        return Optional.ofNullable(names.get(name));
    }

    /** Whether a call of an unbound name is a call of the tool of that name. */
    public boolean infersTools() {
        return inferTools;
    }

    /** The names whose binding {@code kind} accepts, sorted, for "did you mean" and "known" lists. */
    public List<String> namesOf(Predicate<Binding> kind) {
        TreeSet<String> found = new TreeSet<>();
        names.forEach((n, b) -> {
            if (kind.test(b)) {
                found.add(n);
            }
        });
        return List.copyOf(found);
    }
}
