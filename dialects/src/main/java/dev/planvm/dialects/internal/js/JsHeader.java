package dev.planvm.dialects.internal.js;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.Lexer;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.dialects.internal.ToolHeader;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The plan-tool header of a JavaScript-subset plan: a leading JSDoc comment with an {@code @tool} tag.
 * Its free text (or {@code @description}) is the description, each {@code @param} an input and
 * {@code @returns} the output, with JSDoc's types ({@code string}, {@code number}, {@code integer},
 * {@code boolean}, {@code object}, {@code array}, {@code T[]}, {@code Array<T>}, {@code A|B},
 * {@code *}), optional inputs in brackets ({@code [days]}) and defaults after {@code =}
 * ({@code [days=1]}). Example (docs/guides/plan-tools.md): a comment opening with {@code /**}, then lines
 * {@code * The status of a flight.}, {@code * @tool flight_status},
 * {@code * @param {string} flight - the flight number}, {@code * @returns {object} the status}.
 *
 * A leading comment without {@code @tool} is a comment, as before.
 */
final class JsHeader {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** A default is JSON only when the whole text is one JSON value ({@code 3 apples} is text). */
    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.PLAN_FILE);

    private static final Pattern TAG = Pattern.compile("@([A-Za-z]+)");
    /** {@code {type} name rest} or {@code {type} [name=default] rest}. */
    private static final Pattern PARAM =
            Pattern.compile("\\{([^}]*)}\\s*(\\[([^\\]=]*)(=([^\\]]*))?]|(\\S+))\\s*(-\\s*)?(.*)");

    private static final Pattern RETURNS = Pattern.compile("\\{([^}]*)}\\s*(.*)");

    /** A line of the comment, without its leading {@code *}, and where that text starts in the source. */
    private record Line(String text, Pos pos) {}

    private final Problems problems;
    private String name;
    private final List<String> description = new ArrayList<>();
    private final ObjectNode properties = JSON.objectNode();
    private final ArrayNode required = JSON.arrayNode();
    private ObjectNode output;

    private JsHeader(Problems problems) {
        this.problems = problems;
    }

    /**
     * The header of {@code source}, or null when it has none (its first comment, before any code, is not a
     * {@code /**} comment holding a {@code @tool} line). A header with problems (each reported at its line)
     * still declares the inputs it could read, so that the plan's uses of them are not reported too.
     */
    static ToolHeader read(String source, Problems problems) {
        List<Line> lines = leadingDocComment(source);
        if (lines == null || lines.stream().noneMatch(l -> l.text().matches("@tool(\\s.*)?"))) {
            return null;
        }
        return new JsHeader(problems).parse(lines);
    }

    private ToolHeader parse(List<Line> lines) {
        Pos toolPos = null;
        ObjectNode current = null; // the schema the next untagged line describes further
        boolean returnsSeen = false;
        for (Line line : lines) {
            String text = line.text();
            Matcher tag = TAG.matcher(text);
            if (!tag.lookingAt()) {
                if (current != null) {
                    if (!text.isBlank()) {
                        String before = current.path("description").asText("");
                        current.put("description", (before.isEmpty() ? "" : before + " ") + text.strip());
                    }
                } else if (!text.isBlank()) {
                    description.add(text.strip());
                }
                continue;
            }
            String rest = text.substring(tag.end()).strip();
            Pos at = line.pos();
            current = null;
            switch (tag.group(1)) {
                case "tool" -> {
                    if (toolPos != null) {
                        fail(at, "the header names its tool twice (first at " + toolPos.describe() + ")");
                    }
                    toolPos = at;
                    name = rest;
                    ToolHeader.checkName(rest, at, problems);
                }
                case "description" -> description.add(rest);
                case "param", "arg", "argument" -> current = param(rest, at);
                case "returns", "return" -> {
                    if (returnsSeen) {
                        fail(at, "the header has two @returns");
                    }
                    returnsSeen = true;
                    current = returns(rest, at);
                }
                default ->
                    fail(
                            at,
                            "@" + tag.group(1) + " is not a tag of a plan-tool header: use @tool, @description,"
                                    + " @param and @returns");
            }
        }
        ObjectNode inputs = null;
        if (!properties.isEmpty()) {
            inputs = JSON.objectNode();
            inputs.put("type", "object");
            inputs.set("properties", properties);
            if (!required.isEmpty()) {
                inputs.set("required", required);
            }
        }
        String text = String.join(" ", description).strip();
        return new ToolHeader(name, text.isEmpty() ? null : text, inputs, output);
    }

    /** An input; null after a problem (reported). */
    private ObjectNode param(String rest, Pos at) {
        Matcher m = PARAM.matcher(rest);
        if (!m.matches()) {
            fail(at, "write a param as @param {type} name - description (or [name] when it is optional)");
            return null;
        }
        boolean optional = m.group(3) != null;
        String input = (optional ? m.group(3) : m.group(6)).strip();
        if (!Lexer.isName(input)) {
            fail(
                    at,
                    "the param name '" + input + "' is not a name: use letters, digits and _ (a param's"
                            + " properties, name.part, are declared in its type)");
            return null;
        }
        if (properties.has(input)) {
            fail(at, "the param '" + input + "' is declared twice");
            return null;
        }
        ObjectNode schema = type(m.group(1), at);
        if (schema == null) {
            return null;
        }
        String describe = m.group(8).strip();
        if (!describe.isEmpty()) {
            schema.put("description", describe);
        }
        if (m.group(5) != null) {
            schema.set("default", literal(m.group(5).strip()));
        }
        properties.set(input, schema);
        if (!optional) {
            required.add(input);
        }
        return schema;
    }

    private ObjectNode returns(String rest, Pos at) {
        Matcher m = RETURNS.matcher(rest);
        if (!m.matches()) {
            fail(at, "write the output as @returns {type} description");
            return null;
        }
        ObjectNode schema = type(m.group(1), at);
        if (schema == null) {
            return null;
        }
        if (!m.group(2).isBlank()) {
            schema.put("description", m.group(2).strip());
        }
        output = schema;
        return schema;
    }

    /** The JSON Schema of a JSDoc type; null after a problem (reported). */
    private ObjectNode type(String written, Pos at) {
        String type = written.strip();
        if (type.startsWith("(") && type.endsWith(")")) {
            type = type.substring(1, type.length() - 1).strip();
        }
        List<String> alternatives = split(type);
        if (alternatives.size() > 1) {
            ArrayNode anyOf = JSON.arrayNode();
            for (String alternative : alternatives) {
                ObjectNode one = type(alternative, at);
                if (one == null) {
                    return null;
                }
                anyOf.add(one);
            }
            ObjectNode schema = JSON.objectNode();
            schema.set("anyOf", anyOf);
            return schema;
        }
        ObjectNode schema = JSON.objectNode();
        if (type.endsWith("[]") || (type.startsWith("Array<") && type.endsWith(">"))) {
            String item = type.endsWith("[]")
                    ? type.substring(0, type.length() - 2)
                    : type.substring("Array<".length(), type.length() - 1);
            ObjectNode items = type(item, at);
            if (items == null) {
                return null;
            }
            schema.put("type", "array");
            schema.set("items", items);
            return schema;
        }
        switch (type.toLowerCase(Locale.ROOT)) {
            case "string", "number", "integer", "boolean", "object", "array", "null" ->
                schema.put("type", type.toLowerCase(Locale.ROOT));
            case "*", "any" -> {}
            default -> {
                fail(
                        at,
                        "the type {" + written + "} is not one a plan-tool header knows: use string, number, integer,"
                                + " boolean, object, array, null, T[], Array<T>, A|B or *");
                return null;
            }
        }
        return schema;
    }

    /** {@code A|B} into its alternatives, outside {@code <...>}. */
    private static List<String> split(String type) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < type.length(); i++) {
            char c = type.charAt(i);
            if (c == '<' || c == '(') {
                depth++;
            } else if (c == '>' || c == ')') {
                depth--;
            } else if (c == '|' && depth == 0) {
                parts.add(type.substring(start, i).strip());
                start = i + 1;
            }
        }
        parts.add(type.substring(start).strip());
        return parts;
    }

    /** A default as JSON when it reads as JSON ({@code 3}, {@code true}, {@code "a"}), else as text. */
    private static JsonNode literal(String text) {
        if (text.length() >= 2 && text.startsWith("'") && text.endsWith("'")) {
            return JSON.textNode(text.substring(1, text.length() - 1));
        }
        try {
            JsonNode value = MAPPER.readTree(text);
            return value == null || value.isMissingNode() ? JSON.textNode(text) : value;
        } catch (JsonProcessingException e) {
            return JSON.textNode(text);
        }
    }

    private void fail(Pos at, String message) {
        problems.error(at, message);
    }

    /**
     * The lines of the first comment of {@code source} when it is a {@code /**} comment before any code
     * ({@code //} and other block comments before it are skipped), or null.
     */
    private static List<Line> leadingDocComment(String source) {
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (Character.isWhitespace(c) || c == '\uFEFF') {
                i++;
            } else if (source.startsWith("//", i)) {
                int end = source.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (source.startsWith("/**", i) && !source.startsWith("/**/", i)) {
                int end = source.indexOf("*/", i + 3);
                return end < 0 ? null : lines(source, i + 3, end);
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                if (end < 0) {
                    return null;
                }
                i = end + 2;
            } else {
                return null;
            }
        }
        return null;
    }

    /** The comment's text from {@code from} to {@code to}, line by line, each without its leading {@code *}. */
    private static List<Line> lines(String source, int from, int to) {
        List<Line> lines = new ArrayList<>();
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < from; i++) {
            if (source.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        int start = from;
        while (start <= to) {
            int end = source.indexOf('\n', start);
            if (end < 0 || end > to) {
                end = to;
            }
            int at = start;
            while (at < end && (source.charAt(at) == ' ' || source.charAt(at) == '\t')) {
                at++;
            }
            if (at < end && source.charAt(at) == '*') {
                at++;
            }
            while (at < end && (source.charAt(at) == ' ' || source.charAt(at) == '\t')) {
                at++;
            }
            String text = source.substring(at, end).replace("\r", "");
            lines.add(new Line(text, new Pos(line, at - lineStart + 1)));
            line++;
            lineStart = end + 1;
            start = end + 1;
        }
        return lines;
    }
}
