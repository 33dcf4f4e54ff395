package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A script's configuration, the first YAML document when the file starts with {@code ---}: its name
 * and description, {@code input} (the plan's declared inputs, a JSON Schema object) and {@code output}
 * (a JSON Schema), {@code parameters} (the defaults of every {@code llm_generate} call), and every
 * other key as a variable with a default value. What planvm cannot honour is refused by name.
 */
final class FrontMatter {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** Keys of the front matter that are script metadata, not variables. */
    private static final Set<String> METADATA =
            Set.of("_id", "title", "version", "author", "license", "contentType", "modelPattern", "创", "签");

    /** The {@code llm_generate} params that {@code parameters}, {@code $AI} and {@code [[VAR:...]]} may set. */
    static final Set<String> LLM_PARAMS = Set.of("temperature", "max_tokens", "model", "response_format");

    /** Parameters of PPE's own LLM client that change nothing a plan can see: ignored with a warning. */
    static final Set<String> IGNORED_PARAMS =
            Set.of("stream", "timeout", "maxRetry", "continueOnLengthLimit", "minTailRepeatCount", "llmStream");

    String name;
    /** The script's id: its file's base name ({@code name} when the script does not set one). */
    String id;

    String description;
    ObjectNode inputs;
    JsonNode output;
    /** Defaults of every AI call: temperature, max_tokens, model; response_format resolved against output. */
    final ObjectNode llmParams = JSON.objectNode();
    /** Variables with a default value, in file order: assigned when the script reads them and the run does not give them. */
    final Map<String, PNode> defaults = new LinkedHashMap<>();
    /** Group chat: the roles ({@code roles: {name: script id}}), in order. */
    final Map<String, PNode.Scalar> roles = new LinkedHashMap<>();
    /** The scripts imported as plan tools, in file order. */
    final List<Import> imports = new ArrayList<>();
    /** {@code prompt.messages}: the messages the conversation starts with, as turns ({@code role: content}). */
    final List<PNode> promptMessages = new ArrayList<>();
    /** {@code autoRunLLMIfPromptAvailable} (default true): the AI answers by itself when the script ends. */
    boolean autoAnswer = true;
    /**
     * {@code prompt.add_generation_prompt} (default true): the answer is a message of its own; when false, it
     * continues a last assistant message (the result is that message's text and the answer).
     */
    boolean generationPrompt = true;
    /** {@code autoBuildOutputPrompt} (default true): the reference's JSON-schema note is added when it asks for JSON. */
    boolean autoBuildOutputPrompt = true;

    /**
     * An imported script.
     *
     * @param path where it is, as written (relative to the importing script's folder)
     * @param name the plan tool's name: {@code asName}, or the file's base name
     * @param pos  where the import is written
     */
    record Import(String path, String name, Pos pos) {}

    private final Problems problems;
    private final Values values;

    private FrontMatter(Problems problems, Values values) {
        this.problems = problems;
        this.values = values;
    }

    /** The configuration of {@code root} (null: none), named after {@code baseName} unless it names itself. */
    static FrontMatter read(PNode root, String baseName, Problems problems, Values values) {
        FrontMatter fm = new FrontMatter(problems, values);
        fm.name = baseName;
        if (root == null) {
            return fm;
        }
        if (!(root instanceof PNode.Mapping map)) {
            problems.error(root.pos(), "the front matter (between the first two '---') must be a mapping of settings");
            return fm;
        }
        if (!values.refuseTag(root)) {
            return fm;
        }
        PNode parameters = null;
        for (PNode.Entry e : map.entries()) {
            String key = e.key().value();
            Pos pos = e.key().pos();
            switch (key) {
                case "input" -> fm.inputs(e.value());
                case "output" -> fm.output = values.literal(e.value());
                case "parameters" -> parameters = e.value();
                case "name" -> {
                    String named = text(e.value(), fm.name);
                    fm.name = TOOL_NAME.matcher(named).matches() ? named : fm.name;
                    fm.defaults.put(key, e.value());
                }
                case "description" -> {
                    fm.description = text(e.value(), null);
                    fm.defaults.put(key, e.value());
                }
                case "type" -> fm.type(e.value());
                case "roles" -> {
                    if (e.value() instanceof PNode.Mapping m) {
                        m.entries().forEach(r -> {
                            if (r.value() instanceof PNode.Scalar id
                                    && TOOL_NAME.matcher(r.key().value()).matches()) {
                                fm.roles.put(r.key().value(), id);
                            } else {
                                problems.error(r.key().pos(), "a role is 'name: script id'");
                            }
                        });
                    } else {
                        problems.error(pos, "'roles' is a mapping of role names to script ids");
                    }
                    fm.defaults.put(key, e.value());
                }
                case "templateFormat" -> {
                    String format = text(e.value(), "hf");
                    if (!format.equals("hf") && !format.equals("huggingface")) {
                        problems.error(pos, "templateFormat '" + format + "' is not supported: only hf ({{var}})");
                    }
                }
                case "import" -> fm.imports(e.value());
                case "export" ->
                    problems.error(
                            pos,
                            "'export' is not supported: a script is one plan tool; import it whole ('import:"
                                    + " [script.ai.yaml]')");
                case "extends" ->
                    problems.error(pos, "'extends' is not supported: script inheritance is not supported");
                case "permissions" ->
                    problems.warning(
                            pos,
                            "'permissions' (the tools the AI may call on its own) is ignored: planvm's AI calls no"
                                    + " tools; allow the tools $tool calls with --allow-tools");
                case "tools" ->
                    problems.error(
                            pos,
                            "'" + key + "' (tools the AI may call on its own) is not supported: call a configured tool"
                                    + " with $tool, and allow tools with --allow-tools");
                case "prompt" -> fm.prompt(e.value());
                case "completion_delimiter" -> {
                    String delimiter = text(e.value(), "");
                    if (!delimiter.isEmpty()) {
                        fm.llmParams.putArray("stop").add(delimiter);
                    }
                    fm.defaults.put(key, e.value());
                }
                case "autoRunLLMIfPromptAvailable" -> fm.autoAnswer = !"false".equals(text(e.value(), "true"));
                case "shouldThink",
                        "forceJson",
                        "shouldAppendResponse",
                        "disableLlmRequest",
                        "llmReturnResult",
                        "naturalOutput" -> problems.error(pos, "the setting '" + key + "' is not supported");
                default -> {
                    if (IGNORED_PARAMS.contains(key)) {
                        problems.warning(pos, "'" + key + "' is ignored: planvm does not stream answers");
                    } else if (!METADATA.contains(key)) {
                        fm.defaults.put(key, e.value());
                    }
                }
            }
        }
        if (parameters != null) {
            fm.parameters(parameters);
        }
        if (fm.inputs != null) {
            fm.inputDefaults();
            fm.absentInputs();
        }
        return fm;
    }

    private static String text(PNode node, String otherwise) {
        return node instanceof PNode.Scalar s && !s.value().isEmpty() ? s.value() : otherwise;
    }

    /**
     * {@code import}: one script, a list of scripts ({@code - "agent.ai.yaml"} or
     * {@code - "agent.ai.yaml": asName}) or a mapping of scripts to names; each becomes a plan tool.
     */
    private void imports(PNode node) {
        if (node instanceof PNode.Scalar s) {
            importOne(s, null);
        } else if (node instanceof PNode.Sequence seq) {
            for (PNode item : seq.items()) {
                if (item instanceof PNode.Scalar s) {
                    importOne(s, null);
                } else if (item instanceof PNode.Mapping m && m.entries().size() == 1) {
                    importOne(m.entries().get(0).key(), m.entries().get(0).value());
                } else {
                    problems.error(item.pos(), "an import is a script ('agent.ai.yaml') or 'agent.ai.yaml: asName'");
                }
            }
        } else if (node instanceof PNode.Mapping m) {
            for (PNode.Entry e : m.entries()) {
                importOne(e.key(), e.value());
            }
        } else {
            problems.error(node.pos(), "'import' is a script, a list of scripts or a mapping of scripts to names");
        }
    }

    private void importOne(PNode.Scalar script, PNode as) {
        String path = script.value().strip();
        String lower = path.toLowerCase(java.util.Locale.ROOT);
        if (path.startsWith("js:") || lower.endsWith(".js") || lower.endsWith(".mjs")) {
            problems.error(
                    script.pos(), "importing JavaScript ('" + path + "') is not supported: import .ai.yaml scripts");
            return;
        }
        if (!(lower.endsWith(".ai.yaml") || lower.endsWith(".ai.yml")) || path.contains(":") && !isWindowsPath(path)) {
            problems.error(
                    script.pos(),
                    "only PPE scripts (.ai.yaml files) can be imported, not '" + path + "' (packages, js:, ai:, wasm"
                            + " and other languages are not supported)");
            return;
        }
        String name = PpeCompiler.baseName(path);
        if (as != null) {
            if (!(as instanceof PNode.Scalar s)) {
                problems.error(
                        as.pos(),
                        "importing some functions of a script is not supported: import it whole, optionally with a"
                                + " name ('" + path + "': asName)");
                return;
            }
            String given = s.value().strip();
            if (given.startsWith("$")) {
                given = given.substring(1);
            }
            if (!given.isEmpty() && !given.equals("*")) {
                name = given;
            }
        }
        if (!TOOL_NAME.matcher(name).matches()) {
            problems.error(
                    as != null ? as.pos() : script.pos(),
                    "'" + name + "' is not a tool name (a letter or _, then letters, digits, _, . or -): import"
                            + " the script with a name ('" + path + "': asName)");
            return;
        }
        for (Import earlier : imports) {
            if (earlier.name().equals(name)) {
                problems.error(
                        script.pos(),
                        "the name '" + name + "' is already given to the import of '" + earlier.path() + "' (line "
                                + earlier.pos().line() + "): import one of them with another name");
                return;
            }
        }
        imports.add(new Import(path, name, script.pos()));
    }

    private static boolean isWindowsPath(String path) {
        return path.length() > 2 && path.charAt(1) == ':' && Character.isLetter(path.charAt(0));
    }

    /** The names a plan tool may have (as {@code PlanSignature} reads them). */
    static final java.util.regex.Pattern TOOL_NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,63}");

    /**
     * {@code prompt}: {@code messages} ({@code [{role, content}]}) start the conversation; {@code stop_words} are
     * stop texts; the other settings ({@code add_generation_prompt}) change nothing planvm sends.
     */
    private void prompt(PNode node) {
        if (!(node instanceof PNode.Mapping m)) {
            if (!(node instanceof PNode.Scalar s && s.value().isEmpty())) {
                problems.error(node.pos(), "'prompt' is a mapping (messages, add_generation_prompt)");
            }
            return;
        }
        for (PNode.Entry e : m.entries()) {
            switch (e.key().value()) {
                case "messages" -> {
                    if (e.value() instanceof PNode.Sequence seq) {
                        for (PNode item : seq.items()) {
                            promptMessage(item);
                        }
                    } else if (!(e.value() instanceof PNode.Scalar s
                            && s.value().isEmpty())) {
                        problems.error(e.value().pos(), "prompt.messages is a list of {role, content}");
                    }
                }
                case "stop_words" -> {
                    JsonNode words = values.literal(e.value());
                    if (words != null && words.isArray() && !words.isEmpty()) {
                        ArrayNode stop =
                                llmParams.has("stop") ? (ArrayNode) llmParams.get("stop") : llmParams.putArray("stop");
                        words.forEach(stop::add);
                    }
                }
                case "add_generation_prompt" -> generationPrompt = !"false".equals(text(e.value(), "true"));
                default -> {} // nothing else planvm sends depends on them
            }
        }
    }

    private void promptMessage(PNode item) {
        if (item instanceof PNode.Mapping message) {
            PNode.Scalar role = null;
            PNode content = null;
            for (PNode.Entry f : message.entries()) {
                if (f.key().value().equals("role") && f.value() instanceof PNode.Scalar r) {
                    role = r;
                } else if (f.key().value().equals("content")) {
                    content = f.value();
                }
            }
            if (role != null && content != null) {
                PNode.Scalar key = new PNode.Scalar(role.value(), role.pos(), true, null);
                promptMessages.add(new PNode.Mapping(List.of(new PNode.Entry(key, content)), message.pos(), null));
                return;
            }
        }
        problems.error(item.pos(), "a message of prompt.messages is {role: system|user|assistant, content: text}");
    }

    /** {@code type: lib} and {@code type: type} are metadata; any other type was inherited ({@link Inheritance}). */
    private void type(PNode value) {
        // nothing to do: Inheritance has merged the type's settings and steps
    }

    /** {@code input}: a list of names or {@code name: {required, description, type, default, ...}}. */
    private void inputs(PNode node) {
        ObjectNode properties = JSON.objectNode();
        ArrayNode required = JSON.arrayNode();
        if (node instanceof PNode.Sequence seq) {
            for (PNode item : seq.items()) {
                if (item instanceof PNode.Scalar s) {
                    input(s, null, properties, required);
                } else if (item instanceof PNode.Mapping m && m.entries().size() == 1) {
                    input(m.entries().get(0).key(), m.entries().get(0).value(), properties, required);
                } else {
                    problems.error(item.pos(), "an input is a name or 'name: {settings}'");
                }
            }
        } else if (node instanceof PNode.Mapping m) {
            for (PNode.Entry e : m.entries()) {
                input(e.key(), e.value(), properties, required);
            }
        } else {
            problems.error(node.pos(), "'input' is a list of input names or 'name: {settings}' items");
            return;
        }
        inputs = JSON.objectNode();
        inputs.put("type", "object");
        inputs.set("properties", properties);
        if (!required.isEmpty()) {
            inputs.set("required", required);
        }
    }

    private void input(PNode.Scalar name, PNode settings, ObjectNode properties, ArrayNode required) {
        String n = name.value();
        if (!n.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            problems.error(name.pos(), "the input name '" + n + "' is not a variable name (letters, digits, _)");
            return;
        }
        if (properties.has(n)) {
            problems.error(name.pos(), "the input '" + n + "' is declared twice");
            return;
        }
        ObjectNode schema = properties.putObject(n);
        if (settings == null
                || (settings instanceof PNode.Scalar s
                        && Values.typed(s) != null
                        && s.value().isEmpty())) {
            return;
        }
        JsonNode config = values.literal(settings);
        if (config == null) {
            return;
        }
        if (!config.isObject()) {
            problems.error(settings.pos(), "the settings of input '" + n + "' must be a mapping");
            return;
        }
        config.properties().forEach(field -> {
            switch (field.getKey()) {
                case "required" -> {
                    if (field.getValue().asBoolean(false)) {
                        required.add(n);
                    }
                }
                case "index" -> {} // positional arguments: planvm passes inputs by name
                case "default" -> {
                    schema.set("default", field.getValue());
                    defaults.putIfAbsent(n, defaultNode(settings));
                }
                default -> schema.set(field.getKey(), field.getValue());
            }
        });
    }

    /** The YAML node of an input's {@code default:} setting. */
    private static PNode defaultNode(PNode settings) {
        for (PNode.Entry e : ((PNode.Mapping) settings).entries()) {
            if (e.key().value().equals("default")) {
                return e.value();
            }
        }
        throw new IllegalStateException("no default");
    }

    /** Front-matter keys named like an input are its default: the schema says so too. */
    private void inputDefaults() {
        ObjectNode properties = (ObjectNode) inputs.get("properties");
        defaults.forEach((name, node) -> {
            if (properties.has(name) && !properties.get(name).has("default")) {
                JsonNode literal = values.literal(node);
                if (literal != null) {
                    ((ObjectNode) properties.get(name)).set("default", literal);
                }
            }
        });
    }

    /**
     * An optional input with no default is null when the caller does not give it ({@code "default": null}), as an
     * undefined value in the reference: a template shows it as empty text.
     */
    private void absentInputs() {
        java.util.Set<String> required = new java.util.HashSet<>();
        inputs.path("required").forEach(r -> required.add(r.asText()));
        inputs.path("properties").properties().forEach(p -> {
            if (!p.getValue().has("default") && !required.contains(p.getKey())) {
                ((ObjectNode) p.getValue()).putNull("default");
            }
        });
    }

    /** {@code parameters}: the llm_generate params every AI call starts from. */
    private void parameters(PNode node) {
        JsonNode params = values.literal(node);
        if (params == null) {
            return;
        }
        if (!params.isObject()) {
            problems.error(node.pos(), "'parameters' must be a mapping (temperature, max_tokens, response_format)");
            return;
        }
        Map<String, Pos> where = new LinkedHashMap<>();
        for (PNode.Entry e : ((PNode.Mapping) node).entries()) {
            where.put(e.key().value(), e.key().pos());
        }
        params.properties().forEach(field -> {
            String key = field.getKey();
            Pos pos = where.get(key);
            if (key.equals("response_format")) {
                JsonNode format = responseFormat(field.getValue(), output, pos, problems);
                if (format != null) {
                    llmParams.set(key, format);
                }
            } else if (LLM_PARAMS.contains(key)) {
                llmParams.set(key, field.getValue());
            } else if (IGNORED_PARAMS.contains(key)) {
                problems.warning(pos, "the parameter '" + key + "' is ignored: planvm does not stream answers");
            } else if (key.equals("autoBuildOutputPrompt")) {
                autoBuildOutputPrompt = field.getValue().asBoolean(true);
            } else if (key.equals("memoized")) {
                problems.warning(pos, "the parameter 'memoized' is ignored: planvm runs each call");
            } else if (key.equals("stop") || key.equals("stop_words")) {
                if (field.getValue().isArray() && !field.getValue().isEmpty()) {
                    llmParams.set("stop", field.getValue());
                }
            } else {
                problems.error(
                        pos,
                        "the parameter '" + key + "' is not supported by llm_generate (supported: temperature,"
                                + " max_tokens, model, response_format)");
            }
        });
    }

    /**
     * PPE's {@code response_format} as llm_generate's: {@code json} (or {@code json_object}) asks for
     * JSON, the front matter's {@code output} schema when there is one; {@code text} asks for text
     * (null: nothing to send). YAML and natural objects are refused.
     */
    static JsonNode responseFormat(JsonNode format, JsonNode output, Pos pos, Problems problems) {
        String type = format.isTextual() ? format.asText() : format.path("type").asText("");
        switch (type) {
            case "json", "json_object" -> {
                return output != null && output.isObject() ? output : JSON.textNode("json");
            }
            case "text", "" -> {
                return null;
            }
            case "json_schema" -> {
                return format;
            }
            default -> {
                problems.error(
                        pos,
                        "the response format '" + type + "' is not supported (json, json_object or text; yaml and"
                                + " nobj answers are not parsed)");
                return null;
            }
        }
    }
}
