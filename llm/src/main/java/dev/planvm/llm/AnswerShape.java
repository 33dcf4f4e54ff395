package dev.planvm.llm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * What an answer is asked to be, whatever the provider: text, JSON, or JSON fitting a schema. {@link LlmClient}
 * turns it into the provider's request ({@link LlmClient#prepare}).
 *
 * @param kind   text, JSON or a schema
 * @param name   the schema's name (OpenAI's {@code json_schema.name}), for {@link Kind#SCHEMA}
 * @param schema the JSON Schema, for {@link Kind#SCHEMA}; else null
 */
record AnswerShape(Kind kind, String name, ObjectNode schema) {

    /** How the answer is asked for. */
    enum Kind {
        TEXT,
        JSON,
        SCHEMA
    }

    static final AnswerShape TEXT = new AnswerShape(Kind.TEXT, null, null);
    static final AnswerShape JSON = new AnswerShape(Kind.JSON, null, null);

    AnswerShape {
        Objects.requireNonNull(kind, "kind");
        if ((kind == Kind.SCHEMA) != (schema != null)) {
            throw new IllegalArgumentException("a schema goes with Kind.SCHEMA only");
        }
    }

    static AnswerShape schema(String name, ObjectNode schema) {
        return new AnswerShape(Kind.SCHEMA, name, schema);
    }
}
