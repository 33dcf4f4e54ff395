package dev.planvm.instructions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.json.JsonValues;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Loads plans: read JSON → check each instruction against the schema → type it → analyse the whole
 * plan. Every phase reports all the problems it finds, each located by {@code seq_no} and JSON
 * pointer; nothing stops at the first. Thread-safe; one loader can serve many threads.
 *
 * <p>Plans are untrusted: a document over a {@link PlanLimits} (size, nesting, instruction count)
 * is refused with one error before it can cost much, never with an exception.
 *
 * <pre>{@code
 * LoadResult result = new PlanLoader().load(Path.of("plans/example.json"));
 * result.diagnostics().forEach(d -> System.err.println(d.format("example.json")));
 * Plan plan = result.planOrThrow();
 * }</pre>
 */
public final class PlanLoader {

    private final InstructionTyper typer;
    private final Set<String> knownTools;
    private final Set<String> customTypes;
    private final PlanLimits limits;
    private final PlanReader reader;
    private final PlanInputs inputs;

    /** A loader of the four built-in instruction types, with no extra knowledge of tools. */
    public PlanLoader() {
        this(Set.of(), Set.of());
    }

    /** A loader of the four built-in instruction types within {@code limits}. */
    public PlanLoader(PlanLimits limits) {
        this(Set.of(), Set.of(), limits);
    }

    /**
     * @param knownTools  tool names, so an instruction whose {@code type} is a tool name gets a
     *                    "use calling" suggestion even when its parameters do not look like a call
     * @param customTypes instruction types besides the four built-ins that the VM has handlers for;
     *                    they load as {@link Custom} instructions
     */
    public PlanLoader(Set<String> knownTools, Set<String> customTypes) {
        this(knownTools, customTypes, PlanLimits.DEFAULT);
    }

    /** As {@link #PlanLoader(Set, Set)}, refusing plans over {@code limits}. */
    public PlanLoader(Set<String> knownTools, Set<String> customTypes, PlanLimits limits) {
        this(knownTools, customTypes, limits, PlanInputs.NONE);
    }

    private PlanLoader(Set<String> knownTools, Set<String> customTypes, PlanLimits limits, PlanInputs inputs) {
        this.typer = new InstructionTyper(knownTools, customTypes);
        this.knownTools = Set.copyOf(knownTools);
        this.customTypes = Set.copyOf(customTypes);
        this.limits = Objects.requireNonNull(limits, "limits");
        this.reader = new PlanReader(limits);
        this.inputs = Objects.requireNonNull(inputs, "inputs");
    }

    /** This loader with other limits (same tools, custom types and inputs). */
    public PlanLoader withLimits(PlanLimits limits) {
        return new PlanLoader(knownTools, customTypes, limits, inputs);
    }

    /**
     * This loader checking plans that are given these variables when they run ({@code --var}): each
     * counts as assigned before the first instruction, so reading it raises no warning.
     */
    public PlanLoader withInputs(Set<String> names) {
        return new PlanLoader(knownTools, customTypes, limits, new PlanInputs(names, false));
    }

    /**
     * This loader checking plans that declare these inputs (a plan tool's {@code inputs},
     * {@code validate --input}): as {@link #withInputs}, and a read of a variable that is neither an
     * input nor assigned by any instruction is an error rather than a warning.
     */
    public PlanLoader withDeclaredInputs(Set<String> names) {
        return new PlanLoader(knownTools, customTypes, limits, new PlanInputs(names, true));
    }

    public PlanLimits limits() {
        return limits;
    }

    /** Loads a plan file; a file over the size limit is refused without being read to the end. */
    public LoadResult load(Path file) {
        return finish(file.toString(), reader.read(file));
    }

    /** Loads a plan from a stream, reading at most one byte more than the size limit. */
    public LoadResult load(InputStream in, String source) {
        return finish(source, reader.read(in));
    }

    public LoadResult load(String json, String source) {
        return finish(source, reader.parse(json));
    }

    /**
     * Loads an already-parsed document (an array, or an object with a {@code plan} array); its
     * nesting and instruction count are checked against the limits as for text.
     */
    public LoadResult load(JsonNode document, String source) {
        Diagnostic tooDeep = reader.checkDepth(document);
        return finish(source, new PlanReader.Read(tooDeep == null ? document : null, tooDeep));
    }

    /**
     * One instruction checked and typed on its own, as {@link #load} checks each instruction of a plan:
     * for a plan that is still arriving (an LLM streaming it), before the checks that need the whole
     * plan (unique {@code seq_no}s, jump targets, references) can run.
     *
     * @param instruction the typed instruction, or {@code null} when it has errors
     * @param diagnostics its own errors and warnings
     */
    public record CheckedInstruction(Instruction instruction, List<Diagnostic> diagnostics) {
        public CheckedInstruction {
            diagnostics = List.copyOf(diagnostics);
        }
    }

