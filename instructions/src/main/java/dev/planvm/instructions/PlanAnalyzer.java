package dev.planvm.instructions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.expr.Builtins;
import dev.planvm.instructions.expr.Template;
import dev.planvm.instructions.expr.ValueTemplate;
import dev.planvm.json.JsonPointers;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Phase 4: checks that need the whole plan: unique {@code seq_no}s, order and gaps, jump targets,
 * reachability, variables read but never assigned (a date/time helper name such as {@code today}
 * is not one), {@code final_answer}, legacy {@code {{var}}} references.
 */
final class PlanAnalyzer {

    /** One array element of the plan, typed when it had no errors of its own. */
    record Entry(int index, String pointer, JsonNode node, Integer seqNo, Instruction typed) {}

    private static final Pattern LEGACY_REFERENCE = Pattern.compile("\\{\\{\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*}}");

    private final List<Entry> entries;
    private final List<Diagnostic> out;
    private final PlanInputs inputs;

    private PlanAnalyzer(List<Entry> entries, List<Diagnostic> out, PlanInputs inputs) {
        this.entries = entries;
        this.out = out;
        this.inputs = inputs;
    }

    /** Appends the plan-level diagnostics of {@code entries}, a plan run with {@code inputs}, to {@code out}. */
    static void analyze(List<Entry> entries, List<Diagnostic> out, PlanInputs inputs) {
        new PlanAnalyzer(entries, out, inputs).run();
    }

    private void run() {
        Set<Integer> seqNos = checkUniqueSeqNos();
        checkOrderAndGaps();
        checkJumpTargets(seqNos);
        Set<String> assigned = assignedVariables();
        checkLegacyReferences(assigned);
        boolean allTyped = entries.stream().allMatch(e -> e.typed() != null);
        if (!allTyped) {
            return;
        }
        checkReachability(seqNos);
        checkReferences(assigned);
        DefUse.check(defUseNodes(), assigned, inputs.names(), out);
        if (!assigned.contains(Plan.FINAL_ANSWER)) {
            out.add(Diagnostic.warning(
                    null, "", "no instruction assigns final_answer, so the run's result will be null"));
        }
        checkUse();
    }

    /** {@code use} marks a run only when it is {@code true}: a literal of another kind is probably a mistake. */
    private void checkUse() {
        for (Entry entry : entries) {
            if (entry.typed() instanceof Assign assign
                    && assign.values().get(Plan.USE) instanceof ValueTemplate.Constant constant
                    && !constant.value().isBoolean()) {
                out.add(Diagnostic.warning(
                        entry.seqNo(),
                        entry.pointer() + "/parameters/" + Plan.USE,
                        "'use' is planvm's mark for handing final_answer back to the LLM that wrote the plan"
                                + " (seed 001's use): true marks the run, and this value does not; to hand a"
                                + " value back, assign it to final_answer and set use to true"));
            }
        }
    }

    private Set<Integer> checkUniqueSeqNos() {
        Map<Integer, Entry> first = new HashMap<>();
        for (Entry entry : entries) {
            if (entry.seqNo() == null) {
                continue;
            }
            Entry earlier = first.putIfAbsent(entry.seqNo(), entry);
            if (earlier != null) {
                out.add(Diagnostic.error(
                        entry.seqNo(),
                        entry.pointer() + "/seq_no",
                        "seq_no " + entry.seqNo() + " is used twice (first at " + earlier.pointer() + ")"));
            }
        }
        return first.keySet();
    }

    private void checkOrderAndGaps() {
        Entry previous = null;
        for (Entry entry : entries) {
            if (entry.seqNo() == null) {
                continue;
            }
            if (previous != null && entry.seqNo() < previous.seqNo()) {
                out.add(Diagnostic.warning(
                        entry.seqNo(),
                        entry.pointer() + "/seq_no",
                        "seq_no " + entry.seqNo() + " comes after seq_no " + previous.seqNo()
                                + " in the array; instructions run in seq_no order"));
                break;
            }
            previous = entry;
        }
        List<Entry> sorted = entries.stream()
                .filter(e -> e.seqNo() != null)
                .sorted(Comparator.comparingInt(Entry::seqNo))
                .toList();
        for (int i = 1; i < sorted.size(); i++) {
            int from = sorted.get(i - 1).seqNo();
            int to = sorted.get(i).seqNo();
            if (to - from > 1) {
                out.add(Diagnostic.warning(
                        to, sorted.get(i).pointer() + "/seq_no", "seq_no skips from " + from + " to " + to));
            }
        }
    }

