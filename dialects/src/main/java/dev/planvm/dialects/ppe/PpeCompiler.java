package dev.planvm.dialects.ppe;

import dev.planvm.dialects.internal.CompileResult;
import dev.planvm.dialects.internal.FrontEndOptions;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.util.List;
import java.util.Map;

/**
 * The PPE dialect (seed 004): {@code .ai.yaml} scripts of dialogue turns and directives, compiled to
 * a StackVM plan. Use it through {@link dev.planvm.dialects.DialectCompiler}.
 */
public final class PpeCompiler {

    private PpeCompiler() {}

    /** Compiles a script; never throws on bad input. The size limit is checked by the caller. */
    public static CompileResult compile(String source, String fileName, FrontEndOptions options) {
        Problems problems = new Problems();
        List<PNode.Document> documents = PpeReader.read(source, options.maxNesting(), problems);
        if (documents != null && !problems.hasErrors()) {
            problems.error(new Pos(1, 1), "PPE scripts are not compiled yet");
        }
        return new CompileResult(null, Map.of(), problems.list());
    }
}
