package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.CompileResult;
import dev.planvm.dialects.internal.FrontEndOptions;
import dev.planvm.dialects.internal.ImportedScript;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.dialects.internal.SourceText;
import dev.planvm.dialects.internal.yaml.YamlCompiler;
import dev.planvm.instructions.Diagnostic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The PPE dialect (seed 004): {@code .ai.yaml} scripts of dialogue turns and directives, compiled to
 * a StackVM plan in the plan-tool form {@code {"name", "description", "inputs", "output", "plan"}}.
 * Phases: safe YAML reading of every document ({@link PpeReader}), the front matter
 * ({@link FrontMatter}), the dialogues ({@link ScriptCompiler}), then the front-matter values the
 * script reads are put in front. Use it through {@link dev.planvm.dialects.DialectCompiler}.
 */
public final class PpeCompiler {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private PpeCompiler() {}

    /** Compiles a script; never throws on bad input. The size limit is checked by the caller. */
    public static CompileResult compile(String source, String fileName, FrontEndOptions options) {
        return compile(source, fileName, null, options);
    }

    /**
     * Compiles a script read from {@code file} (null: text with no file, which cannot import), and
     * every script it imports, as plan tools ({@link CompileResult#imports()}).
     */
    public static CompileResult compile(String source, String fileName, Path file, FrontEndOptions options) {
        return compile(source, fileName, file, options, new Imports(), false);
    }

    private static CompileResult compile(
            String source, String fileName, Path file, FrontEndOptions options, Imports context, boolean asTool) {
        Problems problems = new Problems();
        int longLine = longLine(source);
        if (longLine > 0) {
            problems.error(
                    new Pos(longLine, YamlCompiler.MAX_LINE_LENGTH + 1),
                    "the line is longer than " + String.format(Locale.ROOT, "%,d", YamlCompiler.MAX_LINE_LENGTH)
                            + " characters: write long text as a block scalar (key: |, then the text on indented"
                            + " lines)");
            return failed(problems);
        }
        LenientForm form = LenientForm.of(source);
        List<PNode.Document> documents = PpeReader.read(form, options.maxNesting(), problems);
        if (documents == null || problems.hasErrors()) {
            return failed(problems);
        }
        boolean frontMatter = documents.size() > 1 && documents.get(0).explicit();
        Inheritance.Parts parts = Inheritance.resolve(
                new Inheritance.Parts(
                        frontMatter ? documents.get(0).root() : null,
                        frontMatter
                                ? documents.get(1).root()
                                : documents.isEmpty() ? null : documents.get(0).root()),
                file == null ? null : file.toAbsolutePath().getParent(),
                options.maxNesting(),
                problems);
        if (problems.hasErrors()) {
            return failed(problems);
        }
        PNode steps = parts.steps();
        Templates templates = new Templates(problems);
        Values values = new Values(problems, templates);
        FrontMatter front = FrontMatter.read(parts.front(), toolName(fileName), problems, values);
        front.id = baseName(fileName);
        templates.constants = new Templates.Constants() {
            @Override
            public String markdown(String name) {
                return markdownOf(name, front, values, options);
            }

            @Override
            public boolean isList(String name) {
                return front.inputs != null
                        && front.inputs
                                .path("properties")
                                .path(name)
                                .path("type")
                                .asText("")
                                .equals("array");
            }

            @Override
            public String outputWords() {
                return front.output != null && !options.inputs().contains("output")
                        ? SchemaText.of(front.output)
                        : null;
            }
        };
        List<ImportedScript> imported = context.resolve(front.imports, file, options, problems);
        PlanBuilder plan = new PlanBuilder(options.maxInstructions());
        ScriptCompiler script = new ScriptCompiler(problems, templates, values, plan, front);
        script.autoAnswer = front.autoAnswer;
        if (!front.promptMessages.isEmpty()) {
            List<PNode> all = new ArrayList<>(front.promptMessages);
            if (steps instanceof PNode.Sequence seq) {
                all.addAll(seq.items());
            } else if (steps != null) {
                all.add(steps);
            }
            steps = new PNode.Sequence(all, all.get(0).pos(), null);
        }
        Map<String, JsonNode> importedPlans = new HashMap<>();
        imported.forEach(i -> importedPlans.put(i.name(), i.plan()));
        script.importedPlans = importedPlans;
        Path folder = file == null ? null : file.toAbsolutePath().getParent();
        script.finder = (name, pos) -> {
            JsonNode found = context.find(name, folder, options, problems, pos, imported);
            if (found != null) {
                importedPlans.put(name, found);
            }
            return found;
        };
        script.group.roles = (role, id, pos) -> {
            String tool = "role_" + role;
            JsonNode found = context.role(tool, id, folder, options, problems, pos, imported);
            if (found == null) {
                return null;
            }
            importedPlans.put(tool, found);
            return tool;
        };
        script.compile(steps, endOf(source));
        defaults(front, templates, values, options, plan, asTool);

        if (plan.overflow()) {
            problems.error(
                    new Pos(1, 1),
                    "the script compiles to more than " + String.format(Locale.ROOT, "%,d", options.maxInstructions())
                            + " instructions");
        }
        if (problems.hasErrors()) {
            return failed(problems);
        }
        Map<Integer, Integer> lines = new LinkedHashMap<>();
        ArrayNode instructions = plan.finish(endOf(source), lines);
        return new CompileResult(document(front, instructions), lines, problems.list(), imported);
    }

