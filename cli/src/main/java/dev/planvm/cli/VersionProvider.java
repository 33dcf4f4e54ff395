package dev.planvm.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Reads the version Maven wrote into {@code version.txt} at build time. */
final class VersionProvider implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        return lines();
    }

    /** {@code planvm VERSION} and {@code Java VERSION}: what {@code planvm --version} prints. */
    static String[] lines() {
        String version;
        try (InputStream in = VersionProvider.class.getResourceAsStream("/dev/planvm/cli/version.txt")) {
            version = in == null ? "unknown" : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            version = "unknown";
        }
        return new String[] {"planvm " + version, "Java " + Runtime.version()};
    }
}
