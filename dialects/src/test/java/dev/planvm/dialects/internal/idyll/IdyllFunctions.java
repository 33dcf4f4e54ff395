package dev.planvm.dialects.internal.idyll;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The deterministic functions the conformance corpus runs with, as planvm tools: the reference engine's
 * demo functions without clocks and randomness, the ones its tests and examples call, by registry.
 * {@code idyll-conformance/record.ts} gives the reference the same functions. A function that uses the
 * block's content reads the param {@code content}; one that uses the execution context declares
 * {@code currentBlockId} and {@code previousResults}.
 */
final class IdyllFunctions {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private IdyllFunctions() {}

    /** The tools of registry {@code name} ({@code demo}, {@code test}, {@code agent}, {@code research}). */
    static List<Tool> registry(String name) {
        return switch (name) {
            case "demo" ->
                List.of(
                        tool(
                                "demo:echo",
                                schema("message:string", "uppercase:boolean", "currentBlockId:string"),
                                (p, c) -> {
                                    String text = firstText(
                                            p.path("message").asText(""),
                                            p.path("content").asText(""));
                                    text = text.isEmpty() ? "No message provided" : text;
                                    return JSON.objectNode()
                                            .put(
                                                    "message",
                                                    p.path("uppercase").asBoolean()
                                                            ? text.toUpperCase(Locale.ROOT)
                                                            : text)
                                            .put(
                                                    "nodeId",
                                                    p.path("currentBlockId").asText());
                                }),
                        tool(
                                "demo:math",
                                required(schema("operation:string", "a:number", "b:number"), "operation", "a", "b"),
                                (p, c) -> math(p)),
                        tool("demo:random", schema("min:number", "max:number", "count:integer"), (p, c) -> {
                            double min = p.path("min").asDouble(0);
                            double max = p.path("max").asDouble(100);
                            int count = p.path("count").asInt(1);
                            ArrayNode numbers = JSON.arrayNode();
                            for (int i = 0; i < count; i++) {
                                numbers.add(number(min + ((i * 37 + 11) % (max - min + 1))));
                            }
                            ObjectNode out = JSON.objectNode();
                            out.set("numbers", numbers);
                            out.set("min", number(min));
                            out.set("max", number(max));
                            out.put("count", count);
                            return out;
                        }),
                        tool("demo:fail", schema("message:string", "code:string"), (p, c) -> {
                            throw ToolException.permanent(p.path("message").asText("This function always fails"));
                        }),
                        tool("demo:context", schema("currentBlockId:string", "previousResults:array"), (p, c) -> {
                            List<JsonNode> all = list(p.path("previousResults"));
                            long success = all.stream()
                                    .filter(r -> r.path("success").asBoolean())
                                    .count();
                            ObjectNode out = JSON.objectNode()
                                    .put("currentNode", p.path("currentBlockId").asText());
                            out.putObject("previousExecutions")
                                    .put("total", all.size())
                                    .put("success", success)
                                    .put("failed", all.size() - success);
                            String content = p.path("content").asText("");
                            return out.put("content", content.isEmpty() ? "No content provided" : content);
                        }),
                        tool(
                                "demo:aggregate",
                                schema("operation:string", "previousResults:array"),
                                (p, c) -> aggregate(p)),
                        tool(
                                "demo:condition",
                                required(schema("check:string", "value:number", "previousResults:array"), "check"),
                                (p, c) -> condition(p)));
            case "test" ->
                List.of(
                        tool(
                                "test:greet",
                                required(schema("name:string"), "name"),
                                (p, c) -> JSON.objectNode()
                                        .put(
                                                "greeting",
                                                "Hello, " + p.path("name").asText() + "!")),
                        tool("test:fail", schema(), (p, c) -> {
                            throw ToolException.permanent("Function execution failed");
                        }));
            case "agent" ->
                List.of(
                        tool(
                                "demo:echo",
                                required(schema("message:string"), "message"),
                                (p, c) -> JSON.objectNode()
                                        .put(
                                                "echoed",
                                                firstText(
                                                        p.path("content").asText(""),
                                                        p.path("message").asText()))
                                        .put("message", p.path("message").asText())),
                        tool("demo:calculate", required(schema("expression:string"), "expression"), (p, c) -> {
                            String expression = p.path("expression").asText();
                            Matcher m = Pattern.compile(
                                            "\\s*([\\d.]+)\\s*\\*\\s*([\\d.]+)\\s*(?:\\+\\s*([\\d.]+))?\\s*")
                                    .matcher(expression);
                            if (!m.matches()) {
                                return JSON.objectNode().put("error", "Invalid expression");
                            }
                            double result = Double.parseDouble(m.group(1)) * Double.parseDouble(m.group(2))
                                    + (m.group(3) == null ? 0 : Double.parseDouble(m.group(3)));
                            ObjectNode out = JSON.objectNode();
                            out.set("result", number(result));
                            return out.put("expression", expression);
                        }),
                        tool(
                                "demo:time",
                                schema(),
                                (p, c) -> JSON.objectNode()
                                        .put("time", "12:00:00 GMT+0000")
                                        .put("date", "Thu Nov 30 2023")
                                        .put("iso", "2023-11-30T12:00:00.000Z")));
            case "research" ->
                List.of(
                        tool("web:search", schema("maxResults:number"), (p, c) -> {
                            ObjectNode out = JSON.objectNode()
                                    .put("query", p.path("content").asText(""));
                            ArrayNode results = out.putArray("results");
                            String[][] all = {
                                {"AI Breakthroughs 2024", "https://example.com/ai-2024", "Latest developments in AI..."
                                },
                                {"Machine Learning Advances", "https://example.com/ml", "Recent ML research shows..."},
                                {"Neural Networks Update", "https://example.com/nn", "New architectures for..."}
                            };
                            int max = p.path("maxResults").asInt(10);
                            for (int i = 0; i < Math.min(max, all.length); i++) {
                                results.addObject()
                                        .put("title", all[i][0])
                                        .put("url", all[i][1])
                                        .put("snippet", all[i][2]);
                            }
                            return out.put("totalFound", 42);
                        }),
                        tool("ai:summarize", schema("style:string", "previousResults:array"), (p, c) -> {
                            String content = p.path("content").asText("");
                            if (p.path("style").asText("brief").equals("bullet-points")) {
                                return JSON.objectNode()
                                        .put(
                                                "summary",
                                                String.join(
                                                        "\n",
                                                        List.of(
                                                                "• Processed "
                                                                        + list(p.path("previousResults"))
                                                                                .size() + " previous results",
                                                                "• Topics cover AI breakthroughs and ML advances",
                                                                "• Focus on neural network architectures",
                                                                "• " + content)));
                            }
                            return JSON.objectNode()
                                    .put(
                                            "summary",
                                            "Based on the search results about \"" + content
                                                    + "\", the latest developments include AI breakthroughs, ML advances, and new neural"
                                                    + " network architectures.");
                        }),
                        tool("data:format", schema("format:string", "previousResults:array"), (p, c) -> format(p)));
            default -> throw new IllegalArgumentException("no registry " + name);
        };
    }