    /**
     * The scripts being compiled (to refuse an import cycle) and those already compiled, for one
     * compilation and all its imports.
     */
    private static final class Imports {

        /** The largest imported script, as the plan limit. */
        private static final long MAX_BYTES = 5L * 1024 * 1024;

        final List<Path> compiling = new ArrayList<>();
        private final Map<Path, CompileResult> compiled = new HashMap<>();

        /**
         * Compiles each import of the script in {@code file}: the plan tools it and its imports call,
         * each once by name and file; problems are reported at the import.
         */
        List<ImportedScript> resolve(
                List<FrontMatter.Import> imports, Path file, FrontEndOptions options, Problems problems) {
            List<ImportedScript> all = new ArrayList<>();
            if (imports.isEmpty()) {
                return all;
            }
            if (file == null) {
                problems.error(
                        imports.get(0).pos(),
                        "'import' finds scripts beside the importing script's file: run the script from its file,"
                                + " not from standard input or a request");
                return all;
            }
            Path self = real(file);
            if (compiling.isEmpty()) {
                compiling.add(self);
            }
            Path folder = self.getParent();
            for (FrontMatter.Import i : imports) {
                Path target = folder.resolve(i.path()).normalize();
                if (!Files.isRegularFile(target)) {
                    problems.error(i.pos(), "the imported script '" + i.path() + "' is not found beside this script");
                    continue;
                }
                Path real = real(target);
                if (compiling.contains(real)) {
                    List<String> cycle = new ArrayList<>();
                    compiling
                            .subList(compiling.indexOf(real), compiling.size())
                            .forEach(p -> cycle.add(String.valueOf(p.getFileName())));
                    cycle.add(String.valueOf(real.getFileName()));
                    problems.error(
                            i.pos(),
                            "importing '" + i.path() + "' makes a cycle (" + String.join(" → ", cycle)
                                    + "): a script may not import itself, directly or through others");
                    continue;
                }
                CompileResult result = compiled.get(real);
                if (result == null) {
                    result = compileImport(real, options);
                    compiled.put(real, result);
                }
                if (result.plan() == null) {
                    result.diagnostics().stream()
                            .filter(Diagnostic::isError)
                            .limit(5)
                            .forEach(d -> problems.error(
                                    i.pos(),
                                    "the imported script '" + i.path() + "' does not compile: " + d.format(i.path())));
                    continue;
                }
                add(
                        all,
                        new ImportedScript(i.name(), real, named(result.plan(), i.name()), result.lineOfSeqNo()),
                        i,
                        problems);
                for (ImportedScript below : result.imports()) {
                    add(all, below, i, problems);
                }
            }
            return all;
        }

        private static void add(
                List<ImportedScript> all, ImportedScript script, FrontMatter.Import at, Problems problems) {
            for (ImportedScript other : all) {
                if (other.name().equals(script.name())) {
                    if (!other.file().equals(script.file())) {
                        problems.error(
                                at.pos(),
                                "the plan tool name '" + script.name() + "' is given to two scripts, "
                                        + other.file().getFileName() + " and "
                                        + script.file().getFileName()
                                        + ": import one of them with another name");
                    }
                    return;
                }
            }
            all.add(script);
        }

