package dev.planvm.dialects.internal;

import java.util.HashSet;
import java.util.Set;

/** Hands out plan variable names for temporaries that clash with nothing the plan uses. */
final class Names {

    private final Set<String> taken;

    Names(Set<String> reserved) {
        this.taken = new HashSet<>(reserved);
    }

    /** {@code base} made a valid variable name, with {@code _2}, {@code _3}, ... when it is taken. */
    String fresh(String base) {
        String clean = base.replaceAll("[^A-Za-z0-9_]", "_");
        if (clean.isEmpty() || !Lexer.isNameStart(clean.charAt(0))) {
            clean = "_" + clean;
        }
        if (clean.length() > 60) {
            clean = clean.substring(0, 60);
        }
        String name = clean;
        for (int i = 2; !taken.add(name); i++) {
            name = clean + "_" + i;
        }
        return name;
    }
}
