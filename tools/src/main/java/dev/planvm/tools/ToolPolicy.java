package dev.planvm.tools;

import dev.planvm.json.Globs;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which tools plans may call: an allow list and a deny list of glob rules over tool names.
 * Immutable and thread-safe.
 *
 * <ul>
 *   <li>A glob matches the <em>whole</em> tool name, {@code module:function} names included:
 *       {@code *} matches any run of characters (none, and {@code :} too), {@code ?} exactly one;
 *       every other character matches itself, case-sensitively. {@code web_*} matches
 *       {@code web_search} and {@code web_}; {@code *search} matches {@code kb:search};
 *       {@code kb:*} matches every function of module {@code kb}.</li>
 *   <li>In the allow list, a rule that starts with {@code !} is a deny rule (seed 004:
 *       {@code w*,!web_search} allows every tool starting with {@code w} but {@code web_search}).
 *       Rules of the deny list are written without {@code !}; one that starts with it is an error.</li>
 *   <li><b>Deny wins</b>: a tool that matches any deny rule is denied, whatever allows it.</li>
 *   <li>Otherwise, when the allow list has at least one positive rule, a tool must match one of
 *       them; when it has none (no allow list, or only {@code !} rules) every tool not denied is
 *       allowed.</li>
 * </ul>
 *
 * The policy governs tool calls ({@code calling}, and tools a custom instruction calls), in every
 * run mode: a denied tool is denied live, in a replay and in a dry run. An LLM condition
 * ({@code condition_prompt}) is not a tool call and is not governed by it.
 */
public final class ToolPolicy {

    /** Allows every tool. */
    public static final ToolPolicy ALLOW_ALL = new ToolPolicy(List.of(), List.of());

    private final List<Rule> allows;
    private final List<Rule> denies;

    private ToolPolicy(List<Rule> allows, List<Rule> denies) {
        this.allows = List.copyOf(allows);
        this.denies = List.copyOf(denies);
    }

    /**
     * A policy of these rules.
     *
     * @param allow globs a tool must match one of (when any is positive); a leading {@code !} makes a deny rule
     * @param deny  globs a tool must match none of
     * @throws IllegalArgumentException for a blank rule, a bare {@code !}, or a deny rule starting with {@code !}
     */
    public static ToolPolicy of(List<String> allow, List<String> deny) {
        List<Rule> allows = new ArrayList<>();
        List<Rule> denies = new ArrayList<>();
        for (String rule : allow) {
            check(rule, "allow");
            if (rule.startsWith("!")) {
                String glob = rule.substring(1);
                check(glob, "allow");
                denies.add(new Rule(rule, glob));
            } else {
                allows.add(new Rule(rule, rule));
            }
        }
        for (String rule : deny) {
            check(rule, "deny");
            if (rule.startsWith("!")) {
                throw new IllegalArgumentException(
                        "deny rule '" + rule + "' starts with '!': write deny rules without it"
                                + " ('!' marks a deny rule inside an allow list)");
            }
            denies.add(new Rule(rule, rule));
        }
        return new ToolPolicy(allows, denies);
    }

    /** The positive allow globs (a tool must match one of them when there is any). */
    public List<String> allowGlobs() {
        return allows.stream().map(Rule::glob).toList();
    }

    /** The deny globs: those of the deny list and the {@code !} rules of the allow list, without the {@code !}. */
    public List<String> denyGlobs() {
        return denies.stream().map(Rule::glob).toList();
    }

    /** Whether this policy allows every tool (no rule at all). */
    public boolean allowsEverything() {
        return allows.isEmpty() && denies.isEmpty();
    }

    /** Whether {@code tool} may be called (its name taken as written: see {@link #allows(String, ToolNames)}). */
    public boolean allows(String tool) {
        return refusal(tool).isEmpty();
    }

    /** Whether the tool whose canonical name is {@code canonicalName} may be called; rules read through {@code names}. */
    public boolean allows(String canonicalName, ToolNames names) {
        return refusal(canonicalName, names).isEmpty();
    }

    /**
     * Why {@code tool} may not be called: a sentence naming the rule that denied it, like
     * {@code tool 'web_search' is denied by the tool policy (deny rule 'web_*')}; empty when it is allowed.
     * The name is taken as written; calls are decided by {@link #refusal(String, ToolNames)}.
     */
    public Optional<String> refusal(String tool) {
        return refusal(tool, ToolNames.AS_WRITTEN);
    }

    /**
     * Why the tool whose canonical name is {@code canonicalName} ({@link ToolNames}) may not be called,
     * each rule matched as {@link ToolNames#matches} says; empty when it is allowed.
     */
    public Optional<String> refusal(String canonicalName, ToolNames names) {
        Objects.requireNonNull(canonicalName, "canonicalName");
        Objects.requireNonNull(names, "names");
        for (Rule rule : denies) {
            if (names.matches(rule.glob(), canonicalName)) {
                return Optional.of("tool '" + canonicalName + "' is denied by the tool policy (deny rule '"
                        + rule.written() + "')");
            }
        }
        if (allows.isEmpty()) {
            return Optional.empty();
        }
        for (Rule rule : allows) {
            if (names.matches(rule.glob(), canonicalName)) {
                return Optional.empty();
            }
        }
        return Optional.of(
                "tool '" + canonicalName + "' is denied by the tool policy (no allow rule matches it; allowed: "
                        + String.join(", ", allows.stream().map(Rule::written).toList()) + ")");
    }

    /**
     * Whether {@code glob} matches the whole of {@code name} with this class's glob syntax
     * ({@code *} any run of characters, {@code ?} exactly one, anything else itself).
     */
    public static boolean globMatches(String glob, String name) {
        return Globs.matches(Objects.requireNonNull(glob, "glob"), Objects.requireNonNull(name, "name"));
    }

    @Override
    public String toString() {
        return "ToolPolicy[allow=" + allows.stream().map(Rule::written).toList() + ", deny="
                + denies.stream().map(Rule::written).toList() + "]";
    }

    private static void check(String rule, String list) {
        if (rule == null || rule.isBlank()) {
            throw new IllegalArgumentException("a tool " + list + " rule must not be blank");
        }
        if (!rule.strip().equals(rule)) {
            throw new IllegalArgumentException("tool " + list + " rule '" + rule + "' has spaces around it");
        }
    }

    /** @param written the rule as the user wrote it; {@code glob} without the leading {@code !} */
    private record Rule(String written, String glob) {}
}
