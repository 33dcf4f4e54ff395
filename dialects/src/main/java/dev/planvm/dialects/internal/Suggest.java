package dev.planvm.dialects.internal;

import java.util.List;

/** Short lists of names for messages ("did you mean" is {@link dev.planvm.json.Spelling}). */
public final class Suggest {

    private Suggest() {}

    /** At most {@code max} names joined with ", ", then "and N more". */
    public static String list(List<String> names, int max) {
        if (names.size() <= max) {
            return String.join(", ", names);
        }
        return String.join(", ", names.subList(0, max)) + " and " + (names.size() - max) + " more";
    }
}
