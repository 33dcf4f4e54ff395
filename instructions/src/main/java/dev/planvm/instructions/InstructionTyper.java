package dev.planvm.instructions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.instructions.expr.Template;
import dev.planvm.instructions.expr.ValueTemplate;
import dev.planvm.json.JsonPointers;
import dev.planvm.json.Spelling;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Phase 3: turns one instruction's JSON into its typed record, parsing every {@code ${...}} it will
 * interpolate. Reports what the schema cannot say well: unknown types (with a suggestion), the
 * "exactly one of" rules of {@code jmp} and {@code calling}, the legacy {@code output_var}, and
 * reference syntax errors.
 */
final class InstructionTyper {

    static final List<String> TYPES = List.of("assign", "calling", "jmp", "reasoning");
    private static final Set<String> TOOL_KEYS =
            Set.of("tool", "tool_name", "params", "tool_params", "output_vars", "output_var", "on_error", "for_each");

    private final Set<String> knownTools;
    private final Set<String> customTypes;

    InstructionTyper(Set<String> knownTools, Set<String> customTypes) {
        this.knownTools = Set.copyOf(knownTools);
        this.customTypes = Set.copyOf(customTypes);
    }

    /**
     * Types the instruction at {@code pointer}. Returns {@code null} when it has errors (reported to
     * {@code out}); {@code schemaValid} says whether the schema check found no error.
     */
    Instruction type(JsonNode node, String pointer, Integer seqNo, boolean schemaValid, List<Diagnostic> out) {
        if (!node.isObject()) {
            return null;
        }
        JsonNode typeNode = node.get("type");
        JsonNode parameters = node.path("parameters");
        if (parameters.has("output_var")) {
            out.add(Diagnostic.error(
                    seqNo,
                    pointer + "/parameters/output_var",
                    "'output_var' is the legacy spelling: a calling instruction stores its output with 'output_vars'"));
        }
        if (typeNode == null || !typeNode.isTextual()) {
            return null;
        }
        String type = typeNode.asText();
        int before = out.size();
        Checked checked = new Checked(seqNo, pointer, out);
        boolean hasParameters = parameters.isObject();
        switch (type) {
            case "assign", "reasoning" -> {}
            case "jmp" -> {
                if (hasParameters) {
                    checkJmp(parameters, checked);
                }
            }
            case "calling" -> {
                if (hasParameters) {
                    checkCalling(parameters, checked);
                }
            }
            default -> {
                if (!customTypes.contains(type)) {
                    out.add(Diagnostic.error(seqNo, pointer + "/type", unknownType(type, node)));
                }
            }
        }
        if (!schemaValid || out.size() > before || seqNo == null) {
            parseTemplatesForDiagnostics(type, parameters, checked);
            return null;
        }
        Header header = new Header(seqNo, type, pointer, textOrNull(node.get("execution_objective")), node);
        Instruction typed = switch (type) {
            case "assign" -> new Assign(header, assignValues(parameters, checked));
            case "jmp" -> new Jmp(header, branch(parameters, checked));
            case "calling" -> calling(header, parameters, checked);
            case "reasoning" ->
                new Reasoning(header, node.has("parameters") ? parameters : JsonNodeFactory.instance.objectNode());
            default ->
                new Custom(
                        header,
                        node.has("parameters")
                                ? checked.template(parameters, "/parameters")
                                : new ValueTemplate.Constant(JsonNodeFactory.instance.objectNode()));
        };
        return out.size() > before ? null : typed;
    }

    /** Where a diagnostic for this instruction goes. */
    private record Checked(Integer seqNo, String pointer, List<Diagnostic> out) {
        void error(String relativePointer, String message) {
            out.add(Diagnostic.error(seqNo, pointer + relativePointer, message));
        }

        ValueTemplate template(JsonNode value, String relativePointer) {
            return ValueTemplate.parse(
                    value,
                    pointer + relativePointer,
                    problem -> out.add(Diagnostic.error(
                            seqNo,
                            problem.pointer(),
                            "bad ${...} reference at character " + (problem.offset() + 1) + ": " + problem.message())));
        }
    }

    private static void checkJmp(JsonNode parameters, Checked at) {
        List<String> kinds = present(parameters, "target_seq", "condition_prompt", "condition");
        if (kinds.isEmpty()) {
            at.error(
                    "/parameters",
                    "a jmp needs one of target_seq (unconditional), condition_prompt (LLM) or condition (expression)");
        } else if (kinds.size() > 1) {
            at.error(
                    "/parameters",
                    "a jmp takes exactly one of target_seq, condition_prompt and condition, not "
                            + String.join(" and ", kinds));
        } else if (!kinds.get(0).equals("target_seq") && !parameters.has("jump_if_true")) {
            at.error(
                    "/parameters", "a jmp with " + kinds.get(0) + " needs jump_if_true (and optionally jump_if_false)");
        }
        JsonNode condition = parameters.get("condition");
        if (condition != null && condition.isTextual() && !isSingleReference(condition.asText())) {
            at.error(
                    "/parameters/condition",
                    "condition must be a boolean or exactly one ${expression}, e.g. \"${attempts < 3}\"");
        }
    }

