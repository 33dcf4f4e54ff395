package dev.planvm.cli;

import dev.planvm.dialects.Dialect;
import dev.planvm.json.TerminalText;
import picocli.CommandLine;

/** Reads {@code --dialect yaml|js|ppe|idyll|json} (also {@code yml}, {@code ai.yaml}, {@code xml}, any case); anything else is a usage error. */
final class DialectConverter implements CommandLine.ITypeConverter<Dialect> {

    /** The option's description, shared by the commands that take it. */
    static final String DESCRIPTION =
            "The plan's language: yaml (also .yml), js, ppe (PPE scripts, .ai.yaml), idyll (Idyll documents, .idyll,"
                    + " .xml) or json (default: the file's extension; json for standard input and other extensions).";

    @Override
    public Dialect convert(String value) {
        return Dialect.named(value)
                .orElseThrow(() -> new CommandLine.TypeConversionException(TerminalText.safe(
                        "'" + value + "' is not a plan dialect: write yaml, js, ppe, idyll or json")));
    }
}
