package dev.planvm.dialects.internal.idyll;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a document's elements as the Idyll grammar means them: content blocks (headings, paragraphs,
 * list items, quotes, code, ...) are context; {@code <fncall>}s are executable blocks, in document order;
 * {@code <function>} (or {@code <tool>}) definitions are custom functions, whose blocks run only when a
 * block calls them. The reference engine's spellings ({@code idyll-fn}, {@code function:definition}) and
 * seed 003's ({@code idyll-tool}, {@code tool:definition}) mean the same. Every problem is reported with
 * its line; an element the grammar does not know is skipped with what it holds, as the reference does.
 */
final class DocumentReader {

    /** The most characters of document text given to an LLM as context. */
    static final int MAX_CONTEXT = 20_000;

    private static final Set<String> CONTENT_BLOCKS = Set.of(
            "p",
            "paragraph",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "heading",
            "bulletlistitem",
            "numberedlistitem",
            "checklistitem",
            "code",
            "quote",
            "separator",
            "data");
    private static final Set<String> FUNCTIONS = Set.of("function", "tool");
    private static final Set<String> BLOCKS = blocks();
    private static final ObjectReader JSON = JsonMappers.mapper(JsonLimits.PLAN).reader();

    private final Problems problems;
    private final List<Doc.Block> blocks = new ArrayList<>();
    private final Map<String, Doc.Function> functions = new LinkedHashMap<>();
    private final Map<String, Pos> ids = new HashMap<>();
    private final Set<String> warnedUnknown = new HashSet<>();
    private final StringBuilder context = new StringBuilder();
    private final Set<String> explicitIds = new HashSet<>();
    private int ordinal;

    private DocumentReader(Problems problems) {
        this.problems = problems;
    }

    private static Set<String> blocks() {
        Set<String> all = new HashSet<>(CONTENT_BLOCKS);
        all.add("fncall");
        all.add("trigger");
        all.addAll(FUNCTIONS);
        return Set.copyOf(all);
    }

    /** The document the root element holds, or {@code null} with the problems reported. */
    static Doc read(XmlElement root, Problems problems) {
        return new DocumentReader(problems).document(root);
    }

    private Doc document(XmlElement root) {
        if (!root.name.equals("document")) {
            problems.error(
                    root.pos,
                    root.name.equals("agent") || root.name.equals("diff")
                            ? "the root element is <" + root.name + ">: planvm runs documents, whose root is <document>"
                            : "unknown root element <" + root.name + ">: a document's root is <document>");
            return null;
        }
        collectIds(root);
        List<Doc.Block> top = new ArrayList<>();
        for (XmlElement child : root.elements()) {
            node(child, top, null);
        }
        blocks.addAll(top);
        String id = root.attribute("id");
        return problems.hasErrors() ? null : new Doc(id, blocks, functions, context.toString());
    }

    /** The ids written on blocks, so that made-up ones never take one. */
    private void collectIds(XmlElement element) {
        for (XmlElement child : element.elements()) {
            if (child.name.equals("fncall") && child.attribute("id") != null) {
                explicitIds.add(child.attribute("id"));
            }
            collectIds(child);
        }
    }

    /**
     * One element at block level: a block goes to {@code into}; inside a function's definition
     * ({@code variables} not null) the variables of its content are collected too.
     */
    private void node(XmlElement element, List<Doc.Block> into, List<Rich.Var> variables) {
        String name = element.name;
        if (name.equals("fncall")) {
            Doc.Block block = block(element);
            if (block != null) {
                into.add(block);
                if (variables != null && block.content() != null) {
                    collectVariables(block.content(), variables);
                }
            }
        } else if (name.equals("trigger")) {
            problems.warning(
                    element.pos, "a <trigger> is an event binding and does not run here: only <fncall> blocks run");
        } else if (FUNCTIONS.contains(name)) {
            if (variables != null) {
                problems.error(element.pos, "a custom function cannot be defined inside another one");
                return;
            }
            function(element);
        } else if (CONTENT_BLOCKS.contains(name)) {
            List<Rich> content = rich(element);
            if (variables != null) {
                collectVariables(content, variables);
            } else {
                addContext(Rich.plain(content));
            }
            for (XmlElement child : element.elements()) {
                if (BLOCKS.contains(child.name) && !child.name.equals("code")) {
                    node(child, into, variables);
                }
            }
        } else if (warnedUnknown.add(name)) {
            problems.warning(
                    element.pos,
                    "<" + name + "> is not a block of a document: it is skipped, with what it holds"
                            + (holdsCall(element) ? " (its <fncall> blocks do not run)" : ""));
        }
    }

