package dev.planvm.dialects;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;

/** What every compilation must satisfy, whatever the input: the fuzz tests' oracle. */
public final class FuzzChecks {

    private static final PlanLoader LOADER = new PlanLoader();

    private FuzzChecks() {}

    /**
     * A result has a plan exactly when it has no error; every diagnostic is one non-blank line; and
     * a plan (an array, or PPE's plan-tool object) that uses no date/time helper loads with today's plan loader without errors (the
     * compiler never writes a plan the VM would refuse).
     */
    public static void check(Compiled compiled, String fileName) {
        if (compiled.valid() != compiled.errors().isEmpty()) {
            throw new AssertionError("valid() is " + compiled.valid() + " with errors " + compiled.errors());
        }
        for (Diagnostic d : compiled.diagnostics()) {
            String line = d.format(fileName);
            if (d.message().isBlank()
                    || line.contains("\n")
                    || d.seqNo() != null
                    || !d.pointer().isEmpty()) {
                throw new AssertionError("a diagnostic that is not one located line: " + d);
            }
        }
        if (!compiled.valid()
                || compiled.warnings().stream().anyMatch(w -> w.message().contains("date/time helpers"))) {
            return;
        }
        LoadResult loaded = compiled.load(LOADER, fileName);
        if (!loaded.errors().isEmpty()) {
            throw new AssertionError(
                    "the compiled plan does not load: " + loaded.errors() + "\n" + compiled.planText());
        }
        JsonNode instructions =
                compiled.plan().isArray() ? compiled.plan() : compiled.plan().path("plan");
        if (compiled.lineOfSeqNo().size() != instructions.size()) {
            throw new AssertionError("not every instruction has a line: " + compiled.lineOfSeqNo());
        }
    }
}
