package dev.planvm.cli;

import dev.planvm.json.TerminalText;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.vm.PlanVm;
import java.io.PrintWriter;
import java.nio.file.Path;

/** Loads the plan a command was given (a file, or {@code -} for standard input) and reports its diagnostics. */
final class PlanInput {

    private PlanInput() {
    }

    /** Loads {@code file} with the VM's loader; errors (and, when verbose, warnings) go to {@code err}. */
    static LoadResult load(PlanVm vm, String file, PrintWriter err, boolean verbose) {
        LoadResult loaded = file.equals("-") ? vm.loader().load(System.in, "<stdin>") : vm.loader().load(Path.of(file));
        for (Diagnostic diagnostic : loaded.diagnostics()) {
            if (diagnostic.isError() || verbose) {
                err.println(TerminalText.safe(diagnostic.format(file)));
            }
        }
        return loaded;
    }
}
