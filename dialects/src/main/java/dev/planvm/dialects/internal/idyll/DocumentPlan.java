package dev.planvm.dialects.internal.idyll;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Emits the instructions that run a document's blocks in order and build its execution report.
 *
 * <p>A block is a {@code calling} whose failure jumps ({@code on_error}) to an {@code assign} that records
 * the error, so a failing block never stops the others; a block whose function is not a tool (known
 * when the run's tools are) is that error at once, with no call. A call of a custom function is its
 * definition's blocks, in place, after one {@code llm_generate} call that resolves its variables. The
 * last instruction assigns the report to {@code final_answer}: {@code {"nodes": [{"id", "fn",
 * "success", "data" | "error": {"message"}, "duration_ms"}...], "metadata": {"nodesExecuted",
 * "nodesSucceeded", "nodesFailed", "totalDuration_ms"}}} (durations are 0 here: the steps' times are
 * the run's, which a front end may fill in).
 */
final class DocumentPlan {

    /** The plan variables of a document's report: block k's node is {@code idyll_node_k}. */
    static final String PREFIX = "idyll_";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Instructions out;
    private final ToolLookup tools;
    private final Map<String, Doc.Function> functions;
    private final String context;

    DocumentPlan(Instructions out, ToolLookup tools, Map<String, Doc.Function> functions, String context) {
        this.out = out;
        this.tools = tools;
        this.functions = functions;
        this.context = context;
    }

    /** A group of blocks that report together: the document's, or one call's of a custom function. */
    private record Scope(String prefix, Map<String, String> variables, String errorVariable) {
        String node(int k) {
            return prefix + "node_" + k;
        }

        String output(int k) {
            return prefix + "out_" + k;
        }

        String ok() {
            return prefix + "ok";
        }

        String failed() {
            return prefix + "failed";
        }
    }

    /**
     * The document's blocks, each numbered by its place among them (so the report's nodes are
     * {@code idyll_node_<ordinal>}), then the report.
     */
    void document(List<Doc.Block> blocks, List<Integer> ordinals, int line, int endLine) {
        Scope scope = new Scope(PREFIX, null, null);
        List<String> nodes = new ArrayList<>();
        if (!blocks.isEmpty()) {
            ObjectNode init = out.add("assign", line, "line " + line + ": the document's report starts empty");
            init.put(scope.ok(), 0);
            init.put(scope.failed(), 0);
        }
        for (int i = 0; i < blocks.size(); i++) {
            Doc.Block block = blocks.get(i);
            int k = ordinals.get(i);
            Doc.Function function = functions.get(block.name());
            if (function != null) {
                call(block, function, k, scope);
            } else {
                block(block, k, scope, nodes);
            }
            nodes.add(scope.node(k));
        }
        ObjectNode report = out.add("assign", endLine, "line " + endLine + ": the execution report")
                .putObject("final_answer");
        report.set("nodes", references(nodes));
        ObjectNode metadata = report.putObject("metadata");
        metadata.put("nodesExecuted", nodes.size());
        counts(metadata, scope, nodes.isEmpty());
        metadata.put("totalDuration_ms", 0);
    }

    /**
     * A custom function as a plan tool: its inputs {@code context} and {@code content} are what the
     * caller asks (the first that is not empty), its {@code final_answer} the function's report.
     */
    void functionTool(Doc.Function function) {
        int line = function.pos().line();
        Scope scope = new Scope(PREFIX + "f_", vars(function, PREFIX + "f_vars"), PREFIX + "f_error");
        ObjectNode init = out.add("assign", line, "line " + line + ": custom function '" + function.title() + "'");
        init.put(
                PREFIX + "ask",
                "${context || content || " + Text.quoted("Function invoked: " + function.title()) + "}");
        startCounts(init, scope);
        if (!function.variables().isEmpty()) {
            resolveVariables(function, new Text.Template().expression(PREFIX + "ask"), PREFIX + "f_vars", null);
        }
        List<String> nodes = body(function, scope);
        out.add("assign", line, "line " + line + ": the report of custom function '" + function.title() + "'")
                .set("final_answer", functionReport(function, scope, nodes));
    }

    /** One block: a call whose outcome becomes node k of {@code scope}. */
    private void block(Doc.Block block, int k, Scope scope, List<String> before) {
        ToolLookup.Resolved tool = tools.resolve(block.name());
        if (tool == null) {
            failure(block, k, scope, "Function not found: " + block.fn(), true);
            return;
        }
        int line = block.line();
        int seq = out.next();
        ObjectNode call = out.add("calling", line, "line " + line + ": block '" + block.id() + "' calls " + block.fn());
        call.put("tool_name", tool.tool());
        call.set("tool_params", params(block, tool, scope, before));
        call.put("output_vars", scope.output(k));
        call.putObject("on_error").put("jump", seq + 3);
        ObjectNode ok = out.add("assign", line, "line " + line + ": block '" + block.id() + "' succeeded");
        ok.set(scope.node(k), node(block, true, "${" + scope.output(k) + "}"));
        ok.put(scope.ok(), "${" + scope.ok() + " + 1}");
        out.add("jmp", line, "line " + line + ": on to the next block").put("target_seq", seq + 4);
        String message =
                "${join(split(last_error.message, " + Text.quoted("tool '" + tool.tool() + "' failed: ") + "), '')}";
        failure(block, k, scope, message, false);
    }

    /** The assign that records node k of {@code scope} as failed with {@code message} (literal, or an expression). */
    private void failure(Doc.Block block, int k, Scope scope, String message, boolean literal) {
        int line = block.line();
        String text = literal ? Text.literal(message) : message;
        ObjectNode failed = out.add(
                "assign",
                line,
                "line " + line + ": block '" + block.id() + "' failed" + (literal ? ": " + message : ""));
        failed.set(scope.node(k), node(block, false, text));
        failed.put(scope.failed(), "${" + scope.failed() + " + 1}");
        if (scope.errorVariable() != null) {
            failed.put(scope.errorVariable(), text);
        }
    }

    /** The block's params: its own, then {@code content} and the context where the tool takes them. */
    private JsonNode params(Doc.Block block, ToolLookup.Resolved tool, Scope scope, List<String> before) {
        ObjectNode params = (ObjectNode) Text.literal(block.params());
        if (tool.content() && block.content() != null && !params.has("content")) {
            params.put("content", content(block.content(), scope.variables()));
        }
        if (tool.blockId() && !params.has("currentBlockId")) {
            params.put("currentBlockId", Text.literal(block.id()));
        }
        if (tool.previousResults() && !params.has("previousResults")) {
            params.set("previousResults", references(before));
        }
        return params;
    }

    /** A block's content as a plan string: its text, and inside a function each variable's value. */
    private static String content(List<Rich> content, Map<String, String> variables) {
        Text.Template template = new Text.Template();
        for (Rich part : content) {
            if (part instanceof Rich.Text t) {
                template.text(t.text());
            } else if (variables != null) {
                template.expression(variables.get(((Rich.Var) part).name()));
            }
        }
        return template.toString();
    }

    /** Node k: {@code {"id", "fn", "success", "data" | "error": {"message"}, "duration_ms"}}. */
    private static ObjectNode node(Doc.Block block, boolean success, String value) {
        ObjectNode node = JSON.objectNode();
        node.put("id", Text.literal(block.id()));
        node.put("fn", Text.literal(block.fn()));
        node.put("success", success);
        if (success) {
            node.put("data", value);
        } else {
            node.putObject("error").put("message", value);
        }
        node.put("duration_ms", 0);
        return node;
    }

    /**
     * Block k calls custom function {@code function}: its variables are resolved from what the block
     * asks, its blocks run, and block k's data is the function's report; block k fails when the
     * variables cannot be resolved or every block of the function failed.
     */
    private void call(Doc.Block block, Doc.Function function, int k, Scope outer) {
        String invalid = invalidCall(block, function);
        if (invalid != null) {
            failure(block, k, outer, invalid, true);
            return;
        }
        String prefix = PREFIX + "f" + k + "_";
        Scope scope = new Scope(prefix, vars(function, prefix + "vars"), prefix + "error");
        int line = block.line();
        ObjectNode init = out.add(
                "assign",
                line,
                "line " + line + ": block '" + block.id() + "' calls custom function '" + function.title() + "'");
        startCounts(init, scope);
        List<Integer> llmFailure = new ArrayList<>();
        if (!function.variables().isEmpty()) {
            resolveVariables(function, new Text.Template().text(ask(block, function)), prefix + "vars", llmFailure);
        }
        List<String> nodes = body(function, scope);
        out.add("assign", line, "line " + line + ": the report of custom function '" + function.title() + "'")
                .set(outer.output(k), functionReport(function, scope, nodes));
        List<ObjectNode> toFailure = new ArrayList<>();
        if (!nodes.isEmpty()) {
            ObjectNode check = out.add("jmp", line, "line " + line + ": did every block of the function fail?");
            check.put("condition", "${" + scope.ok() + " == 0 && " + scope.failed() + " > 0}");
            toFailure.add(check);
        }
        ObjectNode ok = out.add("assign", line, "line " + line + ": block '" + block.id() + "' succeeded");
        ok.set(outer.node(k), node(block, true, "${" + outer.output(k) + "}"));
        ok.put(outer.ok(), "${" + outer.ok() + " + 1}");
        ObjectNode skip = out.add("jmp", line, "line " + line + ": on to the next block");
        if (!llmFailure.isEmpty()) {
            int seq = out.next();
            out.add("assign", line, "line " + line + ": the variables could not be resolved")
                    .put(
                            scope.errorVariable(),
                            "${join(split(last_error.message, \"tool 'llm_generate' failed: \"), '')}");
            ((ObjectNode) out.plan().get(llmFailure.get(0)).get("parameters").get("on_error")).put("jump", seq);
        }
        int failedAt = out.next();
        toFailure.forEach(check -> check.put("jump_if_true", failedAt));
        ObjectNode failed = out.add("assign", line, "line " + line + ": block '" + block.id() + "' failed");
        failed.set(outer.node(k), node(block, false, "${" + scope.errorVariable() + "}"));
        failed.put(outer.failed(), "${" + outer.failed() + " + 1}");
        skip.put("target_seq", out.next());
    }

    /** Why block {@code block} cannot call {@code function} at all, as its error; or {@code null}. */
    private static String invalidCall(Doc.Block block, Doc.Function function) {
        if (function.redeclaration() != null) {
            return function.redeclaration();
        }
        JsonNode given = block.params().get("context");
        if (given != null && !given.isTextual()) {
            return "Invalid parameters: context must be text, not "
                    + given.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        }
        return null;
    }

    /** What the caller asks of the function: the {@code context} param, else the block's content, else its title. */
    private static String ask(Doc.Block block, Doc.Function function) {
        JsonNode given = block.params().get("context");
        if (given != null && !given.asText().isEmpty()) {
            return given.asText();
        }
        String content = block.content() == null ? "" : Rich.plain(block.content());
        return content.isEmpty() ? "Function invoked: " + function.title() : content;
    }

    /** The function's blocks, each recorded in {@code scope}; their node variables, in order. */
    private List<String> body(Doc.Function function, Scope scope) {
        List<String> nodes = new ArrayList<>();
        int j = 0;
        for (Doc.Block inner : function.blocks()) {
            j++;
            block(inner, j, scope, nodes);
            nodes.add(scope.node(j));
        }
        return nodes;
    }

    private static void startCounts(ObjectNode init, Scope scope) {
        init.put(scope.ok(), 0);
        init.put(scope.failed(), 0);
        init.putNull(scope.errorVariable());
    }

    /** The function's report: {@code {"variables", "nodes", "metadata": {"functionName", "duration_ms", counts}}}. */
    private static ObjectNode functionReport(Doc.Function function, Scope scope, List<String> nodes) {
        ObjectNode report = JSON.objectNode();
        if (function.variables().isEmpty()) {
            report.putObject("variables");
        } else {
            report.put("variables", "${" + scope.prefix() + "vars}");
        }
        report.set("nodes", references(nodes));
        ObjectNode metadata = report.putObject("metadata");
        metadata.put("functionName", Text.literal(function.title()));
        metadata.put("duration_ms", 0);
        metadata.put("nodesExecuted", nodes.size());
        counts(metadata, scope, nodes.isEmpty());
        return report;
    }

    private static void counts(ObjectNode metadata, Scope scope, boolean none) {
        if (none) {
            metadata.put("nodesSucceeded", 0);
            metadata.put("nodesFailed", 0);
        } else {
            metadata.put("nodesSucceeded", "${" + scope.ok() + "}");
            metadata.put("nodesFailed", "${" + scope.failed() + "}");
        }
    }

    /** The expression of each variable of {@code function}: its value in the object {@code holder}. */
    private static Map<String, String> vars(Doc.Function function, String holder) {
        Map<String, String> vars = new java.util.HashMap<>();
        function.variables().forEach(v -> vars.put(v.name(), holder + "[" + Text.quoted(v.name()) + "]"));
        return vars;
    }

    /**
     * One {@code llm_generate} call that resolves every variable of {@code function} from what is asked
     * and the document's text, into the object {@code into}; its {@code seq_no} goes to
     * {@code onError} when a failure should jump (the target is set later).
     */
    private void resolveVariables(Doc.Function function, Text.Template ask, String into, List<Integer> onError) {
        int line = function.pos().line();
        StringBuilder prompt = new StringBuilder("Fill in the variables of the custom function \"")
                .append(function.title())
                .append('"');
        if (!function.description().isEmpty()) {
            prompt.append(" (").append(function.description()).append(')');
        }
        prompt.append(".\nGive each variable a short text value, taken from the request and the context,"
                + " and answer with one JSON object of them.\n\nVariables:\n");
        ObjectNode schema = JSON.objectNode();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = schema.putArray("required");
        for (Doc.Variable v : function.variables()) {
            prompt.append("- ").append(v.name());
            ObjectNode property = properties.putObject(v.name()).put("type", "string");
            if (v.prompt() != null) {
                prompt.append(": ").append(v.prompt());
                property.put("description", Text.literal(v.prompt()));
            }
            prompt.append('\n');
            required.add(v.name());
        }
        schema.put("additionalProperties", false);
        prompt.append("\nRequest:\n");
        int seq = out.next();
        ObjectNode call = out.add(
                "calling",
                line,
                "line " + line + ": resolve the variables of custom function '" + function.title() + "'");
        call.put("tool_name", "llm_generate");
        ObjectNode params = call.putObject("tool_params");
        params.put("prompt", Text.literal(prompt.toString()) + ask);
        if (!context.isEmpty()) {
            params.put("context", Text.literal(context));
        }
        params.set("response_format", schema);
        call.put("output_vars", into);
        if (onError != null) {
            call.putObject("on_error").put("jump", -1);
            onError.add(seq);
        }
    }

    private static ArrayNode references(List<String> variables) {
        ArrayNode array = JSON.arrayNode();
        variables.forEach(v -> array.add("${" + v + "}"));
        return array;
    }
}
