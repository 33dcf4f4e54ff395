package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.dialects.internal.YamlScalars;
import java.util.HashMap;
import java.util.Map;

/**
 * YAML values of a script as JSON. Plain scalars are typed by YAML 1.2's core schema ({@code true},
 * {@code null}, {@code 12}, {@code 0.7}; never YAML 1.1's {@code yes} or octal {@code 012}); quoted
 * ones are text. As {@linkplain #value data a step uses}, text is a template ({@link Templates});
 * as {@linkplain #literal metadata} (schemas), text stays as written. Tags are refused by name.
 */
final class Values {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Problems problems;
    private final Templates templates;

    Values(Problems problems, Templates templates) {
        this.problems = problems;
        this.templates = templates;
    }

    /** {@code node} as data a step uses: text is a template. Null after a problem (reported). */
    JsonNode value(PNode node) {
        return convert(node, true);
    }

    /** {@code node} as metadata, text as written. Null after a problem (reported). */
    JsonNode literal(PNode node) {
        return convert(node, false);
    }

    /** Text with {@code [[@script(args)]]} in a directive's value: the script runs first (set by the compiler). */
    java.util.function.BiFunction<String, Pos, String> invocations;

    private JsonNode convert(PNode node, boolean template) {
        if (!refuseTag(node)) {
            return null;
        }
        if (node instanceof PNode.Scalar s) {
            JsonNode typed = typed(s);
            if (typed != null) {
                return typed;
            }
            if (!template) {
                return JSON.textNode(s.value());
            }
            String text = invocations != null
                            && !s.value().startsWith("?=")
                            && s.value().contains("[[@")
                    ? invocations.apply(s.value(), s.pos())
                    : templates.value(s.value(), s.pos());
            return text == null ? null : JSON.textNode(text);
        }
        if (node instanceof PNode.Sequence seq) {
            ArrayNode array = JSON.arrayNode();
            boolean ok = true;
            for (PNode item : seq.items()) {
                JsonNode v = convert(item, template);
                ok &= v != null;
                array.add(v == null ? JSON.nullNode() : v);
            }
            return ok ? array : null;
        }
        PNode.Mapping map = (PNode.Mapping) node;
        ObjectNode object = JSON.objectNode();
        Map<String, Pos> seen = new HashMap<>();
        boolean ok = true;
        for (PNode.Entry e : map.entries()) {
            Pos first = seen.putIfAbsent(e.key().value(), e.key().pos());
            if (first != null) {
                problems.error(
                        e.key().pos(), "duplicate key '" + e.key().value() + "' (first at " + first.describe() + ")");
                ok = false;
                continue;
            }
            JsonNode v = convert(e.value(), template);
            ok &= v != null;
            object.set(e.key().value(), v == null ? JSON.nullNode() : v);
        }
        return ok ? object : null;
    }

    /** A plain scalar's YAML 1.2 core-schema value (null, boolean, number), or null when it is text. */
    static JsonNode typed(PNode.Scalar s) {
        return s.plain() ? YamlScalars.typed(s.value()) : null;
    }

    /** False, with an error naming it, when {@code node} carries a tag. */
    boolean refuseTag(PNode node) {
        String tag = node.tag();
        if (tag == null) {
            return true;
        }
        if (tag.startsWith("!fn")) {
            problems.error(
                    node.pos(),
                    "JavaScript functions (" + tag + ") are not supported: planvm runs no script code;"
                            + " compute with {{...}} expressions or call a configured tool ($tool)");
        } else {
            problems.error(node.pos(), "YAML tags (" + tag + ") are not supported in scripts");
        }
        return false;
    }

    /** Int values that fit an int are IntNodes (as the plan loader reads them). */
    static JsonNode number(long n) {
        return YamlScalars.number(n);
    }
}
