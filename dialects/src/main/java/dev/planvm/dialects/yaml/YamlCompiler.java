package dev.planvm.dialects.yaml;

import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.DialectOptions;
import dev.planvm.dialects.internal.Backend;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.dialects.internal.Program;
import dev.planvm.dialects.internal.Results;
import java.util.Map;

/**
 * The YAML dataflow dialect (seed 000): {@code ${...}} repair, safe YAML reading, the plan's
 * structure, then the shared back end. Use it through {@link dev.planvm.dialects.DialectCompiler}.
 */
public final class YamlCompiler {

    private YamlCompiler() {
    }

    /** Compiles a YAML plan; never throws on bad input. The size limit is checked by the caller. */
    public static Compiled compile(String source, DialectOptions options) {
        Problems problems = new Problems();
        ValueRepair.Result repaired = ValueRepair.repair(source);
        YNode root = YamlReader.read(repaired.text(), options.limits().maxNesting(), problems);
        if (root == null) {
            if (!problems.hasErrors()) {
                problems.error(new Pos(1, 1), "the plan is empty: write aliases and a 'result' alias");
            }
            return new Compiled(null, Map.of(), problems.list());
        }
        Program program = new YamlPlan(options, repaired.repairs(), problems).build(root);
        if (program == null) {
            return Results.of(null, problems);
        }
        Backend.Settings settings = new Backend.Settings(java.util.Set.of(), false, options.inputs(), false,
                options.limits().maxInstructions());
        return Results.of(Backend.compile(program, settings, problems), problems);
    }
}
