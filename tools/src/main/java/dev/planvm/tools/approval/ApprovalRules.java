package dev.planvm.tools.approval;

import dev.planvm.tools.ToolNames;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * Which tools need a reviewer's approval before each call: globs over whole tool names, with the
 * syntax of {@link dev.planvm.tools.ToolPolicy} ({@code *} any run of characters, {@code ?} one; {@code send_*},
 * {@code mail:*}). Immutable.
 */
public final class ApprovalRules {

    /** No tool needs approval. */
    public static final ApprovalRules NONE = new ApprovalRules(List.of());

    private final List<String> globs;

    private ApprovalRules(List<String> globs) {
        this.globs = List.copyOf(globs);
    }

    /**
     * Rules of these globs.
     *
     * @throws IllegalArgumentException for a blank glob, one with spaces around it, or one starting with {@code !}
     */
    public static ApprovalRules of(List<String> globs) {
        List<String> checked = new ArrayList<>();
        for (String glob : Objects.requireNonNull(globs, "globs")) {
            if (glob == null || glob.isBlank()) {
                throw new IllegalArgumentException("an approve-tools glob must not be blank");
            }
            if (!glob.strip().equals(glob)) {
                throw new IllegalArgumentException("approve-tools glob '" + glob + "' has spaces around it");
            }
            if (glob.startsWith("!")) {
                throw new IllegalArgumentException(
                        "approve-tools glob '" + glob + "' starts with '!': list the tools that " + "need approval");
            }
            checked.add(glob);
        }
        return checked.isEmpty() ? NONE : new ApprovalRules(new ArrayList<>(new LinkedHashSet<>(checked)));
    }

    /** The globs, as written. */
    public List<String> globs() {
        return globs;
    }

    public boolean isEmpty() {
        return globs.isEmpty();
    }

    /** Whether calls of {@code tool} need approval (its name taken as written: see {@link #matches(String, ToolNames)}). */
    public boolean matches(String tool) {
        return matches(tool, ToolNames.AS_WRITTEN);
    }

    /**
     * Whether calls of the tool whose canonical name is {@code canonicalName} need approval, each glob
     * matched as {@link ToolNames#matches} says (so {@code mail:*} holds for a call spelled {@code send_mail}).
     */
    public boolean matches(String canonicalName, ToolNames names) {
        for (String glob : globs) {
            if (names.matches(glob, canonicalName)) {
                return true;
            }
        }
        return false;
    }

    /** The rules of both (a tool needs approval when either says so). */
    public ApprovalRules and(ApprovalRules other) {
        if (other.isEmpty()) {
            return this;
        }
        List<String> all = new ArrayList<>(globs);
        all.addAll(other.globs);
        return of(all);
    }

    @Override
    public String toString() {
        return "ApprovalRules" + globs;
    }
}