        /**
         * The plan tool of the script {@code name} that a chain, an invocation or a type names without importing it
         * ({@link Library}: the built-in library, then {@code folder}), compiled and added to {@code all}; null when
         * there is none (reported at {@code pos} when it does not compile).
         */
        JsonNode find(
                String name,
                Path folder,
                FrontEndOptions options,
                Problems problems,
                Pos pos,
                List<ImportedScript> all) {
            Library.Found found = Library.find(name, folder);
            if (found == null) {
                return null;
            }
            Path real = found.builtIn() ? found.file() : real(found.file());
            if (compiling.contains(real)) {
                problems.error(pos, "calling '" + name + "' makes a cycle: a script may not call itself");
                return JSON.nullNode();
            }
            CompileResult result = compiled.get(real);
            if (result == null) {
                result = compileImport(found.text(), real, options);
                compiled.put(real, result);
            }
            if (result.plan() == null) {
                result.diagnostics().stream()
                        .filter(Diagnostic::isError)
                        .limit(1)
                        .forEach(d -> problems.warning(
                                pos,
                                "the script '" + name + "' does not compile (" + d.format(name + ".ai.yaml")
                                        + "): the step that calls it fails when it runs"));
                return JSON.nullNode();
            }
            JsonNode plan = named(result.plan(), name);
            add(
                    all,
                    new ImportedScript(name, real, plan, result.lineOfSeqNo()),
                    new FrontMatter.Import(name, name, pos),
                    problems);
            for (ImportedScript below : result.imports()) {
                add(all, below, new FrontMatter.Import(name, name, pos), problems);
            }
            return plan;
        }

        /**
         * The plan tool {@code tool} of a group chat's role: the script {@code id} ({@link Library}) with the group's
         * messages as its last user turn ({@link GroupChat#roleTurn}); null when there is none or it does not compile
         * (reported).
         */
        JsonNode role(
                String tool,
                String id,
                Path folder,
                FrontEndOptions options,
                Problems problems,
                Pos pos,
                List<ImportedScript> all) {
            Library.Found found = Library.find(id, folder);
            if (found == null) {
                return null;
            }
            Path real = found.builtIn() ? found.file() : real(found.file());
            if (compiling.contains(real)) {
                problems.error(pos, "the role's script '" + id + "' is the script itself");
                return null;
            }
            CompileResult result;
            compiling.add(real);
            try {
                result = PpeCompiler.compile(
                        found.text() + GroupChat.roleTurn(),
                        real.toString(),
                        real.startsWith("<planvm>") ? null : real,
                        new FrontEndOptions(
                                options.singleDomainResult(),
                                options.unwrapSingleElement(),
                                options.tools(),
                                Set.of(GroupChat.INPUT),
                                options.maxNesting(),
                                options.maxAliases(),
                                options.maxInstructions()),
                        this,
                        true);
            } finally {
                compiling.remove(compiling.size() - 1);
            }
            if (result.plan() == null) {
                result.diagnostics().stream()
                        .filter(Diagnostic::isError)
                        .limit(1)
                        .forEach(d -> problems.error(
                                pos, "the role's script '" + id + "' does not compile: " + d.format(id + ".ai.yaml")));
                return null;
            }
            JsonNode plan = named(result.plan(), tool);
            if (plan.path("inputs") instanceof ObjectNode inputs) {
                inputs.remove("required"); // a role is given the group's messages only; its script sets the rest
                inputs.path("properties").forEach(p -> {
                    if (p instanceof ObjectNode property && !property.has("default")) {
                        property.putNull("default");
                    }
                });
            }
            add(
                    all,
                    new ImportedScript(tool, real, plan, result.lineOfSeqNo()),
                    new FrontMatter.Import(tool, tool, pos),
                    problems);
            for (ImportedScript below : result.imports()) {
                add(all, below, new FrontMatter.Import(tool, tool, pos), problems);
            }
            return plan;
        }

