package dev.planvm.dialects;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.dialects.internal.SourceText;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The one way planvm reads a plan, whatever language it is written in: the CLI's commands, the batch
 * and regression runners and the server all load through here. A StackVM JSON plan goes to the
 * {@link PlanLoader} as it is; a YAML or JavaScript plan is compiled ({@link DialectCompiler}) and
 * its StackVM JSON loaded by the same loader, so the result is the same {@link LoadResult} either
 * way: the plan (knowing each instruction's source line, for a dialect), or every located
 * diagnostic. Thread-safe and immutable.
 *
 * <pre>{@code
 * PlanSources sources = PlanSources.of(vm.loader()).withInputs(Set.of("user"));
 * LoadResult loaded = sources.load(Path.of("trip.yaml"), null);   // the extension chooses the dialect
 * LoadResult fromStdin = sources.load(System.in, "<stdin>", Dialect.JS);
 * }</pre>
 */
public final class PlanSources {

    private final PlanLoader loader;
    private final DialectOptions options;
    private final Function<String, Optional<JsonNode>> toolSchemas;
    private final String block;

    private PlanSources(PlanLoader loader, DialectOptions options) {
        this(loader, options, null, null);
    }

    private PlanSources(
            PlanLoader loader, DialectOptions options, Function<String, Optional<JsonNode>> toolSchemas, String block) {
        this.loader = Objects.requireNonNull(loader, "loader");
        this.options = Objects.requireNonNull(options, "options");
        this.toolSchemas = toolSchemas;
        this.block = block;
    }

    /** Plans loaded by {@code loader} (e.g. {@code vm.loader()}), dialects compiled with the default options. */
    public static PlanSources of(PlanLoader loader) {
        return new PlanSources(loader, DialectOptions.DEFAULT);
    }

    /** These sources with other compile options. */
    public PlanSources withOptions(DialectOptions value) {
        return new PlanSources(loader, value, toolSchemas, block);
    }

    /** These sources compiling dialect plans that may read these inputs (the run's {@code --var} names). */
    public PlanSources withInputs(Set<String> names) {
        return new PlanSources(loader.withInputs(names), options.withInputs(names), toolSchemas, block);
    }

    /** These sources compiling Idyll documents for a run with these tools ({@link DialectCompiler#withToolSchemas}). */
    public PlanSources withToolSchemas(Function<String, Optional<JsonNode>> schemas) {
        return new PlanSources(loader, options, schemas, block);
    }

    /** These sources compiling only the Idyll document block with this id ({@link DialectCompiler#withBlock}). */
    public PlanSources withBlock(String id) {
        return new PlanSources(loader, options, toolSchemas, id);
    }

    /**
     * As {@link #withInputs}, for plans that declare these as their inputs: a read of a variable that
     * is neither one of them nor assigned by the plan is an error ({@link PlanLoader#withDeclaredInputs}).
     */
    public PlanSources withDeclaredInputs(Set<String> names) {
        return new PlanSources(loader.withDeclaredInputs(names), options.withInputs(names), toolSchemas, block);
    }

    public PlanLoader loader() {
        return loader;
    }

    public DialectOptions options() {
        return options;
    }

    /**
     * The dialect a plan is in: {@code given} ({@code --dialect}) when not null, else the one the
     * file name's extension selects ({@code .ai.yaml} before {@code .yaml}, {@code .yml}, {@code .js}), else JSON.
     */
    public static Dialect dialectOf(String fileName, Dialect given) {
        return given != null ? given : Dialect.ofFile(fileName);
    }

    /** Whether a file name's extension selects a dialect other than JSON ({@code .yaml}, {@code .yml}, {@code .js}, {@code .ai.yaml}). */
    public static boolean isDialectFile(String fileName) {
        return Dialect.forFileName(fileName).filter(d -> d != Dialect.JSON).isPresent();
    }

    /** Loads {@code file} in the dialect its extension selects. */
    public LoadResult load(Path file) {
        return load(file, null);
    }

    /** Loads {@code file} in {@code dialect} ({@code null}: the one its extension selects). */
    public LoadResult load(Path file, Dialect dialect) {
        Dialect d = dialectOf(
                file.getFileName() == null
                        ? file.toString()
                        : file.getFileName().toString(),
                dialect);
        if (d == Dialect.JSON) {
            return loader.load(file);
        }
        return compiler(d).compile(file).load(loader, file.toString());
    }

    /**
     * Loads {@code file} as a plan tool, one that other plans call with its inputs: as {@link #load(Path, Dialect)},
     * but a PPE script's declared inputs count as given (the caller gives them, or their defaults apply), so the
     * script does not start by setting the ones it was not given to null, as a script run by itself does.
     */
    public LoadResult loadTool(Path file, Dialect dialect) {
        Dialect d = dialectOf(
                file.getFileName() == null
                        ? file.toString()
                        : file.getFileName().toString(),
                dialect);
        if (d != Dialect.PPE) {
            return load(file, dialect);
        }
        Compiled first = compiler(d).compile(file);
        if (first.plan() == null) {
            return first.load(loader, file.toString());
        }
        java.util.Set<String> declared = new java.util.HashSet<>(options.inputs());
        first.plan().path("inputs").path("properties").fieldNames().forEachRemaining(declared::add);
        return DialectCompiler.of(d, options.withInputs(declared)).compile(file).load(loader, file.toString());
    }

    /**
     * Loads a plan from a stream (standard input), read up to the size limit, in {@code dialect}
     * ({@code null}: the one {@code source}'s extension selects, JSON for {@code <stdin>}).
     */
    public LoadResult load(InputStream in, String source, Dialect dialect) {
        Dialect d = dialectOf(source, dialect);
        if (d == Dialect.JSON) {
            return loader.load(in, source);
        }
        Problems problems = new Problems();
        String text = SourceText.read(in, options.limits().maxBytes(), problems);
        if (text == null) {
            return new LoadResult(source, null, problems.list());
        }
        return compiler(d).compile(text, source).load(loader, source);
    }

    /** Loads plan text named {@code source} in {@code dialect} ({@code null}: the one {@code source}'s extension selects). */
    public LoadResult load(String text, String source, Dialect dialect) {
        Dialect d = dialectOf(source, dialect);
        if (d == Dialect.JSON) {
            return loader.load(text, source);
        }
        return compiler(d).compile(text, source).load(loader, source);
    }

    /**
     * Compiles {@code file} without loading it ({@code planvm compile}): the StackVM JSON, its
     * source lines and the compiler's diagnostics.
     */
    public Compiled compile(Path file, Dialect dialect) {
        Dialect d = dialectOf(
                file.getFileName() == null
                        ? file.toString()
                        : file.getFileName().toString(),
                dialect);
        return compiler(d).compile(file);
    }

    /** Compiles plan text read from a stream ({@code planvm compile -}). */
    public Compiled compile(InputStream in, String source, Dialect dialect) {
        Problems problems = new Problems();
        String text = SourceText.read(in, options.limits().maxBytes(), problems);
        if (text == null) {
            return new Compiled(null, Map.of(), problems.list());
        }
        return compiler(dialectOf(source, dialect)).compile(text, source);
    }

    private DialectCompiler compiler(Dialect dialect) {
        return DialectCompiler.of(dialect, options).withToolSchemas(toolSchemas).withBlock(block);
    }
}