    /**
     * Checks and types one instruction of a plan document.
     *
     * @param pointer where the instruction is in the document ({@code /3}, {@code /plan/3})
     */
    public CheckedInstruction checkInstruction(JsonNode instruction, String pointer) {
        List<Diagnostic> diagnostics = new ArrayList<>();
        Diagnostic tooDeep = reader.checkDepth(instruction);
        if (tooDeep != null) {
            return new CheckedInstruction(
                    null, List.of(Diagnostic.error(null, pointer + tooDeep.pointer(), tooDeep.message())));
        }
        PlanAnalyzer.Entry entry = typeOne(instruction, pointer, 0, diagnostics);
        boolean valid = diagnostics.stream().noneMatch(Diagnostic::isError);
        return new CheckedInstruction(valid ? entry.typed() : null, diagnostics);
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
        if (array.size() > limits.maxInstructions()) {
            diagnostics.add(Diagnostic.error(
                    null,
                    base,
                    "the plan has " + PlanLimits.count(array.size()) + " instructions; the limit is "
                            + PlanLimits.count(limits.maxInstructions())));
            return new LoadResult(source, null, diagnostics);
        }
        List<PlanAnalyzer.Entry> entries = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            entries.add(typeOne(array.get(i), base + "/" + i, i, diagnostics));
        }
        PlanSignature signature = PlanSignature.read(document, diagnostics);
        PlanInputs planInputs = inputs;
        if (signature != null && signature.declaresInputs()) {
            Set<String> names = new java.util.LinkedHashSet<>(inputs.names());
            names.addAll(signature.inputNames());
            planInputs = new PlanInputs(names, true);
        }
        PlanAnalyzer.analyze(entries, diagnostics, planInputs);
        sortByInstruction(diagnostics, base);
        boolean valid = diagnostics.stream().noneMatch(Diagnostic::isError);
        Plan plan = valid ? new Plan(source, document, PlanAnalyzer.sortedTyped(entries)) : null;
        return new LoadResult(source, plan, diagnostics);
    }

    private PlanAnalyzer.Entry typeOne(JsonNode node, String pointer, int index, List<Diagnostic> diagnostics) {
        JsonNode seqNode = node.path("seq_no");
        Integer seqNo = seqNode.canConvertToExactIntegral() && seqNode.canConvertToInt() && seqNode.asInt() >= 0
                ? seqNode.asInt()
                : null;
        int before = diagnostics.size();
        JsonValues.find(node)
                .ifPresent(problem -> diagnostics.add(Diagnostic.error(
                        seqNo,
                        pointer + problem.pointer(),
                        "the value is " + problem.description()
                                + ", which JSON cannot hold (a stored run could not keep it)")));
        JsonNode legacyCall = LegacyToolType.asCalling(node, customTypes);
        if (legacyCall != null) {
            diagnostics.add(LegacyToolType.warning(node, pointer, seqNo));
        }
        JsonNode instruction = legacyCall != null ? legacyCall : node;
        List<Diagnostic> schemaProblems = SchemaCheck.check(instruction, pointer, seqNo, customTypes);
        diagnostics.addAll(schemaProblems);
        boolean schemaValid = schemaProblems.stream().noneMatch(Diagnostic::isError);
        Instruction typed = typer.type(instruction, pointer, seqNo, schemaValid, diagnostics);
        if (typed == null
                && diagnostics.subList(before, diagnostics.size()).stream().noneMatch(Diagnostic::isError)) {
            diagnostics.add(untyped(node, pointer, seqNo));
        }
        return new PlanAnalyzer.Entry(index, pointer, instruction, seqNo, typed);
    }

    /**
     * The error for an instruction that could not be typed although no check reported why, so such
     * a plan is refused rather than run with a hole: in practice a {@code type} that is not text
     * (found by fuzzing: {@code "type": 5} loaded as valid and then failed with a NullPointerException).
     */
    private Diagnostic untyped(JsonNode node, String pointer, Integer seqNo) {
        JsonNode type = node.path("type");
        if (!type.isMissingNode() && !type.isTextual()) {
            List<String> types = new ArrayList<>(List.of("assign", "jmp", "calling", "reasoning"));
            customTypes.stream().sorted().forEach(types::add);
            return Diagnostic.error(
                    seqNo,
                    pointer + "/type",
                    "the instruction type must be text (one of " + String.join(", ", types) + "), not " + kind(type));
        }
        return Diagnostic.error(seqNo, pointer, "this instruction cannot be read as any instruction type");
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
                diagnostics.add(
                        Diagnostic.error(null, pointer, "'plan' must be an array of instructions, not " + kind(array)));
                return null;
            }
        } else {
            String detail =
                    document.isObject() ? " (this object has keys: " + keys(document) + ")" : ", not " + kind(document);
            diagnostics.add(Diagnostic.error(
                    null, "", "a plan is a JSON array of instructions or an object " + "{\"plan\": [...]}" + detail));
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
