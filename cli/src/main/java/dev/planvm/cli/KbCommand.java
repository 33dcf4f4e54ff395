package dev.planvm.cli;

import dev.planvm.knowledge.KbStats;
import dev.planvm.knowledge.KnowledgeBases;
import dev.planvm.knowledge.spi.KnowledgeException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code planvm kb}: knowledge bases built from folders of documents, which answer {@code vector_search}
 * and {@code retrieve_knowledge_graph} ({@code run --kb NAME}). {@code index} is {@link KbIndexCommand};
 * {@code list}, {@code stats} and {@code remove} are here.
 */
@Command(
        name = "kb",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Knowledge bases built from folders of documents (Markdown, text, HTML, PDF) on this machine.",
            "planvm run PLAN --kb NAME answers vector_search and retrieve_knowledge_graph from one."
        },
        synopsisSubcommandLabel = "COMMAND",
        subcommands = {KbIndexCommand.class, CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done",
            "1:some documents could not be indexed, or indexing failed",
            "2:no such knowledge base, a damaged one, or bad usage"
        })
final class KbCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    private PlanvmCommand parent;

    /** Where knowledge bases live: {@code --root DIR}, default {@code .planvm/kb} in the current directory. */
    static final class Root {
        @CommandLine.Option(
                names = "--root",
                paramLabel = "DIR",
                defaultValue = KnowledgeBases.DEFAULT_ROOT,
                description = "Where knowledge bases live (default: ${DEFAULT-VALUE}, in the current directory).")
        private Path root;

        KnowledgeBases bases() {
            return KnowledgeBases.at(root);
        }
    }

    PlanvmCommand parent() {
        return parent;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: index, list, stats or remove");
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            versionProvider = VersionProvider.class,
            description =
                    "List the knowledge bases: name, files, chunks, entities, relationships, model, size, last update.")
    int list(@CommandLine.Mixin Root root, @CommandLine.Mixin Verbosity verbosity) {
        PrintWriter out = spec.commandLine().getOut();
        List<KbStats> all = root.bases().list();
        if (all.isEmpty()) {
            out.println("No knowledge bases in " + root.root + " (build one with planvm kb index PATH... --kb NAME).");
        }
        all.forEach(stats -> out.println(stats.line()));
        return ExitCodes.OK;
    }

    @Command(
            name = "stats",
            mixinStandardHelpOptions = true,
            versionProvider = VersionProvider.class,
            description = "Show one knowledge base: files, chunks, entities, relationships, model, size, dates.")
    int stats(
            @CommandLine.Parameters(paramLabel = "NAME") String name,
            @CommandLine.Mixin OutputFormat format,
            @CommandLine.Mixin Root root,
            @CommandLine.Mixin Verbosity verbosity) {
        return refusingKnowledgeErrors(() -> {
            KbStats stats = root.bases().stats(name);
            if (stats.problem().isPresent()) {
                throw new KnowledgeException(stats.problem().get());
            }
            spec.commandLine().getOut().println(format.json() ? stats.toJson().toPrettyString() : stats.line());
            return ExitCodes.OK;
        });
    }

    @Command(
            name = "remove",
            mixinStandardHelpOptions = true,
            versionProvider = VersionProvider.class,
            description = "Delete a knowledge base (only a directory that holds a knowledge base's kb.json).")
    int remove(
            @CommandLine.Parameters(paramLabel = "NAME") String name,
            @CommandLine.Mixin Root root,
            @CommandLine.Mixin Verbosity verbosity) {
        return refusingKnowledgeErrors(() -> {
            root.bases().remove(name);
            spec.commandLine().getErr().println("removed knowledge base '" + name + "'");
            return ExitCodes.OK;
        });
    }

    /** A knowledge base that is missing, damaged or misnamed is one sentence on stderr and exit 2. */
    private int refusingKnowledgeErrors(java.util.function.IntSupplier action) {
        try {
            return action.getAsInt();
        } catch (KnowledgeException e) {
            spec.commandLine().getErr().println("planvm kb: " + e.getMessage());
            return ExitCodes.INVALID;
        }
    }
}
