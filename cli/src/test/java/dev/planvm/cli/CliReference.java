package dev.planvm.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * docs/reference/cli.md, written from the picocli model of the {@code planvm} command: every command and
 * subcommand with its description, synopsis, parameters, options (names, value, default, description) and exit
 * codes. {@link CliReferenceTest} compares it with the committed page.
 */
final class CliReference {

    static final String REGENERATE = "mvn -B -o -q -pl cli -am test -Dtest=CliReferenceTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dplanvm.docs.write=true";

    private CliReference() {}

    static String markdown() {
        CommandLine root = PlanvmCommand.commandLine(Map.of());
        List<CommandLine> commands = new ArrayList<>();
        collect(root, commands);
        StringBuilder page = new StringBuilder();
        page.append("# CLI reference\n\n")
                .append(
                        "<!-- Generated from the picocli model of the planvm command by CliReferenceTest; do not edit.\n")
                .append("     Regenerate: ")
                .append(REGENERATE)
                .append(" -->\n\n")
                .append("Every `planvm` command and option, generated from the command line's own model (so it\n")
                .append("is what `--help` prints); how they work together is on\n")
                .append(
                        "[The command line](../guides/command-line.md), the exit-code rule on [Exit codes](exit-codes.md).\n")
                .append("Every command also takes `-h`/`--help` and `-V`/`--version`.\n\n")
                .append("| command | does |\n|---|---|\n");
        for (CommandLine command : commands) {
            page.append("| [`")
                    .append(command.getCommandSpec().qualifiedName())
                    .append("`](#")
                    .append(anchor(command.getCommandSpec()))
                    .append(") | ")
                    .append(cell(
                            firstLine(command.getCommandSpec().usageMessage().description())))
                    .append(" |\n");
        }
        for (CommandLine command : commands) {
            command(command.getCommandSpec(), page);
        }
        return page.toString();
    }

    private static void collect(CommandLine command, List<CommandLine> into) {
        into.add(command);
        command.getSubcommands().values().stream()
                .distinct()
                .filter(sub -> !sub.getCommandSpec().usageMessage().hidden())
                .filter(sub -> !(sub.getCommand() instanceof CommandLine.HelpCommand))
                .forEach(sub -> collect(sub, into));
    }

    private static void command(CommandSpec spec, StringBuilder page) {
        page.append("\n## ")
                .append(spec.qualifiedName())
                .append(" {#")
                .append(anchor(spec))
                .append("}\n\n");
        for (String line : spec.usageMessage().description()) {
            page.append(plain(text(line))).append('\n');
        }
        page.append("\n```\n").append(synopsis(spec)).append("\n```\n");
        List<PositionalParamSpec> positionals =
                spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
        if (!positionals.isEmpty()) {
            page.append("\n| parameter | description |\n|---|---|\n");
            for (PositionalParamSpec positional : positionals) {
                page.append("| ")
                        .append(code(positional.paramLabel()))
                        .append(" | ")
                        .append(cell(description(positional)))
                        .append(" |\n");
            }
        }
        List<OptionSpec> options = spec.options().stream()
                .filter(o -> !o.hidden() && !o.usageHelp() && !o.versionHelp())
                .toList();
        if (!options.isEmpty()) {
            page.append("\n| option | description |\n|---|---|\n");
            for (OptionSpec option : options) {
                page.append("| ").append(code(optionLabel(option))).append(" | ");
                String description = description(option);
                String fallback = option.defaultValue();
                if (fallback != null && !description.contains(fallback)) {
                    description += (description.isEmpty() ? "" : " ") + "Default: `" + fallback + "`.";
                }
                page.append(cell(description)).append(" |\n");
            }
        }
        List<String> exitCodes = exitCodes(spec);
        if (!exitCodes.isEmpty()) {
            page.append("\n| exit code | when |\n|---|---|\n");
            exitCodes.forEach(row -> page.append(row).append('\n'));
        }
        if (!spec.subcommands().isEmpty()) {
            page.append("\nSubcommands: ")
                    .append(spec.subcommands().values().stream()
                            .distinct()
                            .filter(sub -> !(sub.getCommand() instanceof CommandLine.HelpCommand))
                            .map(sub -> "[`" + sub.getCommandName() + "`](#" + anchor(sub.getCommandSpec()) + ")")
                            .collect(Collectors.joining(", ")))
                    .append(".\n");
        }
    }

    private static String synopsis(CommandSpec spec) {
        String synopsis = new CommandLine.Help(spec, CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF))
                .synopsis(0)
                .strip();
        return synopsis.lines().map(String::strip).collect(Collectors.joining("\n    "));
    }

    private static List<String> exitCodes(CommandSpec spec) {
        List<String> rows = new ArrayList<>();
        spec.usageMessage()
                .exitCodeList()
                .forEach((code, meaning) -> rows.add("| " + code.strip() + " | " + cell(text(meaning)) + " |"));
        return rows;
    }

    private static String optionLabel(OptionSpec option) {
        String names = String.join(", ", option.names());
        if (option.typeInfo().isBoolean() && option.arity().max() == 0) {
            return names;
        }
        return names + " " + option.paramLabel();
    }

    private static String description(ArgSpec arg) {
        return String.join(" ", List.of(arg.description())).transform(CliReference::text);
    }

    private static String firstLine(String[] description) {
        return description.length == 0 ? "" : text(description[0]);
    }

    /** picocli's format specifiers and markup as plain text. */
    private static String text(String line) {
        return line.replace("%n", " ").replace("%%", "%").strip();
    }

    /**
     * Code in a table cell: as HTML, with its pipes as character references, so that neither MkDocs nor GitHub takes
     * them for column breaks.
     */
    static String code(String text) {
        return "<code>" + text.replace("&", "&amp;").replace("<", "&lt;").replace("|", "&#124;") + "</code>";
    }

    /** Text safe in a Markdown table cell: no markup, no line break, no column break. */
    private static String cell(String text) {
        return plain(text).replace("|", "\\|").replace("\n", " ");
    }

    /** Text that Markdown shows as it is: no emphasis, code spans or HTML. */
    private static String plain(String text) {
        return text.replace("\\", "\\\\")
                .replace("*", "\\*")
                .replace("_", "\\_")
                .replace("`", "\\`")
                .replace("<", "&lt;");
    }

    static String anchor(CommandSpec spec) {
        return spec.qualifiedName().replace(' ', '-');
    }
}
