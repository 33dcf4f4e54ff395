package dev.planvm.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Reads the version Maven wrote into {@code version.txt} at build time. */
final class VersionProvider implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() throws IOException {
        try (InputStream in = VersionProvider.class.getResourceAsStream("/dev/planvm/cli/version.txt")) {
            String version = in == null ? "unknown" : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            return new String[] {"planvm " + version, "Java " + Runtime.version()};
        }
    }
}
