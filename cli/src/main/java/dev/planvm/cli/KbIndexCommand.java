package dev.planvm.cli;

import dev.planvm.knowledge.Embedders;
import dev.planvm.knowledge.IndexSettings;
import dev.planvm.knowledge.Indexer;
import dev.planvm.knowledge.spi.EmbeddingEndpoint;
import dev.planvm.knowledge.spi.IndexReport;
import dev.planvm.knowledge.spi.KnowledgeException;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code planvm kb index PATH... --kb NAME}: builds or updates a knowledge base from documents;
 * {@code --graph} also extracts a knowledge graph with the LLM, through planvm's call chain (so
 * {@code --record C} / {@code --replay C} record and replay the extraction calls like a plan's).
 */
@Command(
        name = "index",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Index documents (files or directories: Markdown, text, HTML, PDF) into a knowledge base.",
            "Unchanged files are skipped and only new chunk texts are embedded; files gone from the PATHs are removed.",
            "The summary goes to stdout; files that could not be read, and a progress bar on a terminal, to stderr."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:indexed",
            "1:some documents or graph extractions failed (the rest is indexed), or indexing failed",
            "2:bad usage, a knowledge base built with another model, or --graph without an LLM"
        })
final class KbIndexCommand implements Callable<Integer> {

    @CommandLine.Parameters(arity = "1..*", paramLabel = "PATH", description = "Files or directories of documents.")
    private List<Path> paths;

    @CommandLine.Option(
            names = "--kb",
            paramLabel = "NAME",
            defaultValue = "default",
            description = "The knowledge base (letters, digits, . _ -; default: ${DEFAULT-VALUE}).")
    private String kb;

    @CommandLine.Option(
            names = "--graph",
            description = "Also extract entities and relationships with the LLM "
                    + "(llm_generate: any configured LLM provider), for retrieve_knowledge_graph.")
    private boolean graph;

    @CommandLine.Option(
            names = "--max-llm-calls",
            paramLabel = "N",
            defaultValue = "" + IndexSettings.DEFAULT_MAX_LLM_CALLS,
            description = "With --graph: at most N extraction calls in this run; the next run does the chunks left "
                    + "(default: ${DEFAULT-VALUE}).")
    private int maxLlmCalls;

    @CommandLine.Option(
            names = "--chunk-tokens",
            paramLabel = "N",
            defaultValue = "" + IndexSettings.DEFAULT_CHUNK_TOKENS,
            description = "Most tokens per chunk (default: ${DEFAULT-VALUE}).")
    private int chunkTokens;

    @CommandLine.Option(
            names = "--overlap-tokens",
            paramLabel = "N",
            defaultValue = "" + IndexSettings.DEFAULT_OVERLAP_TOKENS,
            description = "Tokens a chunk repeats from the one before (default: ${DEFAULT-VALUE}).")
    private int overlapTokens;

    @CommandLine.ArgGroup(exclusive = true)
    private Cassettes cassettes = new Cassettes();

    static final class Cassettes {
        @CommandLine.Option(
                names = "--record",
                paramLabel = "C",
                description = "With --graph: record the extraction calls into cassette C.")
        private Path record;

        @CommandLine.Option(
                names = "--replay",
                paramLabel = "C",
                description = "With --graph: answer the extraction calls from cassette C (no LLM needed).")
        private Path replay;
    }

    @CommandLine.Mixin
    private KbCommand.Root root;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    private KbCommand parent;

    @Override
    public Integer call() {
        CommandLine commandLine = spec.commandLine();
        if (!graph && (cassettes.record != null || cassettes.replay != null)) {
            throw new CommandLine.ParameterException(commandLine, "--record and --replay go with --graph");
        }
        if (maxLlmCalls < 0) {
            throw new CommandLine.ParameterException(commandLine, "--max-llm-calls must not be negative");
        }
        IndexSettings settings;
        try {
            settings =
                    IndexSettings.builder().chunking(chunkTokens, overlapTokens).build();
        } catch (KnowledgeException e) {
            throw new CommandLine.ParameterException(commandLine, e.getMessage());
        }
        Map<String, String> environment = parent.parent().environment();
        RunMode mode = cassettes.replay != null
                ? RunMode.replay(Cassette.read(cassettes.replay), false)
                : cassettes.record != null ? RunMode.record() : RunMode.live();
        try (PlanVm vm = graph ? llmVm(environment, mode, commandLine) : null) {
            if (vm != null) {
                settings = settings.toBuilder()
                        .graph(new ChainLlm(vm.callChain(mode)), maxLlmCalls)
                        .build();
            }
            return index(settings, environment, mode, commandLine);
        }
    }

    private int index(IndexSettings settings, Map<String, String> environment, RunMode mode, CommandLine commandLine) {
        PrintWriter err = commandLine.getErr();
        Indexer indexer;
        try {
            indexer = root.bases()
                    .indexer(kb, Embedders.configured(EmbeddingEndpoint.fromEnvironment(environment)), settings);
        } catch (KnowledgeException e) { // a bad name, another model, a damaged knowledge base
            err.println("planvm kb index: " + e.getMessage());
            return ExitCodes.INVALID;
        }
        IndexReport report;
        try (KbProgress progress = KbProgress.on(err)) {
            report = indexer.index(paths, Path.of("").toAbsolutePath(), progress);
        } catch (KnowledgeException e) {
            err.println("planvm kb index: " + e.getMessage());
            return ExitCodes.RUNTIME_FAILURE;
        } finally {
            if (mode instanceof RunMode.Record record) {
                record.recording().cassette().write(cassettes.record);
            }
        }
        report.failures().forEach(problem -> err.println("failed: " + problem));
        report.warnings().forEach(warning -> err.println("warning: " + warning));
        report.graph().ifPresent(g -> g.failures().forEach(problem -> err.println("graph failed: " + problem)));
        commandLine.getOut().println(report.summary());
        boolean graphFailed = report.graph().map(g -> !g.failures().isEmpty()).orElse(false);
        return report.failures().isEmpty() && !graphFailed ? ExitCodes.OK : ExitCodes.RUNTIME_FAILURE;
    }

    /** A VM whose call chain reaches llm_generate (or a cassette), refused up front when there is no LLM to ask. */
    private static PlanVm llmVm(Map<String, String> environment, RunMode mode, CommandLine commandLine) {
        LoadedTools tools = ToolsConfig.load(null, environment, Map.of(), ToolsConfig.classPathProviders());
        String missing = tools.unavailable().get(PlanVm.LLM_TOOL);
        if (missing != null && !(mode instanceof RunMode.Replay)) {
            tools.close();
            throw new CommandLine.ParameterException(
                    commandLine,
                    "--graph needs an LLM to extract entities: " + missing
                            + " (or --replay C to answer from a cassette)");
        }
        PlanVm vm = PlanVm.builder().tools(tools, ToolPolicy.ALLOW_ALL).build();
        RedactingLogs.use(vm.redactor());
        return vm;
    }
}