        /** Compiles an imported script; its declared inputs are given by the caller, so their defaults are not assigned over them. */
        private CompileResult compileImport(Path file, FrontEndOptions options) {
            Problems problems = new Problems();
            String text = SourceText.read(file, MAX_BYTES, problems);
            if (text == null) {
                return new CompileResult(null, Map.of(), problems.list());
            }
            return compileImport(text, file, options);
        }

        private CompileResult compileImport(String text, Path file, FrontEndOptions options) {
            compiling.add(file);
            try {
                FrontEndOptions own = new FrontEndOptions(
                        options.singleDomainResult(),
                        options.unwrapSingleElement(),
                        options.tools(),
                        Set.of(),
                        options.maxNesting(),
                        options.maxAliases(),
                        options.maxInstructions());
                Path source = file.startsWith("<planvm>") ? null : file;
                CompileResult first = PpeCompiler.compile(text, file.toString(), source, own, this, true);
                Set<String> inputs = new HashSet<>();
                if (first.plan() != null) {
                    first.plan().path("inputs").path("properties").fieldNames().forEachRemaining(inputs::add);
                }
                if (inputs.isEmpty()) {
                    return first;
                }
                return PpeCompiler.compile(
                        text,
                        file.toString(),
                        source,
                        new FrontEndOptions(
                                own.singleDomainResult(),
                                own.unwrapSingleElement(),
                                own.tools(),
                                inputs,
                                own.maxNesting(),
                                own.maxAliases(),
                                own.maxInstructions()),
                        this,
                        true);
            } finally {
                compiling.remove(compiling.size() - 1);
            }
        }

        private static JsonNode named(JsonNode document, String name) {
            ObjectNode copy = ((ObjectNode) document).deepCopy();
            copy.put("name", name);
            return copy;
        }

        static Path real(Path file) {
            try {
                return file.toRealPath();
            } catch (IOException e) {
                return file.toAbsolutePath().normalize();
            }
        }
    }

    /** {@code name} as an input of the script (null when the caller does not give it), unless it is one already. */
    private static void optionalInput(FrontMatter front, String name) {
        if (front.inputs == null) {
            front.inputs = JSON.objectNode().put("type", "object");
            front.inputs.putObject("properties");
        }
        ObjectNode properties = (ObjectNode) front.inputs.get("properties");
        if (!properties.has(name)) {
            properties.putObject(name).putNull("default");
        }
    }

    /** {@code name}'s front-matter value as Markdown, "null" when nothing gives it, null when the caller may. */
    private static String markdownOf(String name, FrontMatter front, Values values, FrontEndOptions options) {
        PNode value = front.defaults.get(name);
        if (value != null && !options.inputs().contains(name)) {
            JsonNode literal = values.literal(value);
            return literal == null ? null : Markdown.of(literal);
        }
        return options.inputs().contains(name) ? null : "null";
    }

    /** The front-matter values the script reads and the run does not give, assigned first (in file order). */
    /**
     * @param asTool whether the script is compiled as a plan tool another script calls: then what it reads and
     *     nothing sets is an input of its own (null when the caller does not give it), not a null it starts with
     */
    private static void defaults(
            FrontMatter front,
            Templates templates,
            Values values,
            FrontEndOptions options,
            PlanBuilder plan,
            boolean asTool) {
        Map<String, JsonNode> chosen = new LinkedHashMap<>();
        boolean grew = true;
        while (grew) { // a value may read another one ("Act as {{name}}")
            grew = false;
            for (Map.Entry<String, PNode> e : front.defaults.entrySet()) {
                String name = e.getKey();
                if (chosen.containsKey(name)
                        || !templates.reads().contains(name)
                        || options.inputs().contains(name)
                        || !ScriptCompiler.NAME.matcher(name).matches()) {
                    continue;
                }
                JsonNode value = values.value(e.getValue());
                chosen.put(name, value);
                grew = true;
            }
        }
        ObjectNode assigned = JSON.objectNode();
        Pos first = null;
        for (Map.Entry<String, PNode> e : front.defaults.entrySet()) {
            JsonNode value = chosen.get(e.getKey());
            if (value != null) {
                assigned.set(e.getKey(), value);
                first = first == null ? e.getValue().pos() : first;
            }
        }
        // what the script reads and nothing gives is undefined, as in the reference: null (shown as empty text)
        java.util.Set<String> written = plan.written();
        for (String name : templates.reads()) {
            if (assigned.has(name) || !ScriptCompiler.NAME.matcher(name).matches()) {
                continue;
            }
            if (options.inputs().contains(name)) {
                if (asTool && !written.contains(name)) {
                    optionalInput(front, name);
                }
                continue;
            }
            if (name.equals("output") && front.output != null && !written.contains(name)) {
                assigned.set(name, front.output); // the script's output schema, as the reference's this.output
                first = first == null ? new Pos(1, 1) : first;
            } else if (name.equals("name") && !written.contains(name)) {
                assigned.put(name, front.id); // the reference's script name: its id, the file's base name
                first = first == null ? new Pos(1, 1) : first;
            } else if (!asTool) {
                assigned.putNull(name);
                first = first == null ? new Pos(1, 1) : first;
            } else if (!written.contains(name)) {
                optionalInput(front, name);
            }
        }
        if (first != null) {
            plan.prologueAssign(
                    assigned, first, "line " + first.line() + ": the front matter's values the script reads");
        }
    }

