package dev.planvm.dialects.internal.idyll;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Seed 003's naming rules for the functions blocks call: {@code module:function} or {@code function},
 * each part a JavaScript identifier; the Azure Functions form {@code module--function} maps to and from
 * it; a custom function is {@code custom:} and its title in snake case (as the reference engine names
 * it), and the plan tool a plan calls it by is that name's Azure form (plan-tool names cannot hold a
 * colon).
 */
final class FunctionNames {

    private static final String IDENTIFIER = "[A-Za-z_$][A-Za-z0-9_$]*";
    private static final Pattern NAME = Pattern.compile("(" + IDENTIFIER + ":)?" + IDENTIFIER);
    private static final Pattern AZURE = Pattern.compile("(" + IDENTIFIER + ")--(" + IDENTIFIER + ")");

    /** The module of the custom functions a document defines. */
    static final String CUSTOM = "custom";

    private FunctionNames() {}

    /** Whether {@code name} follows the rule ({@code module:function} or {@code function}, JavaScript identifiers). */
    static boolean valid(String name) {
        return NAME.matcher(name).matches();
    }

    /** Whether {@code name} is the Azure form {@code module--function}. */
    static boolean azure(String name) {
        return AZURE.matcher(name).matches();
    }

    /** {@code module--function} as {@code module:function}; any other name as it is. */
    static String fromAzure(String name) {
        return azure(name) ? name.replaceFirst("--", ":") : name;
    }

    /** {@code module:function} as {@code module--function}; a name without a module as it is. */
    static String toAzure(String name) {
        return name.replace(":", "--");
    }

    /** A title in snake case, as the reference names custom functions: {@code Search The Web} is {@code search_the_web}. */
    static String snake(String title) {
        String lower = title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
        return lower.replaceAll("^_+|_+$", "");
    }

    /**
     * A name that breaks the rule, written as it should be: {@code ai:analyze-text} as
     * {@code ai:analyzeText}, or {@code null} when camel case does not make it valid.
     */
    static String suggestion(String name) {
        StringBuilder sb = new StringBuilder();
        boolean upper = false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '-' || c == ' ' || c == '.') {
                upper = sb.length() > 0 && sb.charAt(sb.length() - 1) != ':';
                continue;
            }
            sb.append(upper ? Character.toUpperCase(c) : c);
            upper = false;
        }
        String camel = sb.toString();
        return !camel.equals(name) && valid(camel) ? camel : null;
    }
}