    private static boolean holdsCall(XmlElement element) {
        for (XmlElement child : element.elements()) {
            if (child.name.equals("fncall") || holdsCall(child)) {
                return true;
            }
        }
        return false;
    }

    private Doc.Block block(XmlElement element) {
        String fn = element.attribute("idyll-fn");
        String seed = element.attribute("idyll-tool");
        if (fn != null && seed != null && !fn.equals(seed)) {
            problems.error(
                    element.pos,
                    "the <fncall> names two functions: idyll-fn=\"" + fn + "\" and idyll-tool=\"" + seed + "\"");
            return null;
        }
        fn = fn != null ? fn : seed;
        ordinal++;
        String id = id(element);
        if (fn == null) {
            problems.error(element.pos, "the <fncall> has no idyll-fn attribute: name the function it calls");
            return null;
        }
        if (!FunctionNames.valid(fn) && !FunctionNames.azure(fn)) {
            String hint = FunctionNames.suggestion(fn);
            problems.error(
                    element.pos,
                    "'" + fn + "' is not a function name: write module:function or function, each a JavaScript"
                            + " identifier (no kebab-case)" + (hint == null ? "" : "; did you mean '" + hint + "'?"));
            return null;
        }
        ObjectNode params = null;
        List<Rich> content = null;
        for (XmlElement child : element.elements()) {
            switch (child.name) {
                case "params" -> params = params(child);
                case "content" -> content = rich(child);
                default -> {
                    // <result> (an earlier run's) and anything else are not inputs
                }
            }
        }
        if (id == null) {
            return null;
        }
        return new Doc.Block(
                id,
                fn,
                FunctionNames.fromAzure(fn),
                params == null ? JsonNodeFactory.instance.objectNode() : params,
                content,
                element);
    }

    /** The block's id (written, or made from its place); {@code null} when it is a duplicate (reported). */
    private String id(XmlElement element) {
        String id = element.attribute("id");
        if (id == null || id.isBlank()) {
            id = "block-" + ordinal;
            for (int n = 2; explicitIds.contains(id) || ids.containsKey(id); n++) {
                id = "block-" + ordinal + "-" + n;
            }
        }
        Pos earlier = ids.putIfAbsent(id, element.pos);
        if (earlier != null) {
            problems.error(
                    element.pos,
                    "two blocks have the id '" + id + "' (the other is at line " + earlier.line()
                            + "): a block's id must be unique");
            return null;
        }
        return id;
    }

