package dev.planvm.agent.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.agent.format.AnswerFormat;
import dev.planvm.agent.format.StrictPlanSchema;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.json.JsonErrors;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.Spelling;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a planner's answer as a whole: reads the plan out of it (in the strict answer form, decoded),
 * loads it with the VM's loader (schema, types, the checks that need the whole plan), and adds what
 * only the agent knows: every tool called must be in the {@link Catalog} ("tool 'vector_serch' is not
 * available; did you mean 'vector_search'?"), a {@code condition_prompt} needs LLM conditions, and
 * the VM must be able to run it ({@link PlanVm#problems}). Every problem is located: {@code seq_no}
 * and JSON pointer.
 */
public final class AnswerCheck {

    /**
     * What an answer holds.
     *
     * @param plan        the plan, or {@code null} when any diagnostic is an error
     * @param document    the plan document read from the answer, or {@code null} when none could be read
     * @param diagnostics errors and warnings
     */
    public record Checked(Plan plan, JsonNode document, List<Diagnostic> diagnostics) {
        public List<Diagnostic> errors() {
            return diagnostics.stream().filter(Diagnostic::isError).toList();
        }
    }

    /** The plan document an answer holds, or why it holds none. */
    public record Read(JsonNode document, Diagnostic problem) {}

    private static final Pattern PROBLEM = Pattern.compile("^seq_no (\\d+): (.*)$", Pattern.DOTALL);
    /** The strict answer form writes each object as entries: two more levels per object than the plan. */
    static final int MAX_ANSWER_DEPTH = JsonLimits.PLAN_ANSWER.maxDepth();

    private final PlanVm vm;
    private final RunMode mode;
    private final Catalog catalog;
    private final ObjectMapper mapper = JsonMappers.mapper(JsonLimits.PLAN_ANSWER);

    public AnswerCheck(PlanVm vm, RunMode mode, Catalog catalog) {
        this.vm = vm;
        this.mode = mode;
        this.catalog = catalog;
    }

    /** The plan document an answer holds (decoded from the strict form), or a diagnostic saying why there is none. */
    public Read read(String answer, AnswerFormat format) {
        String text = answer.strip();
        int start = firstBracket(text);
        if (start < 0) {
            return problem("the answer holds no JSON plan (it starts: \"" + shorten(text) + "\")");
        }
        try (JsonParser parser = mapper.getFactory().createParser(text.substring(start))) {
            JsonNode document = mapper.readTree(parser);
            return new Read(format == AnswerFormat.STRICT ? StrictPlanSchema.decode(document) : document, null);
        } catch (JsonProcessingException e) {
            return problem(JsonErrors.malformed(e));
        } catch (IOException e) {
            return problem("the answer cannot be read: " + e.getMessage());
        }
    }

    private static Read problem(String message) {
        return new Read(null, Diagnostic.error(null, "", message));
    }

    /** Checks a whole plan document. */
    public Checked check(JsonNode document, String source) {
        LoadResult loaded = vm.loader().load(document, source);
        List<Diagnostic> diagnostics = new ArrayList<>(loaded.diagnostics());
        Set<Integer> flagged = new HashSet<>();
        JsonNode instructions = document.isArray() ? document : document.path("plan");
        String base = document.isArray() ? "" : "/plan";
        for (int i = 0; i < instructions.size(); i++) {
            Diagnostic problem = toolProblem(instructions.get(i), base + "/" + i);
            if (problem != null) {
                diagnostics.add(problem);
                flagged.add(problem.seqNo());
            }
        }
        if (loaded.valid()) {
            for (String problem : vm.problems(loaded.plan(), mode)) {
                Diagnostic located = locate(problem, loaded.plan());
                if (located.seqNo() == null || !flagged.contains(located.seqNo())) {
                    diagnostics.add(located);
                }
            }
        }
        boolean valid = loaded.valid() && diagnostics.stream().noneMatch(Diagnostic::isError);
        return new Checked(valid ? loaded.plan() : null, document, diagnostics);
    }

    /** Checks an answer's text. */
    public Checked check(String answer, AnswerFormat format, String source) {
        Read read = read(answer, format);
        return read.problem() != null
                ? new Checked(null, null, List.of(read.problem()))
                : check(read.document(), source);
    }

    /**
     * A re-plan's plan: the instructions of {@code before} ahead of {@code fromSeqNo} as they were, then
     * the answer's instructions (which must all come from {@code fromSeqNo} on).
     */
    public Checked checkReplan(String answer, AnswerFormat format, Plan before, int fromSeqNo, String source) {
        Read read = read(answer, format);
        if (read.problem() != null) {
            return new Checked(null, null, List.of(read.problem()));
        }
        JsonNode fragment = read.document();
        JsonNode newInstructions = fragment.isArray() ? fragment : fragment.path("plan");
        ArrayNode combined = JsonNodeFactory.instance.arrayNode();
        for (Instruction kept : before.instructions()) {
            if (kept.seqNo() < fromSeqNo) {
                combined.add(kept.header().raw());
            }
        }
        List<Diagnostic> misplaced = new ArrayList<>();
        if (!newInstructions.isArray() || newInstructions.isEmpty()) {
            misplaced.add(Diagnostic.error(
                    null,
                    "",
                    "the answer holds no instructions (expected {\"plan\": [...]} with "
                            + "the instructions from seq_no " + fromSeqNo + " on)"));
        } else {
            for (JsonNode instruction : newInstructions) {
                JsonNode seq = instruction.path("seq_no");
                if (seq.canConvertToInt() && seq.asInt() < fromSeqNo) {
                    misplaced.add(Diagnostic.error(
                            seq.asInt(),
                            "/" + combined.size() + "/seq_no",
                            "seq_no " + seq.asInt() + " comes before " + fromSeqNo
                                    + ": write only the instructions from seq_no " + fromSeqNo + " on"));
                    continue;
                }
                combined.add(instruction);
            }
        }
        Checked checked = check(combined, source);
        if (misplaced.isEmpty()) {
            return checked;
        }
        List<Diagnostic> all = new ArrayList<>(misplaced);
        all.addAll(checked.diagnostics());
        return new Checked(null, combined, all);
    }

    /** The error for a call of a tool the catalog lacks, or a condition_prompt without LLM conditions; null when fine. */
    private Diagnostic toolProblem(JsonNode instruction, String pointer) {
        JsonNode seq = instruction.path("seq_no");
        Integer seqNo = seq.canConvertToInt() && seq.asInt() >= 0 ? seq.asInt() : null;
        JsonNode parameters = instruction.path("parameters");
        String type = instruction.path("type").asText();
        if (type.equals("calling")) {
            String key = parameters.has("tool_name") ? "tool_name" : "tool";
            JsonNode tool = parameters.path(key);
            if (tool.isTextual() && !catalog.has(tool.asText())) {
                return Diagnostic.error(seqNo, pointer + "/parameters/" + key, notAvailable(tool.asText()));
            }
        } else if (type.equals("jmp") && parameters.has("condition_prompt") && !catalog.conditions()) {
            return Diagnostic.error(
                    seqNo,
                    pointer + "/parameters/condition_prompt",
                    "LLM conditions are not available "
                            + "here: decide with a condition (a ${expr}) instead of a condition_prompt");
        }
        return null;
    }

    private String notAvailable(String tool) {
        List<String> names = catalog.names();
        Optional<String> meant = Spelling.closest(tool, names);
        if (meant.isPresent()) {
            return "tool '" + tool + "' is not available; did you mean '" + meant.get() + "'?";
        }
        return "tool '" + tool + "' is not available ("
                + (names.isEmpty() ? "no tools are available" : "available: " + String.join(", ", names)) + ")";
    }

    /** A VM problem ("seq_no 3: ...") as a diagnostic at its instruction. */
    private static Diagnostic locate(String problem, Plan plan) {
        Matcher matcher = PROBLEM.matcher(problem);
        if (!matcher.matches()) {
            return Diagnostic.error(null, "", problem);
        }
        int seqNo = Integer.parseInt(matcher.group(1));
        String pointer;
        try {
            pointer = plan.instruction(seqNo).header().pointer();
        } catch (RuntimeException unknown) {
            pointer = "";
        }
        return Diagnostic.error(seqNo, pointer, matcher.group(2));
    }

    private static int firstBracket(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '[' || c == '{') {
                return i;
            }
        }
        return -1;
    }

    private static String shorten(String text) {
        String oneLine = text.replaceAll("\\s+", " ");
        return oneLine.length() <= 60 ? oneLine : oneLine.substring(0, 60) + "…";
    }
}
