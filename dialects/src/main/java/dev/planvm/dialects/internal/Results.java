package dev.planvm.dialects.internal;

import java.util.Map;

/** Builds the public {@code Compiled} from the back end's output and the problems found. */
public final class Results {

    private Results() {}

    public static CompileResult of(Backend.Output output, Problems problems) {
        if (output == null || problems.hasErrors()) {
            return new CompileResult(null, Map.of(), problems.list());
        }
        return new CompileResult(output.plan(), output.lineOfSeqNo(), problems.list());
    }
}
