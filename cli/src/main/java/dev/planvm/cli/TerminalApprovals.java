package dev.planvm.cli;

import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.call.Call;
import java.io.Console;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code planvm run} on a terminal: asks whether each call that needs approval may proceed
 * ({@code seq_no 3 calls send_mail with {...}: approve? [y/N]}); anything but {@code y} or {@code yes}
 * denies it. The decision is recorded with the run.
 */
final class TerminalApprovals implements Approvals {

    private static final int MAX_PARAMS_SHOWN = 2000;

    private final Console console;

    private TerminalApprovals(Console console) {
        this.console = console;
    }

    /** A prompt when stdin is a console and stderr a terminal, else {@code null} (runs then wait). */
    static Approvals ifInteractive() {
        Console console = System.console();
        return console != null && BatchProgress.stderrIsTerminal() ? new TerminalApprovals(console) : null;
    }

    @Override
    public Optional<Decision> decide(Call.ToolCall call) {
        String params = call.params().toString();
        if (params.length() > MAX_PARAMS_SHOWN) {
            params = params.substring(0, MAX_PARAMS_SHOWN) + "… (" + params.length() + " characters)";
        }
        String answer = console.readLine(
                "seq_no %d calls %s with %s: approve? [y/N] ", call.context().seqNo(), call.tool(), params);
        if (answer == null) {
            return Optional.empty(); // end of input: leave the run waiting
        }
        String word = answer.strip().toLowerCase(Locale.ROOT);
        return Optional.of(
                word.equals("y") || word.equals("yes") ? Decision.approve() : Decision.deny("denied at the terminal"));
    }
}