    private static ObjectNode document(FrontMatter front, ArrayNode instructions) {
        ObjectNode document = JSON.objectNode();
        document.put("name", front.name);
        if (front.description != null) {
            document.put("description", front.description);
        }
        if (front.inputs != null) {
            document.set("inputs", front.inputs);
        }
        if (front.output != null) {
            document.set("output", front.output);
        }
        document.set("plan", instructions);
        return document;
    }

    private static CompileResult failed(Problems problems) {
        return new CompileResult(null, Map.of(), problems.list());
    }

    /** {@code translator} for {@code dir/translator.ai.yaml}. */
    static String baseName(String fileName) {
        String name = fileName.replace('\\', '/');
        name = name.substring(name.lastIndexOf('/') + 1);
        String lower = name.toLowerCase(Locale.ROOT);
        for (String extension : List.of(".ai.yaml", ".ai.yml", ".yaml", ".yml")) {
            if (lower.endsWith(extension) && name.length() > extension.length()) {
                return name.substring(0, name.length() - extension.length());
            }
        }
        return name.isEmpty() ? "script" : name;
    }

    /** {@link #baseName} as a plan tool's name: other signs become {@code _}, a leading digit gets one before it. */
    static String toolName(String fileName) {
        String name = baseName(fileName).replaceAll("[^A-Za-z0-9_.-]", "_");
        name = Character.isLetter(name.charAt(0)) || name.charAt(0) == '_' ? name : "_" + name;
        return name.length() > 64 ? name.substring(0, 64) : name;
    }

    /** PPE's other dialogue mark, a line of {@code ***}, as YAML's {@code ---} (same length, same places). */
    static String dialogueMarks(String source) {
        if (!source.contains("***")) {
            return source;
        }
        StringBuilder out = new StringBuilder(source.length());
        int start = 0;
        while (start <= source.length()) {
            int end = source.indexOf('\n', start);
            String line = end < 0 ? source.substring(start) : source.substring(start, end);
            String bare = line.replaceFirst("\\s+#.*$", "").stripTrailing();
            out.append(bare.equals("***") ? "---" + line.substring(3) : line);
            if (end < 0) {
                break;
            }
            out.append('\n');
            start = end + 1;
        }
        return out.toString();
    }

    /** The place just after the last line with text: where the script's closing steps are said to be. */
    private static Pos endOf(String source) {
        String trimmed = source.stripTrailing();
        int line = 1;
        for (int i = 0; i < trimmed.length(); i++) {
            if (trimmed.charAt(i) == '\n') {
                line++;
            }
        }
        return new Pos(line, 1);
    }

    /** The 1-based number of the first line longer than the YAML dialect's limit, or 0. */
    private static int longLine(String source) {
        int line = 1;
        int start = 0;
        for (int i = 0; i <= source.length(); i++) {
            if (i == source.length() || source.charAt(i) == '\n' || source.charAt(i) == '\r') {
                if (i - start > YamlCompiler.MAX_LINE_LENGTH) {
                    return line;
                }
                if (i < source.length()
                        && source.charAt(i) == '\r'
                        && i + 1 < source.length()
                        && source.charAt(i + 1) == '\n') {
                    i++;
                }
                line++;
                start = i + 1;
            }
        }
        return 0;
    }
}