    private static boolean isSingleReference(String text) {
        try {
            return Template.parse(text).isSingleRef();
        } catch (RuntimeException syntaxError) {
            return true; // reported with its position when the template is parsed
        }
    }

    private static void checkCalling(JsonNode parameters, Checked at) {
        List<String> names = present(parameters, "tool", "tool_name");
        if (names.isEmpty()) {
            at.error("/parameters", "a calling instruction needs the tool's name in 'tool_name' (or 'tool')");
        } else if (names.size() > 1) {
            at.error("/parameters", "a calling instruction names its tool once: use 'tool_name' or 'tool', not both");
        }
        if (parameters.has("params") && parameters.has("tool_params")) {
            at.error("/parameters", "a calling instruction takes 'tool_params' or 'params', not both");
        }
        JsonNode onError = parameters.get("on_error");
        if (onError != null && onError.isObject()) {
            List<String> kinds = present(onError, "value", "jump");
            if (kinds.size() != 1) {
                at.error(
                        "/parameters/on_error",
                        "on_error takes exactly one of {\"value\": V} (bind V to output_vars and go on) or"
                                + " {\"jump\": SEQ} (continue at seq_no SEQ)"
                                + (kinds.isEmpty() ? "" : ", not both"));
            }
        }
        checkForEach(parameters, at);
        checkLiteralSchemas(parameters, at);
    }

    /**
     * The JSON Schemas a call of a built-in tool writes out ({@code human_input}'s {@code schema},
     * {@code llm_generate}'s {@code response_format}) have no {@code $ref} cycle, which would overflow the stack
     * of whatever checks a value against them (an answer, an LLM's reply) at every value.
     */
    private static void checkLiteralSchemas(JsonNode parameters, Checked at) {
        JsonNode tool = parameters.has("tool_name") ? parameters.get("tool_name") : parameters.get("tool");
        String params = parameters.has("tool_params") ? "tool_params" : "params";
        String key = switch (tool == null ? "" : tool.asText()) {
            case "human_input" -> "schema";
            case "llm_generate" -> "response_format";
            default -> null;
        };
        JsonNode schema = key == null ? null : parameters.path(params).get(key);
        if (schema != null && schema.isObject()) {
            List<Diagnostic> found = new ArrayList<>();
            PlanSignature.refuseCycle(schema, "/parameters/" + params + "/" + key, found);
            found.forEach(d -> at.error(d.pointer(), d.message()));
        }
    }

    /**
     * {@code for_each} is exactly one {@code ${reference}} or a literal array; {@code as} is not
     * {@code index} (bound to the element's position); the output is one array, so at most one
     * output variable.
     */
    private static void checkForEach(JsonNode parameters, Checked at) {
        JsonNode forEach = parameters.get("for_each");
        if (forEach == null) {
            if (parameters.has("as")) {
                at.error(
                        "/parameters/as",
                        "'as' names the element of a for_each list, and this calling has no for_each");
            }
            return;
        }
        if (!forEach.isArray() && !(forEach.isTextual() && isSingleReference(forEach.asText()))) {
            at.error(
                    "/parameters/for_each",
                    "for_each must be exactly one ${reference} to a JSON array (e.g. \"${urls}\") or a literal array");
        }
        if (forEach.isArray() && forEach.size() > ForEach.MAX_ELEMENTS) {
            at.error(
                    "/parameters/for_each",
                    "for_each lists " + forEach.size() + " elements; one for_each maps at most "
                            + ForEach.MAX_ELEMENTS);
        }
        JsonNode as = parameters.get("as");
        if (as != null && as.isTextual() && as.asText().equals(ForEach.INDEX)) {
            at.error("/parameters/as", "'as' cannot be 'index': inside a for_each, ${index} is the element's position");
        }
        JsonNode outputVars = parameters.get("output_vars");
        if (outputVars != null && outputVars.isArray() && outputVars.size() > 1) {
            at.error(
                    "/parameters/output_vars",
                    "a calling with for_each stores one array of outputs: name one output variable, not "
                            + outputVars.size());
        }
    }

    private static List<String> present(JsonNode parameters, String... keys) {
        List<String> found = new ArrayList<>();
        for (String key : keys) {
            if (parameters.has(key)) {
                found.add(key);
            }
        }
        return found;
    }

