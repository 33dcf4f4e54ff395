package dev.planvm.tools;

import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The one way every rule reads tool names. A tool has one canonical name ({@link Tool#canonicalName()}:
 * {@code mail:send_mail}, whether a plan calls it so or by its bare alias {@code send_mail}), and every
 * rule that matches tools — approval, the tool policy's allow and deny lists, per-tool concurrency
 * limits, retries and timeouts, the "may this call start early" checks — matches that name:
 *
 * <ul>
 *   <li>a glob ({@code mail:*}, {@code *send*}) or a full name ({@code mail:send_mail}) is matched
 *       against the canonical name ({@link ToolPolicy#globMatches});</li>
 *   <li>a bare name written in a rule ({@code send_mail}: no {@code *}, {@code ?} or {@code :}) stands for
 *       the canonical name of the tool a plan would call by it, so it matches {@code mail:send_mail}
 *       too, whichever spelling the plan used.</li>
 * </ul>
 *
 * Immutable; thread-safe when its lookup is ({@link ToolRegistry#canonicalNames()} is).
 */
public final class ToolNames {

    /** Names taken as written (no tool is known): a bare name in a rule matches only that name. */
    public static final ToolNames AS_WRITTEN = new ToolNames(UnaryOperator.identity());

    private final UnaryOperator<String> canonical;

    private ToolNames(UnaryOperator<String> canonical) {
        this.canonical = canonical;
    }

    /** Names read through {@code canonical}: spelled name to canonical name. */
    public static ToolNames of(UnaryOperator<String> canonical) {
        return new ToolNames(Objects.requireNonNull(canonical, "canonical"));
    }

    /** The canonical name of the tool called as {@code spelled}. */
    public String canonical(String spelled) {
        return canonical.apply(Objects.requireNonNull(spelled, "spelled"));
    }

    /**
     * Whether {@code rule} (a glob or name as the user wrote it) matches the tool whose canonical name
     * is {@code canonicalName}. A bare name in a rule is looked up only when the canonical name ends
     * with {@code :} and that name, so an unrelated rule never sets a tool up.
     */
    public boolean matches(String rule, String canonicalName) {
        if (ToolPolicy.globMatches(rule, canonicalName)) {
            return true;
        }
        return isBareName(rule)
                && canonicalName.endsWith(":" + rule)
                && canonical(rule).equals(canonicalName);
    }

    /**
     * The value a map keyed by tool names as the user wrote them ({@code --tool-timeout TOOL=S}) holds for
     * the tool whose canonical name is {@code canonicalName}: its canonical key, else a bare key standing
     * for it ({@link #matches}); {@code null} when none.
     */
    public <V> V lookup(Map<String, V> byName, String canonicalName) {
        V value = byName.get(canonicalName);
        if (value != null) {
            return value;
        }
        for (Map.Entry<String, V> entry : byName.entrySet()) {
            String key = entry.getKey();
            if (isBareName(key) && matches(key, canonicalName)) {
                return entry.getValue();
            }
        }
        return null;
    }

    /** A rule that names one bare name: no wildcard, no {@code server:} prefix. */
    private static boolean isBareName(String rule) {
        return rule.indexOf('*') < 0 && rule.indexOf('?') < 0 && rule.indexOf(':') < 0;
    }
}
