package dev.planvm.dialects;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The languages a plan may be written in. Each compiles to StackVM JSON, so loading, validation,
 * runs, cassettes and traces work the same for all of them.
 */
public enum Dialect {

    /** StackVM JSON itself (DESIGN §2): passed through unchanged. */
    JSON(List.of("json")),
    /** Seed 000: aliases bound to domain sets (tool calls) or strings, {@code ${...}} in slot values. */
    YAML(List.of("yaml", "yml")),
    /** Seed 001: alias declarations and one {@code return}, in a small subset of JavaScript. */
    JS(List.of("js")),
    /**
     * Seed 004: Programmable Prompt Engine scripts, dialogue turns and directives in YAML. Chosen by
     * the double extension {@code .ai.yaml} (or {@code .ai.yml}), which wins over plain YAML.
     */
    PPE(List.of("ai.yaml", "ai.yml")),
    /**
     * Seed 003: Idyll documents, XML whose root is {@code <document>}; their {@code <fncall>} blocks run in
     * order and the answer is the execution report.
     */
    IDYLL(List.of("idyll", "xml"));

    private final List<String> extensions;

    Dialect(List<String> extensions) {
        this.extensions = extensions;
    }

    /** File name extensions (without the dot) that select this dialect; PPE's are double ({@code ai.yaml}). */
    public List<String> extensions() {
        return extensions;
    }

    /** The name used on the command line ({@code --dialect yaml}). */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The dialect a file name's extension selects ({@code plan.yml} is YAML), if any. */
    public static Optional<Dialect> forFileName(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        for (String extension : PPE.extensions) {
            if (lower.endsWith("." + extension) && lower.length() > extension.length() + 1) {
                return Optional.of(PPE);
            }
        }
        int dot = fileName.lastIndexOf('.');
        if (dot < 0 || dot == fileName.length() - 1) {
            return Optional.empty();
        }
        String extension = fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(d -> d.extensions.contains(extension))
                .findFirst();
    }

    /** The dialect a file name selects; JSON when its extension names none. */
    public static Dialect ofFile(String fileName) {
        return forFileName(fileName).orElse(JSON);
    }

    /**
     * The dialect named {@code name} ({@code json}, {@code yaml}, {@code yml}, {@code js}, {@code ppe}
     * (also {@code ai.yaml}) or {@code idyll} (also {@code xml}), any case), if any.
     */
    public static Optional<Dialect> named(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(d -> d.cliName().equals(n) || d.extensions.contains(n))
                .findFirst();
    }
}
