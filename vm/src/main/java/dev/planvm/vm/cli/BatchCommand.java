package dev.planvm.vm.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** Placeholder: {@code planvm batch} is being written. */
@Command(name = "batch", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Not available yet.")
final class BatchCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UnsupportedOperationException("planvm batch is not available yet");
    }
}
