package dev.planvm.cli;

import dev.planvm.tools.Redactor;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.StoredRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;

/** Where and how commands that run plans keep them: {@code --store}, {@code --durability}, {@code --max-store-bytes}. */
final class DurableStoreOptions {

    @CommandLine.Mixin
    private StoreOptions store;

    @CommandLine.Option(
            names = "--durability",
            paramLabel = "full|process",
            defaultValue = "full",
            converter = DurabilityConverter.class,
            description =
                    "What a committed step survives: full (default: also a power loss or OS crash, one disk sync per "
                            + "step) or process (a crash of planvm only, about half the cost per step).")
    private RunStore.Durability durability;

    @CommandLine.Option(
            names = "--max-store-bytes",
            paramLabel = "SIZE",
            defaultValue = "256MiB",
            converter = Sizes.class,
            description =
                    "The most one run may write to the run store (default: ${DEFAULT-VALUE}); a step that would pass it "
                            + "stops the run. Sizes: 1000, 64KiB, 256MiB, 1GiB.")
    private long maxStoreBytes;

    /** Opens (creating when needed) the store, keeping {@code redactor}'s secrets out of everything written to it. */
    RunStore open(Map<String, String> environment, Redactor redactor) {
        return RunStore.open(
                store.path(environment),
                redactor,
                RunStore.Settings.DEFAULT.withDurability(durability).withMaxRunBytes(maxStoreBytes));
    }

    /**
     * The plan source (the file it was started from) of stored run {@code runId}, read without
     * changing the store; {@code null} when there is no store or no such run (the command that opens
     * the store says so).
     */
    String planSource(Map<String, String> environment, String runId) {
        Path file = store.path(environment);
        if (!Files.exists(file)) {
            return null;
        }
        try (RunStore runs = RunStore.openExisting(file)) {
            return runs.find(runId).map(StoredRun::planSource).orElse(null);
        } catch (RuntimeException e) {
            return null; // an ambiguous id, a store of another version: the command reports it
        }
    }

    /** Reads {@code full} or {@code process}. */
    static final class DurabilityConverter implements CommandLine.ITypeConverter<RunStore.Durability> {
        @Override
        public RunStore.Durability convert(String value) {
            for (RunStore.Durability durability : RunStore.Durability.values()) {
                if (durability.label().equals(value)) {
                    return durability;
                }
            }
            throw new CommandLine.TypeConversionException("'" + value + "' is not full or process");
        }
    }
}
