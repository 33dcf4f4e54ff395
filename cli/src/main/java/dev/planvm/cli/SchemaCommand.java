package dev.planvm.cli;

import dev.planvm.agent.format.StrictPlanSchema;
import dev.planvm.instructions.PlanSchemas;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm schema}: prints the plan JSON Schema, e.g. for an agent's structured output. */
@Command(
        name = "schema",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Print the plan JSON Schema (draft 2020-12) on stdout.",
            "With --strict-llm, the schema in the form OpenAI's strict structured outputs accept (derived from it)."
        })
final class SchemaCommand implements Callable<Integer> {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Option(
            names = "--strict-llm",
            description =
                    "Print the strict form for an LLM's structured output (response_format json_schema, strict: true): "
                            + "every property required (null for absent), no additional properties, objects with free keys as "
                            + "{\"entries\": [{\"name\", \"value\"}]}.")
    private boolean strictLlm;

    @Override
    public Integer call() {
        if (strictLlm) {
            spec.commandLine().getOut().println(StrictPlanSchema.schema().toPrettyString());
            spec.commandLine().getOut().flush();
            return ExitCodes.OK;
        }
        spec.commandLine().getOut().print(PlanSchemas.planSchemaText());
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
