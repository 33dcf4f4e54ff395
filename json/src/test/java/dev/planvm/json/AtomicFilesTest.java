package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output files (traces, cassettes, batch results, JUnit XML, expectations) are written atomically
 * when they are regular files, and never replace what is not one: a symlink is followed, a FIFO or
 * device is written through, a directory is refused. New files get the umask's mode.
 */
class AtomicFilesTest {

    /** A deadline that proves a write through a FIFO did not hang: no timing target. */
    private static final Duration NOT_HUNG = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static Set<PosixFilePermission> mode(Path file) throws IOException {
        return Files.getPosixFilePermissions(file);
    }

    private static boolean isFifo(Path file) throws IOException {
        return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                .isOther();
    }

    private Path fifo(String name) throws Exception {
        Path fifo = dir.resolve(name);
        Process mkfifo =
                new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(mkfifo.exitValue()).isZero();
        return fifo;
    }

    @Test
    void a_new_file_gets_the_mode_the_umask_gives_not_0600() throws Exception {
        Set<PosixFilePermission> umaskMode = mode(Files.createFile(dir.resolve("plain")));
        Path trace = dir.resolve("trace.json");

        AtomicFiles.write(trace, "{}\n");

        assertThat(Files.readString(trace)).isEqualTo("{}\n");
        assertThat(mode(trace)).isEqualTo(umaskMode);
    }

    @Test
    void replacing_a_regular_file_keeps_its_mode_and_leaves_no_temporary_file() throws Exception {
        Path out = Files.writeString(dir.resolve("out.jsonl"), "old\n");
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rw-rw-r--"));

        AtomicFiles.write(out, "new\n");

        assertThat(Files.readString(out)).isEqualTo("new\n");
        assertThat(mode(out)).isEqualTo(PosixFilePermissions.fromString("rw-rw-r--"));
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(out);
        }
    }

    @Test
    void a_symlink_stays_a_symlink_and_its_target_gets_the_content() throws Exception {
        Path target =
                Files.writeString(Files.createDirectory(dir.resolve("real")).resolve("trace.json"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), Path.of("real/trace.json"));

        AtomicFiles.write(link, "new");

        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(target)).isEqualTo("new");
    }

    @Test
    void a_dangling_symlink_creates_its_target() throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), dir.resolve("later.json"));

        AtomicFiles.write(link, "made");

        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(dir.resolve("later.json"))).isEqualTo("made");
    }

    @Test
    void a_fifo_is_written_through_and_stays_a_fifo() throws Exception {
        Path fifo = fifo("pipe");
        assertTimeoutPreemptively(NOT_HUNG, () -> {
            CompletableFuture<String> reader = CompletableFuture.supplyAsync(() -> {
                try {
                    return Files.readString(fifo);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            AtomicFiles.write(fifo, "through the pipe\n");
            assertThat(reader.get(NOT_HUNG.toSeconds(), TimeUnit.SECONDS)).isEqualTo("through the pipe\n");
        });
        assertThat(Files.isRegularFile(fifo, LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(Files.isSymbolicLink(fifo)).isFalse();
        assertThat(isFifo(fifo)).as("still a FIFO").isTrue();
    }

    @Test
    void a_symlink_to_a_fifo_like_dev_stdout_is_written_through() throws Exception {
        Path fifo = fifo("pipe");
        Path stdout = Files.createSymbolicLink(dir.resolve("stdout"), fifo);
        assertTimeoutPreemptively(NOT_HUNG, () -> {
            CompletableFuture<String> reader = CompletableFuture.supplyAsync(() -> {
                try {
                    return Files.readString(fifo);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            AtomicFiles.write(stdout, "to stdout\n");
            assertThat(reader.get(NOT_HUNG.toSeconds(), TimeUnit.SECONDS)).isEqualTo("to stdout\n");
        });
        assertThat(Files.isSymbolicLink(stdout)).isTrue();
        assertThat(isFifo(fifo)).isTrue();
    }

    @Test
    void dev_stdout_redirected_to_a_regular_file_writes_that_file_and_does_not_replace_it() throws Exception {
        Path shellOutput = dir.resolve("out.txt");
        try (FileChannel stdout = FileChannel.open(shellOutput, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            Path fd = openDescriptorOf(shellOutput);
            Path devStdout = Files.createSymbolicLink(dir.resolve("stdout"), fd);
            Object inode =
                    Files.readAttributes(shellOutput, BasicFileAttributes.class).fileKey();

            AtomicFiles.write(devStdout, "the trace\n");

            assertThat(Files.readAttributes(shellOutput, BasicFileAttributes.class)
                            .fileKey())
                    .as("the same file")
                    .isEqualTo(inode);
            assertThat(Files.readString(shellOutput)).isEqualTo("the trace\n");
            stdout.write(java.nio.ByteBuffer.wrap("more".getBytes()), 10);
            assertThat(Files.readString(shellOutput))
                    .as("the shell's descriptor still writes the file")
                    .endsWith("more");
        }
    }

    /** {@code /proc/self/fd/N} for the descriptor this process has open on {@code file}. */
    private static Path openDescriptorOf(Path file) throws IOException {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    if (Files.readSymbolicLink(fd).equals(file.toRealPath())) {
                        return fd;
                    }
                } catch (IOException gone) {
                    // the descriptor of the listing itself, closed meanwhile
                }
            }
        }
        throw new IllegalStateException("no descriptor open on " + file);
    }

    @Test
    void a_directory_is_refused_with_a_sentence_naming_it() throws Exception {
        Path directory = Files.createDirectory(dir.resolve("out"));
        assertThatThrownBy(() -> AtomicFiles.write(directory, "x"))
                .isInstanceOf(IOException.class)
                .hasMessage("cannot write " + directory + ": it is a directory");
        assertThat(Files.isDirectory(directory)).isTrue();
    }

    @Test
    void a_failed_write_names_the_file_and_the_reason() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        Path inside = notADirectory.resolve("trace.json");
        assertThatThrownBy(() -> AtomicFiles.write(inside, "x"))
                .isInstanceOf(IOException.class)
                .hasMessage("cannot write " + inside + ": " + notADirectory + " is not a directory");
    }

    @Test
    void a_symlink_loop_is_refused_with_a_sentence() throws Exception {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        Files.createSymbolicLink(a, b);
        Files.createSymbolicLink(b, a);
        assertThatThrownBy(() -> AtomicFiles.write(a, "x"))
                .isInstanceOf(IOException.class)
                .hasMessage("cannot write " + a + ": too many levels of symbolic links");
    }
}