    private String unknownType(String type, JsonNode instruction) {
        String callIt = "{\"type\": \"calling\", \"parameters\": {\"tool_name\": \"" + type
                + "\", \"tool_params\": {...}, \"output_vars\": [...]}}";
        Optional<String> meant = Spelling.closest(type, TYPES);
        if (meant.isPresent() && !knownTools.contains(type)) { // 'caling' with tool_params: a typo, not a tool
            return "unknown instruction type '" + type + "': did you mean '" + meant.get() + "'?";
        }
        if (knownTools.contains(type)
                || looksLikeToolCall(instruction.path("parameters"))
                || looksLikeToolCall(instruction)) {
            return "unknown instruction type '" + type + "': a tool is called with " + callIt;
        }
        if (type.equals("jmp_if")) {
            return "unknown instruction type 'jmp_if': use 'jmp' with condition_prompt, jump_if_true and jump_if_false";
        }
        if (type.equals("condition")) {
            return "unknown instruction type 'condition': branch with 'jmp' (condition_prompt, jump_if_true, jump_if_false); "
                    + "nested true_branch/false_branch instruction arrays are not supported";
        }
        return "unknown instruction type '" + type + "' (the types are " + String.join(", ", TYPES)
                + "); to call a tool of that name, write " + callIt;
    }

    private static boolean looksLikeToolCall(JsonNode parameters) {
        for (Iterator<String> names = parameters.fieldNames(); names.hasNext(); ) {
            if (TOOL_KEYS.contains(names.next())) {
                return true;
            }
        }
        return false;
    }

    /** Parses the templates of an instruction that will not be typed, so syntax errors are still all listed. */
    private static void parseTemplatesForDiagnostics(String type, JsonNode parameters, Checked at) {
        if (!parameters.isObject()) {
            return;
        }
        switch (type) {
            case "assign" -> assignValues(parameters, at);
            case "jmp" -> {
                for (String key : List.of("condition_prompt", "context", "condition")) {
                    if (parameters.has(key)) {
                        at.template(parameters.get(key), "/parameters/" + key);
                    }
                }
            }
            case "calling" -> {
                for (String key : List.of("tool_params", "params", "for_each")) {
                    if (parameters.has(key)) {
                        at.template(parameters.get(key), "/parameters/" + key);
                    }
                }
            }
            default -> {}
        }
    }

    private static Map<String, ValueTemplate> assignValues(JsonNode parameters, Checked at) {
        Map<String, ValueTemplate> values = new LinkedHashMap<>();
        parameters
                .properties()
                .forEach(field -> values.put(
                        field.getKey(),
                        at.template(field.getValue(), "/parameters/" + JsonPointers.escape(field.getKey()))));
        return values;
    }

    private static Jmp.Branch branch(JsonNode p, Checked at) {
        if (p.has("target_seq")) {
            return new Jmp.Unconditional(p.get("target_seq").asInt());
        }
        int ifTrue = p.get("jump_if_true").asInt();
        Integer ifFalse = p.hasNonNull("jump_if_false") ? p.get("jump_if_false").asInt() : null;
        if (p.has("condition_prompt")) {
            ValueTemplate context = p.has("context") ? at.template(p.get("context"), "/parameters/context") : null;
            return new Jmp.LlmCondition(
                    at.template(p.get("condition_prompt"), "/parameters/condition_prompt"), context, ifTrue, ifFalse);
        }
        return new Jmp.LocalCondition(at.template(p.get("condition"), "/parameters/condition"), ifTrue, ifFalse);
    }

    private static Calling calling(Header header, JsonNode p, Checked at) {
        String tool =
                p.has("tool_name") ? p.get("tool_name").asText() : p.get("tool").asText();
        String paramsKey = p.has("tool_params") ? "tool_params" : "params";
        ValueTemplate params = p.has(paramsKey)
                ? at.template(p.get(paramsKey), "/parameters/" + paramsKey)
                : new ValueTemplate.Constant(JsonNodeFactory.instance.objectNode());
        ForEach forEach = p.has("for_each")
                ? new ForEach(
                        at.template(p.get("for_each"), "/parameters/for_each"),
                        p.hasNonNull("as") ? p.get("as").asText() : ForEach.DEFAULT_AS)
                : null;
        return new Calling(
                header,
                tool,
                params,
                outputVars(p.get("output_vars")),
                onError(p.get("on_error")),
                forEach,
                p.path("slots").asBoolean(false));
    }

    private static OnError onError(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        return node.has("jump") ? new OnError.Jump(node.get("jump").asInt()) : new OnError.Value(node.get("value"));
    }

    private static OutputVars outputVars(JsonNode node) {
        if (node == null || node.isNull()) {
            return new OutputVars.None();
        }
        if (node.isTextual()) {
            return new OutputVars.Whole(node.asText());
        }
        List<String> names = new ArrayList<>();
        node.forEach(name -> names.add(name.asText()));
        return new OutputVars.Keys(names);
    }

    private static String textOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }
}
