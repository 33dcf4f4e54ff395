package dev.planvm.dialects.internal;

import dev.planvm.dialects.Compiled;
import java.util.Map;

/** Builds the public {@link Compiled} from the back end's output and the problems found. */
public final class Results {

    private Results() {
    }

    public static Compiled of(Backend.Output output, Problems problems) {
        if (output == null || problems.hasErrors()) {
            return new Compiled(null, Map.of(), problems.list());
        }
        return new Compiled(output.plan(), output.lineOfSeqNo(), problems.list());
    }
}
