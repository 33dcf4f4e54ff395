package dev.planvm.instructions;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Loads plans: read JSON → check each instruction against the schema → type it → analyse the whole
 * plan. Every phase reports all the problems it finds, each located by {@code seq_no} and JSON
 * pointer; nothing stops at the first. Thread-safe; one loader can serve many threads.
 *
 * <pre>{@code
 * LoadResult result = new PlanLoader().load(Path.of("plans/example.json"));
 * result.diagnostics().forEach(d -> System.err.println(d.format("example.json")));
 * Plan plan = result.planOrThrow();
 * }</pre>
 */
public final class PlanLoader {

    private final InstructionTyper typer;
    private final Set<String> customTypes;

    /** A loader of the four built-in instruction types, with no extra knowledge of tools. */
    public PlanLoader() {
        this(Set.of(), Set.of());
    }

    /**
     * @param knownTools  tool names, so an instruction whose {@code type} is a tool name gets a
     *                    "use calling" suggestion even when its parameters do not look like a call
     * @param customTypes instruction types besides the four built-ins that the VM has handlers for;
     *                    they load as {@link Custom} instructions
     */
    public PlanLoader(Set<String> knownTools, Set<String> customTypes) {
        this.typer = new InstructionTyper(knownTools, customTypes);
        this.customTypes = Set.copyOf(customTypes);
    }

    public LoadResult load(Path file) {
        return finish(file.toString(), PlanReader.read(file));
    }

    public LoadResult load(InputStream in, String source) {
        return finish(source, PlanReader.read(in));
    }

    public LoadResult load(String json, String source) {
        return finish(source, PlanReader.parse(json.getBytes(StandardCharsets.UTF_8)));
    }

    /** Loads an already-parsed document (an array, or an object with a {@code plan} array). */
    public LoadResult load(JsonNode document, String source) {
        return finish(source, new PlanReader.Read(document, null));
    }

    private LoadResult finish(String source, PlanReader.Read read) {
        if (read.problem() != null) {
            return new LoadResult(source, null, List.of(read.problem()));
        }
        JsonNode document = read.document();
        List<Diagnostic> diagnostics = new ArrayList<>();
        String base = instructionsPointer(document, diagnostics);
        if (base == null) {
            return new LoadResult(source, null, diagnostics);
        }
        JsonNode array = base.isEmpty() ? document : document.get("plan");
        List<PlanAnalyzer.Entry> entries = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            entries.add(typeOne(array.get(i), base + "/" + i, i, diagnostics));
        }
        PlanAnalyzer.analyze(entries, diagnostics);
        sortByInstruction(diagnostics, base);
        boolean valid = diagnostics.stream().noneMatch(Diagnostic::isError);
        Plan plan = valid ? new Plan(source, document, PlanAnalyzer.sortedTyped(entries)) : null;
        return new LoadResult(source, plan, diagnostics);
    }

    private PlanAnalyzer.Entry typeOne(JsonNode node, String pointer, int index, List<Diagnostic> diagnostics) {
        JsonNode seqNode = node.path("seq_no");
        Integer seqNo = seqNode.canConvertToExactIntegral() && seqNode.canConvertToInt() && seqNode.asInt() >= 0
                ? seqNode.asInt() : null;
        List<Diagnostic> schemaProblems = SchemaCheck.check(node, pointer, seqNo, customTypes);
        diagnostics.addAll(schemaProblems);
        boolean schemaValid = schemaProblems.stream().noneMatch(Diagnostic::isError);
        Instruction typed = typer.type(node, pointer, seqNo, schemaValid, diagnostics);
        return new PlanAnalyzer.Entry(index, pointer, node, seqNo, typed);
    }

    /** Orders diagnostics by the instruction they concern (stable; plan-level ones last). */
    private static void sortByInstruction(List<Diagnostic> diagnostics, String base) {
        diagnostics.sort(Comparator.comparingInt(d -> instructionIndex(d.pointer(), base)));
    }

    private static int instructionIndex(String pointer, String base) {
        if (!pointer.startsWith(base + "/")) {
            return Integer.MAX_VALUE;
        }
        int start = base.length() + 1;
        int end = pointer.indexOf('/', start);
        try {
            return Integer.parseInt(end < 0 ? pointer.substring(start) : pointer.substring(start, end));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    /** P1: a bare array, or an object wrapping it as {@code plan}; returns the array's pointer. */
    private static String instructionsPointer(JsonNode document, List<Diagnostic> diagnostics) {
        String pointer;
        JsonNode array;
        if (document.isArray()) {
            pointer = "";
            array = document;
        } else if (document.isObject() && document.has("plan")) {
            pointer = "/plan";
            array = document.get("plan");
            if (!array.isArray()) {
                diagnostics.add(Diagnostic.error(null, pointer, "'plan' must be an array of instructions, not "
                        + kind(array)));
                return null;
            }
        } else {
            String detail = document.isObject() ? " (this object has keys: " + keys(document) + ")" : ", not " + kind(document);
            diagnostics.add(Diagnostic.error(null, "", "a plan is a JSON array of instructions or an object "
                    + "{\"plan\": [...]}" + detail));
            return null;
        }
        if (array.isEmpty()) {
            diagnostics.add(Diagnostic.error(null, pointer, "the plan has no instructions"));
            return null;
        }
        return pointer;
    }

    private static String keys(JsonNode object) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    static String kind(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> node.getNodeType().toString().toLowerCase();
        };
    }
}
