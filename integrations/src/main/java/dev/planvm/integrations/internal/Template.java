package dev.planvm.integrations.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A configured string with references: {@code ${name}} reads the call's param {@code name},
 * {@code ${secret:NAME}} a secret, and two dollar signs before a brace stand for a literal dollar and
 * brace (so a literal reference can be written). Parsed once, when the
 * configuration is loaded ({@link #parse}); rendered per call ({@link #render}).
 */
public final class Template {

    /** How a param's value is written into the text. */
    public enum Encoding {
        /** As text (headers): text as-is, other JSON compact. */
        TEXT,
        /** Percent-encoded as one URL component: every byte but {@code A-Z a-z 0-9 - . _ ~}. */
        URL_COMPONENT
    }

    /** A reference to a param a call did not give. */
    public static final class MissingParam extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final String name;

        MissingParam(String name) {
            super("the params have no '" + name + "'");
            this.name = name;
        }

        public String name() {
            return name;
        }
    }

    sealed interface Part permits Literal, Param, Secret {}

    record Literal(String text) implements Part {}

    record Param(String name) implements Part {}

    record Secret(String name) implements Part {}

    private final String source;
    private final List<Part> parts;

    private Template(String source, List<Part> parts) {
        this.source = source;
        this.parts = List.copyOf(parts);
    }

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException with a sentence naming the bad reference
     */
    public static Template parse(String text) {
        List<Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("$${", i)) {
                literal.append("${");
                i += 3;
            } else if (text.startsWith("${", i)) {
                int end = text.indexOf('}', i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("'${' at character " + (i + 1) + " has no closing '}'");
                }
                String inside = text.substring(i + 2, end).strip();
                if (literal.length() > 0) {
                    parts.add(new Literal(literal.toString()));
                    literal.setLength(0);
                }
                parts.add(reference(inside));
                i = end + 1;
            } else {
                literal.append(text.charAt(i++));
            }
        }
        if (literal.length() > 0) {
            parts.add(new Literal(literal.toString()));
        }
        return new Template(text, parts);
    }

    private static Part reference(String inside) {
        if (inside.startsWith("secret:")) {
            String name = inside.substring("secret:".length()).strip();
            if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException(
                        "'${secret:" + name + "}' does not name a secret (a name like API_TOKEN)");
            }
            return new Secret(name);
        }
        if (!inside.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("'${" + inside
                    + "}' does not name a param (write ${name}, ${secret:NAME}, or $${ for a literal ${)");
        }
        return new Param(inside);
    }

    public String source() {
        return source;
    }

    /** The params it reads, in order of first use. */
    public Set<String> params() {
        Set<String> names = new LinkedHashSet<>();
        parts.forEach(part -> {
            if (part instanceof Param param) {
                names.add(param.name());
            }
        });
        return names;
    }

    /** The secrets it reads. */
    public Set<String> secrets() {
        Set<String> names = new LinkedHashSet<>();
        parts.forEach(part -> {
            if (part instanceof Secret secret) {
                names.add(secret.name());
            }
        });
        return names;
    }

    /** The name of the param when the whole template is exactly one {@code ${name}}, else null. */
    public String soleParam() {
        return parts.size() == 1 && parts.get(0) instanceof Param param ? param.name() : null;
    }

    /**
     * The text for one call.
     *
     * @param params  the call's params (an object)
     * @param secrets secret name to value (only names {@link #secrets()} lists are asked)
     * @throws MissingParam when a referenced param is absent
     */
    public String render(JsonNode params, Function<String, String> secrets, Encoding encoding) {
        StringBuilder out = new StringBuilder();
        for (Part part : parts) {
            if (part instanceof Literal literal) {
                out.append(literal.text());
            } else if (part instanceof Secret secret) {
                out.append(secrets.apply(secret.name()));
            } else if (part instanceof Param param) {
                JsonNode value = params.get(param.name());
                if (value == null) {
                    throw new MissingParam(param.name());
                }
                String text = value.isTextual() ? value.asText() : value.toString();
                out.append(encoding == Encoding.URL_COMPONENT ? encode(text) : text);
            }
        }
        return out.toString();
    }

    /**
     * Percent-encodes {@code text} as one URL component (RFC 3986 unreserved characters kept). A value
     * made of dots only ({@code .}, {@code ..}) has its dots encoded too ({@code %2E%2E}): sent as they are,
     * they would be a dot segment, which moves the request up the server's path.
     */
    public static String encode(String text) {
        StringBuilder out = new StringBuilder();
        boolean dotsOnly = !text.isEmpty() && text.chars().allMatch(c -> c == '.');
        for (byte b : text.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || (c == '.' && !dotsOnly)
                    || c == '_'
                    || c == '~') {
                out.append(c);
            } else {
                out.append('%')
                        .append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
            }
        }
        return out.toString();
    }

    /** Renders with no params and the given secrets (MCP headers and env). */
    public String renderSecrets(Map<String, String> secrets) {
        return render(
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode(), secrets::get, Encoding.TEXT);
    }
}
