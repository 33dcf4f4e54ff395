package dev.planvm.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/** The {@code --verbose} option every command has: DEBUG logs and stack traces on errors. */
final class Verbosity {

    @CommandLine.Option(
            names = {"-v", "--verbose"},
            description = "Debug logging on stderr and stack traces on errors.")
    void setVerbose(boolean verbose) {
        this.verbose = verbose;
        if (verbose && LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME) instanceof Logger root) {
            root.setLevel(Level.DEBUG);
        }
    }

    private boolean verbose;

    boolean verbose() {
        return verbose;
    }

    /** Whether {@code --verbose} was given anywhere on the command line. */
    static boolean isVerbose(CommandLine.ParseResult parseResult) {
        for (CommandLine.ParseResult result = parseResult; result != null; result = result.subcommand()) {
            if (result.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }
}
