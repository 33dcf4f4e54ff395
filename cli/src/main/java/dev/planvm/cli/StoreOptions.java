package dev.planvm.cli;

import dev.planvm.vm.durable.RunStore;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;

/** Where runs are kept: {@code --store PATH}, else {@code $PLANVM_STORE}, else {@code .planvm/runs.db}. */
final class StoreOptions {

    @CommandLine.Option(
            names = "--store",
            paramLabel = "PATH",
            description =
                    "The run store (SQLite). Default: $PLANVM_STORE, else .planvm/runs.db in the current directory.")
    private Path store;

    Path path(Map<String, String> environment) {
        if (store != null) {
            return store;
        }
        String configured = environment.get("PLANVM_STORE");
        return configured != null && !configured.isBlank() ? Path.of(configured) : RunStore.DEFAULT_PATH;
    }

    /** The store, which must exist already (commands that only read runs never create one). */
    RunStore openExisting(Map<String, String> environment) {
        return RunStore.openExisting(path(environment));
    }
}
