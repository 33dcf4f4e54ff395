package dev.planvm.dialects.internal.idyll;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.CompileResult;
import dev.planvm.dialects.internal.FrontEndOptions;
import dev.planvm.dialects.internal.ImportedScript;
import dev.planvm.dialects.internal.Problems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The Idyll dialect (seed 003): an XML document whose root is {@code <document>}, compiled to a plan in
 * the plan-tool form {@code {"name", "description", "inputs", "plan"}} that runs its blocks in order and
 * answers the execution report ({@link DocumentPlan}); each custom function it defines is also compiled
 * to a plan tool for plans ({@link CompileResult#imports()}). Phases: safe XML reading
 * ({@link XmlReader}), the grammar ({@link DocumentReader}), the plan. Use it through
 * {@link dev.planvm.dialects.DialectCompiler}.
 */
public final class IdyllCompiler {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,63}");

    private IdyllCompiler() {}

    /**
     * Compiles a document; never throws on bad input. The size limit is checked by the caller.
     *
     * @param file  the document's file, or {@code null} for text (then its functions are not offered as plan tools)
     * @param tools each tool's params schema by name, or {@code null} when the run's tools are not known
     * @param block the id of the one block to run, or {@code null} for all of them
     */
    public static CompileResult compile(
            String source,
            String fileName,
            Path file,
            FrontEndOptions options,
            Function<String, Optional<JsonNode>> tools,
            String block) {
        Problems problems = new Problems();
        XmlElement root = XmlReader.read(source, options.maxNesting(), problems);
        Doc doc = root == null ? null : DocumentReader.read(root, problems);
        if (doc == null) {
            return failed(problems);
        }
        List<Doc.Block> blocks = new ArrayList<>();
        List<Integer> ordinals = new ArrayList<>();
        for (int i = 0; i < doc.blocks().size(); i++) {
            Doc.Block b = doc.blocks().get(i);
            if (block == null || b.id().equals(block)) {
                blocks.add(b);
                ordinals.add(i + 1);
            }
        }
        if (block != null && blocks.isEmpty()) {
            problems.fileError(noSuchBlock(doc, block));
            return failed(problems);
        }
        ToolLookup lookup = new ToolLookup(tools);
        warnUnknown(doc, lookup, problems);
        Instructions out = new Instructions();
        int endLine = lineCount(source);
        new DocumentPlan(out, lookup, doc.functions(), doc.context())
                .document(blocks, ordinals, root.pos.line(), endLine);
        if (out.size() > options.maxInstructions()) {
            problems.error(
                    root.pos,
                    "the document compiles to more than " + String.format(Locale.ROOT, "%,d", options.maxInstructions())
                            + " instructions");
            return failed(problems);
        }
        String name = name(doc, fileName);
        ObjectNode plan = planTool(
                name,
                "The Idyll document " + (fileName == null ? name : fileName) + ": runs its " + blocks.size()
                        + (blocks.size() == 1 ? " block" : " blocks") + " and answers the execution report",
                out);
        return new CompileResult(
                plan, out.lines(), problems.list(), file == null ? List.of() : imports(doc, lookup, file));
    }

    /** Each custom function as a plan tool named by its Azure form ({@code custom--search_the_web}). */
    private static List<ImportedScript> imports(Doc doc, ToolLookup lookup, Path file) {
        List<ImportedScript> imports = new ArrayList<>();
        for (Doc.Function function : doc.functions().values()) {
            if (function.redeclaration() != null) {
                continue; // a call would only fail: the function is not offered
            }
            Instructions out = new Instructions();
            new DocumentPlan(out, lookup, doc.functions(), doc.context()).functionTool(function);
            ObjectNode plan = planTool(
                    function.toolName(),
                    function.description().isEmpty() ? "Custom function: " + function.title() : function.description(),
                    out);
            ObjectNode properties = (ObjectNode) plan.get("inputs").get("properties");
            properties
                    .putObject("context")
                    .put("type", "string")
                    .put("default", "")
                    .put("description", "what the caller asks: the variables are resolved from it");
            properties
                    .putObject("content")
                    .put("type", "string")
                    .put("default", "")
                    .put("description", "what the caller asks, when context is not given");
            imports.add(new ImportedScript(function.toolName(), file, plan, out.lines()));
        }
        return imports;
    }

    private static ObjectNode planTool(String name, String description, Instructions out) {
        ObjectNode document = JSON.objectNode();
        document.put("name", name);
        document.put("description", description);
        ObjectNode inputs = document.putObject("inputs");
        inputs.put("type", "object");
        inputs.putObject("properties");
        document.set("plan", out.plan());
        return document;
    }

    /** The document's name as a plan tool: its {@code id}, else its file's name, else {@code document}. */
    private static String name(Doc doc, String fileName) {
        if (doc.id() != null && TOOL_NAME.matcher(doc.id()).matches()) {
            return doc.id();
        }
        if (fileName != null) {
            String base = Path.of(fileName).getFileName() == null
                    ? fileName
                    : Path.of(fileName).getFileName().toString();
            int dot = base.lastIndexOf('.');
            base = (dot > 0 ? base.substring(0, dot) : base).replaceAll("[^A-Za-z0-9_.-]", "_");
            if (!base.isEmpty()
                    && !Character.isDigit(base.charAt(0))
                    && base.charAt(0) != '-'
                    && base.charAt(0) != '.') {
                return base.length() > 64 ? base.substring(0, 64) : base;
            }
        }
        return "document";
    }

    private static void warnUnknown(Doc doc, ToolLookup lookup, Problems problems) {
        if (!lookup.known()) {
            return;
        }
        List<Doc.Block> all = new ArrayList<>(doc.blocks());
        doc.functions().values().forEach(f -> all.addAll(f.blocks()));
        for (Doc.Block b : all) {
            boolean custom =
                    doc.functions().containsKey(b.name()) && doc.blocks().contains(b);
            if (!custom && lookup.resolve(b.name()) == null) {
                problems.warning(
                        b.pos(),
                        "block '" + b.id() + "' calls '" + b.fn() + "', which is not a tool here: it fails with"
                                + " 'Function not found'");
            }
        }
    }

    private static String noSuchBlock(Doc doc, String block) {
        for (Doc.Function function : doc.functions().values()) {
            for (Doc.Block b : function.blocks()) {
                if (b.id().equals(block)) {
                    return "block '" + block + "' is in the definition of custom function '" + function.title()
                            + "' (line " + b.line() + "): it runs when a block calls the function";
                }
            }
        }
        List<String> ids = doc.blocks().stream().map(Doc.Block::id).toList();
        return "the document has no block '" + block + "'"
                + (ids.isEmpty() ? " (it has no blocks)" : "; its blocks: " + String.join(", ", ids));
    }

    private static int lineCount(String source) {
        int lines = 1;
        for (int i = 0; i < source.length() - 1; i++) {
            if (source.charAt(i) == '\n') {
                lines++;
            }
        }
        return lines;
    }

    private static CompileResult failed(Problems problems) {
        return new CompileResult(null, Map.of(), problems.list());
    }
}
