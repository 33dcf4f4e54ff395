package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A JSON value with every string parsed as a {@link Template} (objects and arrays walked; object
 * keys are not templates).
 */
public sealed interface ValueTemplate {

    /** A subtree with no references and no <code>$${</code> escapes: the original node, used as is. */
    record Constant(JsonNode value) implements ValueTemplate {
        public Constant {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public Set<String> variables() {
            return Set.of();
        }
    }

    /** A string containing references or escapes. */
    record StringTemplate(Template template) implements ValueTemplate {
        public StringTemplate {
            Objects.requireNonNull(template, "template");
        }

        @Override
        public Set<String> variables() {
            return template.variables();
        }
    }

    /** An object with at least one templated field; fields keep document order. */
    record ObjectTemplate(Map<String, ValueTemplate> fields) implements ValueTemplate {
        public ObjectTemplate {
            fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }

        @Override
        public Set<String> variables() {
            Set<String> names = new LinkedHashSet<>();
            for (ValueTemplate v : fields.values()) {
                names.addAll(v.variables());
            }
            return names;
        }
    }

    /** An array with at least one templated element. */
    record ArrayTemplate(List<ValueTemplate> elements) implements ValueTemplate {
        public ArrayTemplate {
            elements = List.copyOf(elements);
        }

        @Override
        public Set<String> variables() {
            Set<String> names = new LinkedHashSet<>();
            for (ValueTemplate v : elements) {
                names.addAll(v.variables());
            }
            return names;
        }
    }

    /**
     * A syntax error found while parsing a string of a JSON value.
     *
     * @param pointer JSON pointer (RFC 6901) of the string
     * @param offset 0-based offset of the problem inside that string
     * @param message plain-sentence description
     */
    record SyntaxProblem(String pointer, int offset, String message) {}

    /**
     * Parses every string in {@code node}. Each syntax error is reported to {@code problems} (not
     * thrown) with the JSON pointer of the string appended to {@code basePointer}; parsing continues
     * after errors, and a string that failed becomes a {@link Constant} of its original node.
     */
    static ValueTemplate parse(JsonNode node, String basePointer, Consumer<SyntaxProblem> problems) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(basePointer, "basePointer");
        Objects.requireNonNull(problems, "problems");
        return ValueTemplateParser.parse(node, basePointer, problems);
    }

    /** All root variables referenced anywhere inside, in document order. */
    Set<String> variables();
}
