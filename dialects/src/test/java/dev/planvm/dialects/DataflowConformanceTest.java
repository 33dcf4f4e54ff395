package dev.planvm.dialects;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.LoadResult;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Conformance with seed 001's reference parser, MikeHopcroft/data-flow: the programs of its lexer, parser and AST
 * tests and of its examples, with what the reference did with each (accepted or refused; the value and whether
 * the program ends in {@code return} or {@code use}), recorded under node in {@code conformance/dataflow/cases.json}
 * (see its README). Each runs here through the JavaScript dialect, with the reference's context as inputs (its
 * values) and tools (its functions, each as the reference's zod validator checks its arguments): the same programs
 * must be accepted and refused, with the same values.
 *
 * <p>Where planvm follows seed 001 against the reference, or JSON cannot say what the reference returns, the case is
 * listed in {@link #DIFFERENCES} with why; the test checks that those (and only those) differ, so the list stays
 * true. The figures are printed.
 */
class DataflowConformanceTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The cases planvm answers differently, each with why (docs/guides/dialects.md lists them too). */
    static final Map<String, String> DIFFERENCES = Map.of(
            "test/lib/parser.test.ts › Parser › Operators › combination2",
            "back.departs(123) calls a function kept inside a value; seed 001's values are JSON (Serializable has no"
                    + " functions), functions are tools called by name, and values have no methods but the"
                    + " date/time helpers'",
            "src/examples/poisoning.ts › toJSON bound to a function",
            "{toJSON: a} makes a function a value, which seed 001's security section warns against (the reference's"
                    + " own example shows JSON.stringify then calling it); planvm refuses a function used as a value",
            "src/examples/analyze.ts › rental car for two flights",
            "back.departs.minus(1, hour): seed 001's Date has minus and its context has hour; the reference has no"
                    + " date/time API (unknown identifier hour), planvm computes the date-time");

    private static JsonNode fixture;
    private static final List<String> passed = new ArrayList<>();
    private static final List<String> failed = new ArrayList<>();

    @BeforeAll
    static void read() throws IOException {
        try (InputStream in = Objects.requireNonNull(
                DataflowConformanceTest.class.getResourceAsStream("/conformance/dataflow/cases.json"), "cases.json")) {
            fixture = JSON.readTree(in);
        }
    }

    @TestFactory
    List<DynamicTest> every_case_of_the_reference_is_accepted_or_refused_as_it_was_with_the_same_value() {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : fixture.path("cases")) {
            String key = c.path("from").asText() + " › " + c.path("name").asText();
            tests.add(DynamicTest.dynamicTest(key, () -> {
                Outcome planvm = run(c);
                String difference = difference(c, planvm);
                if (DIFFERENCES.containsKey(key)) {
                    assertThat(difference)
                            .as(
                                    "%s is listed as a difference (%s) but planvm answers as the reference",
                                    key, DIFFERENCES.get(key))
                            .isNotNull();
                    failed.add(key);
                } else {
                    assertThat(difference)
                            .as(key + "\n" + c.path("program").asText())
                            .isNull();
                    passed.add(key);
                }
            }));
        }
        tests.add(DynamicTest.dynamicTest("the figure", () -> {
            int total = fixture.path("cases").size();
            System.out.println("data-flow conformance: " + passed.size() + "/" + total + " cases as the reference; "
                    + failed.size() + " differ as listed (planvm follows seed 001)");
            assertThat(passed.size() + failed.size()).isEqualTo(total);
            assertThat(failed).hasSize(DIFFERENCES.size());
        }));
        return tests;
    }

    @Test
    void the_fixture_says_where_it_came_from() {
        assertThat(fixture.path("reference").path("repository").asText())
                .isEqualTo("https://github.com/MikeHopcroft/data-flow");
        assertThat(fixture.path("reference").path("license").asText()).isEqualTo("MIT");
        assertThat(fixture.path("cases").size()).isGreaterThanOrEqualTo(90);
    }

    /** What planvm did: accepted (with the value and whether it ends in use), or refused (why). */
    record Outcome(boolean accepted, JsonNode value, boolean use, String why) {}

    /** Why planvm's outcome differs from the reference's, or null when it does not. */
    static String difference(JsonNode c, Outcome planvm) {
        boolean accepted = c.path("accepted").asBoolean();
        if (accepted != planvm.accepted()) {
            return accepted
                    ? "the reference accepts it (" + c.path("value") + "), planvm refuses it: " + planvm.why()
                    : "the reference refuses it ("
                            + c.path("error").path("message").asText() + "), planvm answers " + planvm.value();
        }
        if (!accepted) {
            return null;
        }
        JsonNode expected = jsonOf(c.path("value"));
        if (!same(expected, planvm.value())) {
            return "the reference answers " + expected + ", planvm " + planvm.value();
        }
        boolean use = c.path("action").asText().equals("use");
        return use == planvm.use()
                ? null
                : "the reference ends in " + c.path("action").asText() + ", planvm does not";
    }

    /** The reference's value as JSON: {@code undefined} is null (JSON has none; planvm's JS subset reads it as null). */
    private static JsonNode jsonOf(JsonNode recorded) {
        if (recorded.isObject() && recorded.path("$undefined").asBoolean()) {
            return NullNode.getInstance();
        }
        if (recorded.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            recorded.properties().forEach(e -> out.set(e.getKey(), jsonOf(e.getValue())));
            return out;
        }
        if (recorded.isArray()) {
            var out = JsonNodeFactory.instance.arrayNode();
            recorded.forEach(e -> out.add(jsonOf(e)));
            return out;
        }
        return recorded;
    }

    /** JSON equality with numbers compared by value ({@code 5 == 5.0}). */
    private static boolean same(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.doubleValue() == b.doubleValue();
        }
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Iterator<String> names = a.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!b.has(name) || !same(a.get(name), b.get(name))) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!same(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    /** Runs a case's program through the JavaScript dialect in its context. */
    static Outcome run(JsonNode c) {
        JsonNode context = fixture.path("contexts").path(c.path("context").asText());
        PlanVmBuilder builder = PlanVm.builder();
        AtomicInteger ticks = new AtomicInteger();
        context.path("functions").properties().forEach(f -> {
            JsonNode type = context.path("types").path(f.getKey());
            if (!type.isMissingNode()) { // the reference's unapproved functions are not tools here
                builder.tool(tool(f.getKey(), f.getValue().asText(), type.asText(), ticks));
            }
        });
        PlanVm vm = builder.build();
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        context.path("values").properties().forEach(v -> inputs.put(v.getKey(), v.getValue()));
        LoadResult loaded = PlanSources.of(vm.loader())
                .withInputs(inputs.keySet())
                .load(c.path("program").asText(), "case.js", null);
        if (!loaded.valid()) {
            return new Outcome(false, null, false, loaded.errors().get(0).format("case.js"));
        }
        RunResult result;
        try {
            result = vm.run(loaded.plan(), inputs);
        } catch (PlanRejectedException e) {
            return new Outcome(false, null, false, e.getMessage());
        }
        return result.succeeded()
                ? new Outcome(true, result.finalAnswer(), result.handsBack(), null)
                : new Outcome(false, null, false, result.error().describe());
    }

    /**
     * The reference's function {@code kind} as a tool: its arguments are {@code params.args} (or, for one object
     * literal, the params themselves), checked as the reference's zod validator {@code type} checks them.
     */
    private static Tool tool(String name, String kind, String type, AtomicInteger ticks) {
        Function<List<JsonNode>, JsonNode> f = switch (kind) {
            case "sum" -> args -> number(args.get(0).doubleValue() + args.get(1).doubleValue());
            case "pair" -> DataflowConformanceTest::pair;
            case "second" -> args -> args.get(1);
            case "sum of last two" ->
                args -> number(args.get(1).doubleValue() + args.get(2).doubleValue());
            case "constant 123" -> args -> number(123);
            case "counter" -> args -> number(ticks.incrementAndGet());
            case "flight" ->
                args -> json("{\"destination\": \"LAX\", \"arrives\": \"2023-10-10T17:17:00-07:00\","
                        + " \"departs\": \"2023-10-15T16:00:00-07:00\"}");
            case "first argument" -> args -> args.get(0);
            default -> throw new IllegalArgumentException("no function of kind " + kind);
        };
        return Tool.of(name, "the reference's " + kind, schema(type), (params, context) -> f.apply(arguments(params)));
    }

    private static JsonNode pair(List<JsonNode> args) {
        ObjectNode pair = JsonNodeFactory.instance.objectNode();
        pair.set("a", args.get(0));
        pair.set("b", args.get(1));
        return pair;
    }

    private static List<JsonNode> arguments(JsonNode params) {
        List<JsonNode> args = new ArrayList<>();
        if (params.has("args")) {
            params.get("args").forEach(args::add);
        } else if (!params.isEmpty()) {
            args.add(params); // one object literal: the params are that object
        }
        return args;
    }

    /** The params schema for the reference's validator: its arguments are {@code args}. */
    private static JsonNode schema(String type) {
        String args = switch (type) {
            case "two numbers" ->
                "{\"type\": \"array\", \"items\": {\"type\": \"number\"}, \"minItems\": 2, \"maxItems\": 2}";
            case "three numbers" ->
                "{\"type\": \"array\", \"items\": {\"type\": \"number\"}, \"minItems\": 3, \"maxItems\": 3}";
            case "one number" ->
                "{\"type\": \"array\", \"items\": {\"type\": \"number\"}, \"minItems\": 1, \"maxItems\": 1}";
            case "numbers" -> "{\"type\": \"array\", \"items\": {\"type\": \"number\"}}";
            case "none" -> "{\"type\": \"array\", \"maxItems\": 0}";
            case "any" -> "{}";
            default -> throw new IllegalArgumentException("no validator " + type);
        };
        return json("{\"type\": \"object\", \"properties\": {\"args\": " + args + "}}");
    }

    private static JsonNode number(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15
                ? JsonNodeFactory.instance.numberNode((long) d)
                : JsonNodeFactory.instance.numberNode(d);
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
