package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.server.internal.Json;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunOptions;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Loads the plans requests carry, in every dialect ({@link PlanSources} over the VM's loader), and
 * remembers the last ones by their text: an agent sending the same plan again is not validated again
 * (plans are immutable, so the VM's dependency analysis of the plan is reused too). Thread-safe.
 */
final class Plans {

    /** Plans longer than this (as JSON text) are not remembered. */
    private static final int MAX_CACHED_CHARS = 16 * 1024;

    private final PlanVm vm;
    private final Map<String, LoadResult> cache;

    Plans(PlanVm vm, int entries) {
        this.vm = vm;
        this.cache = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, LoadResult> eldest) {
                return size() > entries;
            }
        });
    }

    /**
     * Loads the plan of a request: a document, or a text node holding the plan text, in {@code dialect}
     * ({@code null}: the one {@code name}'s extension selects, else StackVM JSON). A YAML or JavaScript
     * plan is text, compiled knowing the run's {@code inputs} (the names it may read).
     */
    LoadResult load(JsonNode plan, String name, Dialect dialect, Set<String> inputs) {
        Dialect language = PlanSources.dialectOf(name, dialect);
        if (language != Dialect.JSON && !plan.isTextual()) {
            throw Fields.bad("/plan", "a " + language.cliName() + " plan is given as text, not " + Fields.kind(plan));
        }
        String text = plan.isTextual() ? plan.textValue() : Json.write(plan);
        if (text.length() > MAX_CACHED_CHARS) {
            return loadNow(plan, text, name, language, inputs);
        }
        String key = name
                + '\u0000'
                + language
                + (language == Dialect.JSON ? "" : "\u0000" + new TreeSet<>(inputs))
                + '\u0000'
                + text;
        LoadResult known = cache.get(key);
        if (known == null) {
            known = loadNow(plan, text, name, language, inputs);
            cache.put(key, known);
        }
        return known;
    }

    private LoadResult loadNow(JsonNode plan, String text, String name, Dialect dialect, Set<String> inputs) {
        if (dialect == Dialect.IDYLL) { // a document's blocks fail alone on a function that is no tool here
            return PlanSources.of(vm.loader())
                    .withInputs(inputs)
                    .withToolSchemas(tool -> vm.tools().find(tool).map(dev.planvm.tools.Tool::paramsSchema))
                    .load(text, name, dialect);
        }
        if (dialect != Dialect.JSON) {
            return PlanSources.of(vm.loader()).withInputs(inputs).load(text, name, dialect);
        }
        return plan.isTextual() ? vm.loader().load(text, name) : vm.loader().load(plan, name);
    }

    /** A loaded plan ({@link #load}), or {@code invalid_plan} with every located diagnostic. */
    LoadResult valid(JsonNode plan, String name, Dialect dialect, Set<String> inputs) {
        LoadResult loaded = load(plan, name, dialect, inputs);
        if (!loaded.valid()) {
            ObjectNode details = JsonNodeFactory.instance.objectNode();
            details.set("diagnostics", diagnostics(loaded, name));
            throw new ServiceException(
                    ServiceException.Kind.INVALID_PLAN,
                    name + " is not a valid plan: " + count(loaded.errors().size(), "error") + ", the first: "
                            + loaded.errors().get(0).format(name),
                    details);
        }
        return loaded;
    }

    /**
     * The validation report: {@code {"valid", "runnable", "source", "instructions", "diagnostics": [...],
     * "problems": [...]}} — {@code problems} say what stops a valid plan from running here live (a tool
     * not installed, a denied tool, what breaks the reach policy), {@code runnable} is true when there are none;
     * with {@code reach}, {@code "reach"} is what the valid plan can do here ({@code planvm-reach/1}, else null).
     */
    ObjectNode report(
            JsonNode plan, String name, RunOptions options, Dialect dialect, Set<String> inputs, boolean reach) {
        LoadResult loaded = load(plan, name, dialect, inputs);
        ObjectNode report = JsonNodeFactory.instance.objectNode();
        report.put("valid", loaded.valid());
        if (reach) {
            report.set(
                    "reach",
                    loaded.valid()
                            ? vm.reach(loaded.plan(), RunMode.live(), options).toJson()
                            : JsonNodeFactory.instance.nullNode());
        }
        List<String> problems = loaded.valid() ? vm.problems(loaded.plan(), RunMode.live(), options) : List.of();
        report.put("runnable", loaded.valid() && problems.isEmpty());
        report.put("source", name);
        report.put("instructions", loaded.valid() ? loaded.plan().instructions().size() : 0);
        report.set("diagnostics", diagnostics(loaded, name));
        ArrayNode list = report.putArray("problems");
        problems.forEach(list::add);
        return report;
    }

    /** Each diagnostic as {@code {"severity", "seq_no", "pointer", "message", "line"}}; {@code line} is the CLI's line. */
    static ArrayNode diagnostics(LoadResult loaded, String name) {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        for (Diagnostic d : loaded.diagnostics()) {
            ObjectNode item =
                    list.addObject().put("severity", d.severity().name().toLowerCase(java.util.Locale.ROOT));
            if (d.seqNo() == null) {
                item.putNull("seq_no");
            } else {
                item.put("seq_no", d.seqNo());
            }
            item.put("pointer", d.pointer()).put("message", d.message()).put("line", d.format(name));
        }
        return list;
    }

    static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
