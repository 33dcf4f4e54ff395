package dev.planvm.vm.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder: {@code planvm test} is being written. */
@Command(name = "test", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Not available yet.")
final class TestCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UnsupportedOperationException("planvm test is not available yet");
    }
}