    private ObjectNode params(XmlElement element) {
        String text = element.text().strip();
        if (text.isEmpty()) {
            return null;
        }
        JsonNode value;
        try {
            value = JSON.readTree(text);
        } catch (JacksonException e) {
            problems.error(element.pos, "the <params> are not valid JSON: " + e.getOriginalMessage());
            return null;
        }
        if (value == null || !value.isObject()) {
            problems.error(
                    element.pos,
                    "the <params> must be a JSON object, not "
                            + (value == null
                                    ? "nothing"
                                    : value.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
            return null;
        }
        return (ObjectNode) value;
    }

    private void function(XmlElement element) {
        String title = element.attribute("title");
        if (title == null || title.isBlank()) {
            problems.error(element.pos, "the <" + element.name + "> has no title: its title names it");
            return;
        }
        String snake = FunctionNames.snake(title);
        if (snake.isEmpty()) {
            problems.error(element.pos, "the title '" + title + "' gives no name: write letters or digits in it");
            return;
        }
        String name = FunctionNames.CUSTOM + ":" + snake;
        String description = "";
        List<Doc.Block> definition = new ArrayList<>();
        List<Rich.Var> variables = new ArrayList<>();
        for (XmlElement child : element.elements()) {
            String part = child.name.substring(child.name.indexOf(':') + 1);
            if (!child.name.startsWith(element.name + ":")) {
                continue;
            }
            if (part.equals("description")) {
                description = child.text().strip();
            } else if (part.equals("definition")) {
                for (XmlElement node : child.elements()) {
                    node(node, definition, variables);
                }
            }
        }
        String redeclared = redeclaration(variables);
        if (redeclared != null) {
            problems.warning(
                    element.pos,
                    "custom function '" + title + "' declares a variable twice with different prompts: a block that"
                            + " calls it fails (" + redeclared + ")");
        }
        Doc.Function earlier = functions.get(name);
        if (earlier != null) {
            problems.error(
                    element.pos,
                    "two custom functions are named '" + name + "' (the other, '" + earlier.title() + "', is at line "
                            + earlier.pos().line() + ")");
            return;
        }
        functions.put(
                name,
                new Doc.Function(
                        title,
                        name,
                        description,
                        definition,
                        declared(variables),
                        redeclaration(variables),
                        element.pos));
    }

    /** The variables, each by its first occurrence (with that one's prompt), in order. */
    private static List<Doc.Variable> declared(List<Rich.Var> occurrences) {
        Map<String, Doc.Variable> first = new LinkedHashMap<>();
        for (Rich.Var v : occurrences) {
            first.putIfAbsent(v.name(), new Doc.Variable(v.name(), v.prompt()));
        }
        return List.copyOf(first.values());
    }

    /**
     * The first variable given a prompt that differs from the one it was declared with (the first
     * occurrence that has a prompt), as the reference words it; {@code null} when there is none.
     */
    private static String redeclaration(List<Rich.Var> occurrences) {
        Map<String, String> prompts = new HashMap<>();
        for (Rich.Var v : occurrences) {
            if (v.prompt() == null) {
                continue;
            }
            String declared = prompts.putIfAbsent(v.name(), v.prompt());
            if (declared != null && !declared.equals(v.prompt())) {
                return "Variable redeclaration errors: Variable \"" + v.name()
                        + "\" redeclared with different prompt. Original: \"" + declared + "\", New: \"" + v.prompt()
                        + "\"";
            }
        }
        return null;
    }

    private static void collectVariables(List<Rich> content, List<Rich.Var> into) {
        for (Rich part : content) {
            if (part instanceof Rich.Var v) {
                into.add(v);
            }
        }
    }

    /** An element's inline content: text, markup read as text, variables. */
    private List<Rich> rich(XmlElement element) {
        List<Rich> out = new ArrayList<>();
        inline(element, out);
        return out;
    }

    private void inline(XmlElement element, List<Rich> out) {
        for (Object child : element.children) {
            if (child instanceof XmlElement.Text text) {
                out.add(new Rich.Text(text.text()));
                continue;
            }
            XmlElement e = (XmlElement) child;
            if (BLOCKS.contains(e.name) && !e.name.equals("code")) {
                continue; // a block inside a content block: read as a block
            }
            if (e.name.equals("variable")) {
                String name = e.attribute("name");
                if (name == null || name.isBlank()) {
                    problems.warning(e.pos, "a <variable> needs a name: it is left out");
                } else {
                    out.add(new Rich.Var(name, e.attribute("prompt"), e.pos));
                }
            } else if (e.name.startsWith("mention:") && e.attribute("label") != null) {
                out.add(new Rich.Text(e.attribute("label")));
            } else {
                inline(e, out);
            }
        }
    }

    private void addContext(String text) {
        String line = text.strip().replaceAll("\\s+", " ");
        if (line.isEmpty() || context.length() >= MAX_CONTEXT) {
            return;
        }
        if (context.length() > 0) {
            context.append('\n');
        }
        context.append(line, 0, Math.min(line.length(), MAX_CONTEXT - context.length()));
    }
}
