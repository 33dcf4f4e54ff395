package dev.planvm.cli;

import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.json.TerminalText;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm compile FILE}: prints the StackVM JSON a YAML or JavaScript plan compiles to. */
@Command(
        name = "compile",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Print the StackVM JSON a plan compiles to (YAML, JavaScript; a JSON plan as it is), indented, on stdout.",
            "Diagnostics go to stderr as FILE: line N, column M: message (warnings marked warning:)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the plan compiled and the result is a valid plan (warnings allowed)",
            "2:the plan does not compile or is invalid (nothing on stdout), or bad usage"
        })
final class CompileCommand implements Callable<Integer> {

    @CommandLine.Parameters(
            index = "0",
            paramLabel = "FILE",
            description =
                    "The plan file: YAML (.yaml, .yml), a PPE script (.ai.yaml), JavaScript (.js) or JSON; '-' reads"
                            + " standard input.")
    private String file;

    @CommandLine.Mixin
    private DialectOption dialectOption;

    @CommandLine.Option(
            names = "--input",
            paramLabel = "NAME",
            split = ",",
            description =
                    "A variable the run will be given (--var NAME=...), which the plan may read. Comma-separated, repeatable.")
    private Set<String> inputs = Set.of();

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        PlanSources sources = PlanInput.sources(new PlanLoader(), inputs);
        String source = file.equals("-") ? "<stdin>" : file;
        Compiled compiled = file.equals("-")
                ? sources.compile(System.in, source, dialectOption.dialect())
                : sources.compile(Path.of(file), dialectOption.dialect());
        LoadResult loaded = compiled.load(sources.loader(), source);
        for (Diagnostic diagnostic : loaded.diagnostics()) {
            err.println(TerminalText.safe(diagnostic.format(file)));
        }
        err.flush();
        if (!loaded.valid()) {
            return ExitCodes.INVALID;
        }
        out.println(TerminalText.JSON.withDefaultPrettyPrinter().writeValueAsString(compiled.plan()));
        out.flush();
        return ExitCodes.OK;
    }
}
