package dev.planvm.dialects;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A script that a PPE script imports ({@code import:} in its front matter), compiled to a plan tool
 * named as the import names it: the importing script calls it with {@code calling} steps, so a VM
 * that runs the importer offers it as a plan tool ({@code PlanVmBuilder.planTool}).
 *
 * @param name        the plan tool's name ({@code asName}, or the file's base name)
 * @param file        the imported script's file (real path)
 * @param plan        the plan-tool document {@code {"name", "inputs", "output", "plan"}}
 * @param lineOfSeqNo the script line of each {@code seq_no}
 */
public record ImportedPlan(String name, Path file, JsonNode plan, Map<Integer, Integer> lineOfSeqNo) {

    public ImportedPlan {
        lineOfSeqNo = Map.copyOf(lineOfSeqNo);
    }

    /** Loads the plan tool with {@code loader}; the plan knows the script line of each instruction. */
    public LoadResult load(PlanLoader loader) {
        return new Compiled(plan, lineOfSeqNo, List.of()).load(loader, file.toString());
    }
}
