package dev.planvm.vm.durable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Says why SQLite could not write the run store when the cause is the machine's, not the store's: the
 * disk is full ({@code SQLITE_FULL}, or an I/O error with no space left), or a store file reached the
 * process's file-size limit ({@code ulimit -f}: the write fails with EFBIG, which SQLite reports as an
 * I/O error). Anything else keeps SQLite's own message.
 */
final class StoreFailures {

    private static final int SQLITE_CANTOPEN = 14;
    private static final int SQLITE_FULL = 13;
    private static final int SQLITE_IOERR = 10;

    /** Less free space than this on the store's file system counts as a full disk. */
    private static final long NEARLY_FULL = 64 * 1024;

    private StoreFailures() {}

    /**
     * The store's failure {@code e} on the store at {@code file}, as an exception whose message is {@code prefix}
     * and the cause in a sentence, and whose kind says whether the disk (or a file-size limit) is full.
     */
    static StoreException exception(Path file, String prefix, SQLException e) {
        int code = e.getErrorCode() & 0xff;
        String sqlite = String.valueOf(e.getMessage());
        if (code != SQLITE_FULL && code != SQLITE_IOERR && code != SQLITE_CANTOPEN) {
            return new StoreException(prefix + sqlite, e);
        }
        Optional<String> limit = fileSizeLimit(file);
        if (limit.isPresent()) {
            return new StoreException(prefix + limit.get() + " (" + label(sqlite) + ")", e, true);
        }
        if (code == SQLITE_FULL || usableSpace(file) < NEARLY_FULL) {
            return new StoreException(
                    prefix + "the disk is full, so the run store cannot be written (" + label(sqlite)
                            + "); it works again by itself once there is space",
                    e,
                    true);
        }
        return new StoreException(prefix + sqlite, e);
    }

    /** {@code SQLITE_IOERR_WRITE} of sqlite-jdbc's {@code [SQLITE_IOERR_WRITE] I/O error ...}, or the whole message. */
    private static String label(String message) {
        int end = message.indexOf(']');
        return message.startsWith("[SQLITE_") && end > 0 ? message.substring(1, end) : message;
    }

    /** When a store file has reached this process's file-size limit: the sentence that says so. */
    private static Optional<String> fileSizeLimit(Path file) {
        long limit = softFileSizeLimit();
        if (limit <= 0) {
            return Optional.empty();
        }
        String name = String.valueOf(file.getFileName());
        for (String suffix : List.of("-wal", "", "-journal", "-shm")) {
            Path f = file.resolveSibling(name + suffix);
            try {
                if (Files.exists(f) && Files.size(f) + NEARLY_FULL > limit) {
                    return Optional.of("the file-size limit (ulimit -f) of " + size(limit)
                            + " stops the run store from growing (" + f.getFileName() + " is " + size(Files.size(f))
                            + "); it works again by itself once the limit is raised");
                }
            } catch (IOException gone) {
                // the file went away: it is not the one at the limit
            }
        }
        return Optional.empty();
    }

    /** This process's soft RLIMIT_FSIZE in bytes (Linux {@code /proc/self/limits}); 0 when unlimited or unknown. */
    private static long softFileSizeLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max file size")) {
                    String soft =
                            line.substring("Max file size".length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? 0 : Long.parseLong(soft);
                }
            }
        } catch (IOException | RuntimeException notLinux) {
            // no limits to read here
        }
        return 0;
    }

    private static long usableSpace(Path file) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            return Files.getFileStore(dir).getUsableSpace();
        } catch (IOException | RuntimeException unknown) {
            return Long.MAX_VALUE;
        }
    }

    private static String size(long bytes) {
        if (bytes % (1024 * 1024) == 0) {
            return bytes / (1024 * 1024) + " MiB";
        }
        return bytes % 1024 == 0
                ? String.format(Locale.ROOT, "%,d KiB", bytes / 1024)
                : String.format(Locale.ROOT, "%,d bytes", bytes);
    }
}