    private void checkJumpTargets(Set<Integer> seqNos) {
        TreeSet<Integer> known = new TreeSet<>(seqNos);
        for (Entry entry : entries) {
            Map<String, Integer> targets = new LinkedHashMap<>();
            if (entry.typed() instanceof Calling calling && calling.onError() instanceof OnError.Jump jump) {
                targets.put("on_error/jump", jump.seqNo());
            }
            if (!(entry.typed() instanceof Jmp jmp)) {
                checkTargets(entry, targets, known);
                continue;
            }
            if (jmp.branch() instanceof Jmp.Unconditional u) {
                targets.put("target_seq", u.target());
            } else {
                List<Integer> both = jmp.jumpTargets();
                targets.put("jump_if_true", both.get(0));
                if (both.size() > 1) {
                    targets.put("jump_if_false", both.get(1));
                }
            }
            checkTargets(entry, targets, known);
        }
    }

    private void checkTargets(Entry entry, Map<String, Integer> targets, TreeSet<Integer> known) {
        targets.forEach((key, target) -> {
            String at = entry.pointer() + "/parameters/" + key;
            if (!known.contains(target)) {
                out.add(Diagnostic.error(
                        entry.seqNo(),
                        at,
                        "jump target " + target + " is not a seq_no of this plan"
                                + (known.isEmpty()
                                        ? ""
                                        : " (they run from " + known.first() + " to " + known.last() + ")")));
            } else if (target.equals(entry.seqNo()) && key.equals("target_seq")) {
                out.add(Diagnostic.warning(entry.seqNo(), at, "jumps to itself: an endless loop"));
            }
        });
    }

    private void checkReachability(Set<Integer> seqNos) {
        List<Instruction> sorted = entries.stream()
                .map(Entry::typed)
                .sorted(Comparator.comparingInt(Instruction::seqNo))
                .toList();
        Map<Integer, Integer> position = new HashMap<>();
        for (int i = 0; i < sorted.size(); i++) {
            position.put(sorted.get(i).seqNo(), i);
        }
        boolean[] reached = new boolean[sorted.size()];
        Deque<Integer> work = new ArrayDeque<>(List.of(0));
        while (!work.isEmpty()) {
            int at = work.pop();
            if (at >= sorted.size() || reached[at]) {
                continue;
            }
            reached[at] = true;
            Instruction instruction = sorted.get(at);
            if (instruction.mayFallThrough()) {
                work.push(at + 1);
            }
            for (int target : instruction.jumpTargets()) {
                if (seqNos.contains(target)) {
                    work.push(position.get(target));
                }
            }
        }
        for (int i = 0; i < sorted.size(); i++) {
            if (!reached[i]) {
                Instruction unreachable = sorted.get(i);
                out.add(Diagnostic.warning(
                        unreachable.seqNo(),
                        unreachable.header().pointer(),
                        "unreachable: no path from the first instruction leads here"));
            }
        }
    }

    private Set<String> assignedVariables() {
        Set<String> assigned = new HashSet<>();
        for (Entry entry : entries) {
            assigned.addAll(writes(entry));
        }
        return assigned;
    }

    /** What an instruction writes, the legacy {@code output_var} / {@code var_name} keys included. */
    private static List<String> writes(Entry entry) {
        List<String> writes = new ArrayList<>();
        if (entry.typed() != null) {
            writes.addAll(entry.typed().writes());
        }
        JsonNode parameters = entry.node().path("parameters");
        for (String legacyKey : List.of("output_var", "var_name")) {
            if (parameters.path(legacyKey).isTextual()) {
                writes.add(parameters.path(legacyKey).asText());
            }
        }
        return writes;
    }

    private void checkReferences(Set<String> assigned) {
        Set<String> reported = new HashSet<>();
        for (Entry entry : entries) {
            String parameters = entry.pointer() + "/parameters";
            forEachTemplate(entry.typed(), parameters, (template, pointer) -> {
                for (String name : template.variables()) {
                    if (assigned.contains(name)
                            || boundInside(entry.typed(), pointer, name)
                            || Builtins.isConstant(name)
                            || inputs.names().contains(name)
                            || !reported.add(name)) {
                        continue;
                    }
                    String reads = "${" + name + "} reads '" + name + "', which no instruction assigns";
                    out.add(
                            inputs.declared()
                                    ? Diagnostic.error(
                                            entry.seqNo(),
                                            pointer,
                                            reads + " and the plan's inputs (" + inputs.describe() + ") do not name")
                                    : Diagnostic.warning(
                                            entry.seqNo(),
                                            pointer,
                                            reads + ": it must be given as an input (--var " + name + "=...)"));
                }
            });
        }
    }

