package dev.planvm.cli;

import dev.planvm.instructions.PlanSchemas;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm schema}: prints the plan JSON Schema, e.g. for an agent's structured output. */
@Command(name = "schema", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Print the plan JSON Schema (draft 2020-12) on stdout.")
final class SchemaCommand implements Callable<Integer> {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @Override
    public Integer call() {
        spec.commandLine().getOut().print(PlanSchemas.planSchemaText());
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
