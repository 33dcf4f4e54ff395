package dev.planvm.dialects;

import dev.planvm.dialects.internal.CompileResult;
import dev.planvm.dialects.internal.FrontEndOptions;
import dev.planvm.dialects.internal.JsonPassThrough;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.dialects.internal.SourceText;
import dev.planvm.dialects.internal.js.JsCompiler;
import dev.planvm.dialects.internal.ppe.PpeCompiler;
import dev.planvm.dialects.internal.yaml.YamlCompiler;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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

    private DialectCompiler(Dialect dialect, DialectOptions options) {
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.options = Objects.requireNonNull(options, "options");
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
        return new DialectCompiler(dialect, newOptions);
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
     * ({@link Compiled#imports()}); one compiled from text cannot.
     */
    public Compiled compile(Path file) {
        Problems problems = new Problems();
        String text = SourceText.read(file, options.limits().maxBytes(), problems);
        if (text == null) {
            return new Compiled(null, Map.of(), problems.list());
        }
        if (dialect != Dialect.PPE) {
            return compile(text, file.toString());
        }
        if (SourceText.utf8Length(text, options.limits().maxBytes() + 1)
                > options.limits().maxBytes()) {
            return tooLarge();
        }
        return compiled(PpeCompiler.compile(text, file.toString(), file, frontEnd()));
    }

    private Compiled tooLarge() {
        Problems problems = new Problems();
        problems.fileError("the plan is larger than the limit of "
                + SourceText.describeBytes(options.limits().maxBytes()));
        return new Compiled(null, Map.of(), List.copyOf(problems.list()));
    }
}