    /** The instructions in seq_no order with what each reads (an assign's key sees the keys before it) and writes. */
    private List<DefUse.Node> defUseNodes() {
        List<Entry> sorted = entries.stream()
                .sorted(Comparator.comparingInt(e -> e.typed().seqNo()))
                .toList();
        List<DefUse.Node> nodes = new ArrayList<>(sorted.size());
        for (Entry entry : sorted) {
            Map<String, String> reads = new LinkedHashMap<>();
            String parameters = entry.pointer() + "/parameters";
            if (entry.typed() instanceof Assign assign) {
                Set<String> earlier = new HashSet<>();
                assign.values().forEach((key, value) -> {
                    walk(value, JsonPointers.append(parameters, key), (template, pointer) -> {
                        for (String name : template.variables()) {
                            if (!earlier.contains(name)) {
                                reads.putIfAbsent(name, pointer);
                            }
                        }
                    });
                    earlier.add(key);
                });
            } else {
                forEachTemplate(entry.typed(), parameters, (template, pointer) -> {
                    for (String name : template.variables()) {
                        if (!boundInside(entry.typed(), pointer, name)) {
                            reads.putIfAbsent(name, pointer);
                        }
                    }
                });
            }
            nodes.add(new DefUse.Node(entry.typed(), reads, writes(entry)));
        }
        return nodes;
    }

    private void checkLegacyReferences(Set<String> assigned) {
        for (Entry entry : entries) {
            if ("reasoning".equals(entry.node().path("type").asText())) {
                continue;
            }
            forEachString(entry.node().path("parameters"), entry.pointer() + "/parameters", (text, pointer) -> {
                Matcher m = LEGACY_REFERENCE.matcher(text);
                while (m.find()) {
                    if (assigned.contains(m.group(1))) {
                        out.add(Diagnostic.error(
                                entry.seqNo(),
                                pointer,
                                "'" + m.group() + "' is the legacy reference syntax: write ${" + m.group(1) + "}"));
                    }
                }
            });
        }
    }

    /**
     * Whether {@code name}, read at {@code pointer}, is a {@code for_each} element or {@code index}
     * bound inside the params of that calling (not a read of the variable store).
     */
    static boolean boundInside(Instruction instruction, String pointer, String name) {
        return instruction instanceof Calling calling
                && calling.forEach() != null
                && calling.forEach().bound().contains(name)
                && !pointer.endsWith("/for_each");
    }

    interface TemplateVisitor {
        void visit(Template template, String pointer);
    }

    interface StringVisitor {
        void visit(String text, String pointer);
    }

    /** Visits every string template an instruction interpolates, with its JSON pointer. */
    static void forEachTemplate(Instruction instruction, String parameters, TemplateVisitor visitor) {
        if (instruction instanceof Assign assign) {
            assign.values().forEach((name, value) -> walk(value, JsonPointers.append(parameters, name), visitor));
        } else if (instruction instanceof Calling calling) {
            String key = calling.header().raw().path("parameters").has("tool_params") ? "tool_params" : "params";
            if (calling.forEach() != null) {
                walk(calling.forEach().list(), parameters + "/for_each", visitor);
            }
            walk(calling.params(), parameters + "/" + key, visitor);
        } else if (instruction instanceof Custom custom) {
            walk(custom.parameters(), parameters, visitor);
        } else if (instruction instanceof Jmp jmp) {
            if (jmp.branch() instanceof Jmp.LlmCondition c) {
                walk(c.prompt(), parameters + "/condition_prompt", visitor);
                if (c.context() != null) {
                    walk(c.context(), parameters + "/context", visitor);
                }
            } else if (jmp.branch() instanceof Jmp.LocalCondition c) {
                walk(c.condition(), parameters + "/condition", visitor);
            }
        }
    }

    private static void walk(ValueTemplate value, String pointer, TemplateVisitor visitor) {
        if (value instanceof ValueTemplate.StringTemplate s) {
            visitor.visit(s.template(), pointer);
        } else if (value instanceof ValueTemplate.ObjectTemplate o) {
            o.fields().forEach((key, field) -> walk(field, JsonPointers.append(pointer, key), visitor));
        } else if (value instanceof ValueTemplate.ArrayTemplate a) {
            for (int i = 0; i < a.elements().size(); i++) {
                walk(a.elements().get(i), JsonPointers.append(pointer, i), visitor);
            }
        }
    }

    private static void forEachString(JsonNode node, String pointer, StringVisitor visitor) {
        if (node.isTextual()) {
            visitor.visit(node.asText(), pointer);
        } else if (node.isObject()) {
            node.properties()
                    .forEach(f -> forEachString(f.getValue(), JsonPointers.append(pointer, f.getKey()), visitor));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                forEachString(node.get(i), JsonPointers.append(pointer, i), visitor);
            }
        }
    }

    static List<Instruction> sortedTyped(List<Entry> entries) {
        List<Instruction> typed = new ArrayList<>();
        for (Entry entry : entries) {
            typed.add(entry.typed());
        }
        typed.sort(Comparator.comparingInt(Instruction::seqNo));
        return typed;
    }
}