    private static JsonNode math(JsonNode p) {
        String operation = p.path("operation").asText();
        double a = p.path("a").asDouble();
        double b = p.path("b").asDouble();
        double result = switch (operation) {
            case "add" -> a + b;
            case "subtract" -> a - b;
            case "multiply" -> a * b;
            case "divide" -> {
                if (b == 0) {
                    throw ToolException.permanent("Division by zero");
                }
                yield a / b;
            }
            default -> throw ToolException.permanent("Invalid parameters: operation " + operation);
        };
        ObjectNode out = JSON.objectNode().put("operation", operation);
        out.set("a", number(a));
        out.set("b", number(b));
        out.set("result", number(result));
        return out.put("expression", js(a) + " " + operation + " " + js(b) + " = " + js(result));
    }

    private static JsonNode aggregate(JsonNode p) {
        String operation = p.path("operation").asText("sum");
        List<JsonNode> data = new ArrayList<>();
        list(p.path("previousResults")).stream()
                .filter(r -> r.path("success").asBoolean())
                .forEach(r -> data.add(r.path("data")));
        if (data.isEmpty()) {
            return JSON.objectNode()
                    .put("operation", operation)
                    .put("message", "No previous successful results to aggregate")
                    .putNull("result");
        }
        ArrayNode values = JSON.arrayNode();
        for (JsonNode d : data) {
            if (operation.equals("concat") ? d.isTextual() : d.isNumber()) {
                values.add(d);
            } else if (d.isObject()) {
                d.forEach(v -> {
                    if (operation.equals("concat") ? v.isTextual() : v.isNumber()) {
                        values.add(v);
                    }
                });
            }
        }
        ObjectNode out = JSON.objectNode().put("operation", operation);
        out.set("values", values);
        if (operation.equals("concat")) {
            List<String> texts = new ArrayList<>();
            values.forEach(v -> texts.add(v.asText()));
            return out.put("result", String.join(" ", texts));
        }
        double sum = 0;
        for (JsonNode v : values) {
            sum += v.asDouble();
        }
        if (operation.equals("sum")) {
            out.set("result", number(sum));
            return out;
        }
        out.set("sum", number(sum));
        out.put("count", values.size());
        out.set("result", number(values.isEmpty() ? 0 : sum / values.size()));
        return out;
    }

