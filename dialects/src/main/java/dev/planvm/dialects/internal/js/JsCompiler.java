package dev.planvm.dialects.internal.js;

import dev.planvm.dialects.internal.Backend;
import dev.planvm.dialects.internal.CompileResult;
import dev.planvm.dialects.internal.FrontEndOptions;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.dialects.internal.Program;
import dev.planvm.dialects.internal.Results;
import dev.planvm.dialects.internal.ToolHeader;

/**
 * The JavaScript-subset dialect (seed 001): parse, then the shared back end, which resolves each
 * identifier through a map (aliases, inputs, tools, builtins, date/time helpers), keeps the seed's
 * security rules (no {@code eval}, no prototype property names, no property of a function) and
 * memoises each alias in a plan variable. Use it through {@link dev.planvm.dialects.DialectCompiler}.
 */
public final class JsCompiler {

    private JsCompiler() {}

    /** Compiles a JavaScript-subset plan; never throws on bad input. The size limit is checked by the caller. */
    public static CompileResult compile(String source, FrontEndOptions options) {
        Problems problems = new Problems();
        ToolHeader header = JsHeader.read(source, problems);
        if (header != null) {
            options = header.readable(options);
        }
        Program program = new JsParser(source, options, problems).parse();
        if (program == null) {
            return Results.of(null, problems);
        }
        Backend.Settings settings =
                new Backend.Settings(options.tools(), true, options.inputs(), true, options.maxInstructions());
        CompileResult compiled = Results.of(Backend.compile(program, settings, problems), problems);
        return header == null ? compiled : header.wrap(compiled);
    }
}
