package dev.planvm.dialects;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.dialects.internal.CompileResult;
import dev.planvm.dialects.internal.FrontEndOptions;
import dev.planvm.dialects.internal.JsonPassThrough;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.dialects.internal.SourceText;
import dev.planvm.dialects.internal.idyll.IdyllCompiler;
import dev.planvm.dialects.internal.js.JsCompiler;
import dev.planvm.dialects.internal.ppe.PpeCompiler;
import dev.planvm.dialects.internal.yaml.YamlCompiler;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Compiles a plan written in a {@link Dialect} to StackVM JSON. Never throws on bad input: every
 * problem is a located {@link dev.planvm.instructions.Diagnostic} of the {@link Compiled} result.
 *
 * <pre>{@code
 * Compiled compiled = DialectCompiler.forFile("trip.yaml").compile(Path.of("trip.yaml"));
 * LoadResult loaded = compiled.load(vm.loader(), "trip.yaml");
 * RunResult result = vm.run(loaded.planOrThrow(), Map.of());
 * }</pre>
 */
public final class DialectCompiler {

    private final Dialect dialect;
    private final DialectOptions options;
    private final Function<String, Optional<JsonNode>> toolSchemas;
    private final String block;

    private DialectCompiler(Dialect dialect, DialectOptions options) {
        this(dialect, options, null, null);
    }

    private DialectCompiler(
            Dialect dialect, DialectOptions options, Function<String, Optional<JsonNode>> toolSchemas, String block) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.options = Objects.requireNonNull(options, "options");
        this.toolSchemas = toolSchemas;
        this.block = block;
    }

    public static DialectCompiler of(Dialect dialect) {
        return new DialectCompiler(dialect, DialectOptions.DEFAULT);
    }

    public static DialectCompiler of(Dialect dialect, DialectOptions options) {
        return new DialectCompiler(dialect, options);
    }

    /** The compiler for a file's extension ({@link Dialect#ofFile}: JSON unless it names another). */
    public static DialectCompiler forFile(String fileName) {
        return of(Dialect.ofFile(fileName));
    }

    public DialectCompiler withOptions(DialectOptions newOptions) {
        return new DialectCompiler(dialect, newOptions, toolSchemas, block);
    }

    /**
     * This compiler knowing the run's tools: each tool's params schema by name, empty for a name that
     * is no tool. An Idyll document needs them to make a block that calls no tool fail on its own
     * (rather than refuse the run) and to give a tool only the block's inputs it takes ({@code content},
     * {@code currentBlockId}, {@code previousResults}). {@code null}: not known (the default).
     */
    public DialectCompiler withToolSchemas(Function<String, Optional<JsonNode>> schemas) {
        return new DialectCompiler(dialect, options, schemas, block);
    }

    /** This compiler running only the Idyll document block with this id ({@code run --block}); {@code null}: all. */
    public DialectCompiler withBlock(String id) {
        return new DialectCompiler(dialect, options, toolSchemas, id);
    }

    public Dialect dialect() {
        return dialect;
    }

    public DialectOptions options() {
        return options;
    }

    /**
     * Compiles {@code source}.
     *
     * @param fileName names the source (it is not read; diagnostics carry no file name, which
     *                 {@link dev.planvm.instructions.Diagnostic#format(String)} adds when printing)
     */
    public Compiled compile(String source, String fileName) {
        Objects.requireNonNull(source, "source");
        long bytes = SourceText.utf8Length(source, options.limits().maxBytes() + 1);
        if (bytes > options.limits().maxBytes()) {
            return tooLarge();
        }
        CompileResult result = switch (dialect) {
            case JSON -> JsonPassThrough.compile(source, frontEnd());
            case YAML -> YamlCompiler.compile(source, frontEnd());
            case JS -> JsCompiler.compile(source, frontEnd());
            case PPE -> PpeCompiler.compile(source, fileName, null, frontEnd());
            case IDYLL -> IdyllCompiler.compile(source, fileName, null, frontEnd(), toolSchemas, block);
        };
        return compiled(result);
    }

    private static Compiled compiled(CompileResult result) {
        return new Compiled(
                result.plan(),
                result.lineOfSeqNo(),
                result.diagnostics(),
                result.imports().stream()
                        .map(i -> new ImportedPlan(i.name(), i.file(), i.plan(), i.lineOfSeqNo()))
                        .toList());
    }

    /** The options as the front ends take them. */
    private FrontEndOptions frontEnd() {
        DialectLimits limits = options.limits();
        return new FrontEndOptions(
                options.singleDomainResult(),
                options.unwrapSingleElement(),
                options.tools(),
                options.inputs(),
                limits.maxNesting(),
                limits.maxAliases(),
                limits.maxInstructions());
    }

    /**
     * Reads (at most the size limit, strict UTF-8) and compiles {@code file}; a file that cannot be read
     * is a diagnostic. A PPE script read from a file may import the scripts beside it
     * ({@link Compiled#imports()}); one compiled from text cannot. An Idyll document read from a file
     * offers its custom functions as plan tools the same way.
     */
    public Compiled compile(Path file) {
        Problems problems = new Problems();
        String text = SourceText.read(file, options.limits().maxBytes(), problems);
        if (text == null) {
            return new Compiled(null, Map.of(), problems.list());
        }
        if (dialect != Dialect.PPE && dialect != Dialect.IDYLL) {
            return compile(text, file.toString());
        }
        if (SourceText.utf8Length(text, options.limits().maxBytes() + 1)
                > options.limits().maxBytes()) {
            return tooLarge();
        }
        return compiled(
                dialect == Dialect.PPE
                        ? PpeCompiler.compile(text, file.toString(), file, frontEnd())
                        : IdyllCompiler.compile(text, file.toString(), file, frontEnd(), toolSchemas, block));
    }

    private Compiled tooLarge() {
        Problems problems = new Problems();
        problems.fileError("the plan is larger than the limit of "
                + SourceText.describeBytes(options.limits().maxBytes()));
        return new Compiled(null, Map.of(), List.copyOf(problems.list()));
    }
}