    private static JsonNode condition(JsonNode p) {
        List<JsonNode> all = list(p.path("previousResults"));
        boolean hasErrors = all.stream().anyMatch(r -> !r.path("success").asBoolean());
        boolean allSuccess = all.stream().allMatch(r -> r.path("success").asBoolean());
        int count = all.size();
        double value = p.path("value").asDouble(0);
        String check = p.path("check").asText();
        boolean met;
        String reason;
        switch (check) {
            case "has-errors" -> {
                met = hasErrors;
                reason = "Previous executions " + (hasErrors ? "had" : "had no") + " errors";
            }
            case "all-success" -> {
                met = allSuccess;
                reason = "Previous executions " + (allSuccess ? "were all" : "were not all") + " successful";
            }
            case "count-gt" -> {
                met = count > value;
                reason = "Previous execution count (" + count + ") " + (met ? "is greater than" : "is not greater than")
                        + " " + js(value);
            }
            default -> {
                met = count < value;
                reason = "Previous execution count (" + count + ") " + (met ? "is less than" : "is not less than") + " "
                        + js(value);
            }
        }
        return JSON.objectNode()
                .put("check", check)
                .put("conditionMet", met)
                .put("reason", reason)
                .put("previousCount", count)
                .put("message", met ? "Condition met!" : "Condition not met");
    }

    private static JsonNode format(JsonNode p) {
        String format = p.path("format").asText("markdown");
        ArrayNode results = JSON.arrayNode();
        list(p.path("previousResults")).stream()
                .filter(r -> r.path("success").asBoolean())
                .forEach(r -> results.add(r.path("data")));
        String json = pretty(results);
        if (format.equals("json")) {
            return JSON.objectNode().put("formatted", json);
        }
        if (format.equals("markdown")) {
            return JSON.objectNode()
                    .put(
                            "formatted",
                            "# Results\n\n" + p.path("content").asText("") + "\n\n## Data\n\n```json\n" + json
                                    + "\n```");
        }
        return JSON.objectNode().put("formatted", "[object Object]");
    }

    /** {@code JSON.stringify(value, null, 2)}. */
    private static String pretty(JsonNode value) {
        StringBuilder sb = new StringBuilder();
        stringify(value, "", sb);
        return sb.toString();
    }

    private static void stringify(JsonNode value, String indent, StringBuilder sb) {
        String inner = indent + "  ";
        if (value.isObject() && !value.isEmpty()) {
            sb.append("{\n");
            int[] i = {0};
            value.properties().forEach(e -> {
                sb.append(inner).append(TextNodeText.of(e.getKey())).append(": ");
                stringify(e.getValue(), inner, sb);
                sb.append(++i[0] < value.size() ? ",\n" : "\n");
            });
            sb.append(indent).append('}');
        } else if (value.isArray() && !value.isEmpty()) {
            sb.append("[\n");
            for (int i = 0; i < value.size(); i++) {
                sb.append(inner);
                stringify(value.get(i), inner, sb);
                sb.append(i + 1 < value.size() ? ",\n" : "\n");
            }
            sb.append(indent).append(']');
        } else if (value.isNumber()) {
            sb.append(js(value.asDouble()));
        } else {
            sb.append(value.isObject() ? "{}" : value.isArray() ? "[]" : value.toString());
        }
    }

    /** A string as JSON writes it. */
    private static final class TextNodeText {
        static String of(String s) {
            return com.fasterxml.jackson.databind.node.TextNode.valueOf(s).toString();
        }
    }

    private static String firstText(String a, String b) {
        return a.isEmpty() ? b : a;
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }

    private static JsonNode number(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? JSON.numberNode((long) d) : JSON.numberNode(d);
    }

    /** A number as JavaScript writes it into text. */
    private static String js(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    private static ObjectNode schema(String... properties) {
        ObjectNode schema = JSON.objectNode().put("type", "object");
        ObjectNode props = schema.putObject("properties");
        props.putObject("content").put("type", "string");
        for (String p : properties) {
            String[] nameType = p.split(":");
            props.putObject(nameType[0]).put("type", nameType[1]);
        }
        return schema;
    }

    private static ObjectNode required(ObjectNode schema, String... names) {
        ArrayNode required = schema.putArray("required");
        for (String name : names) {
            required.add(name);
        }
        return schema;
    }

    private static Tool tool(String name, JsonNode schema, BiFunction<JsonNode, CallContext, JsonNode> body) {
        return Tool.of(name, "conformance function " + name, schema, body);
    }
}
