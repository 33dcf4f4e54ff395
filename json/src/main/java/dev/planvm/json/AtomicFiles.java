package dev.planvm.json;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes output files (traces, cassettes, batch results, JUnit XML, expectations) without ever
 * replacing what is not a regular file:
 * <ul>
 * <li>a regular file, or a path where nothing is yet, is written <b>atomically</b>: readers see the
 *     old content or the whole new one, never a part (a temporary file beside it, flushed to disk,
 *     then renamed over it). A new file gets the mode the umask gives (as a shell's {@code >}
 *     would); a replaced file keeps its mode (and, best effort, its owner and group);</li>
 * <li>a <b>symlink</b> is followed: it stays a link and the file it points to is written (atomically,
 *     by the rules above, when that is a regular file or does not exist yet);</li>
 * <li>anything else that is not a directory — a device such as {@code /dev/null} or
 *     {@code /dev/stdout}, a FIFO, a socket — is <b>written through</b> as it is: opened and written,
 *     never replaced or truncated. So is any path under {@code /dev} or {@code /proc}, or a link
 *     leading through them ({@code /dev/stdout} redirected to a regular file: that file is
 *     truncated and written, never replaced);</li>
 * <li>a directory is refused.</li>
 * </ul>
 * Every failure is an {@link IOException} whose message is one sentence naming the file:
 * {@code cannot write out/trace.json: out is not a directory}.
 */
public final class AtomicFiles {

    /** Symlinks followed before giving up, as Linux's {@code ELOOP}. */
    private static final int MAX_LINKS = 40;

    private AtomicFiles() {}

    /** What is written: the bytes, streamed (a large document never has to be one string). */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    public static void write(Path target, String content) throws IOException {
        write(target, content.getBytes(StandardCharsets.UTF_8));
    }

    public static void write(Path target, byte[] content) throws IOException {
        write(target, out -> out.write(content));
    }

    /** Writes what {@code content} streams, by the rules above. */
    public static void write(Path target, Content content) throws IOException {
        try {
            BasicFileAttributes followed = attributes(target);
            if (followed != null && followed.isDirectory()) {
                throw new IOException("it is a directory");
            }
            if (followed != null && (followed.isOther() || throughDevOrProc(target))) {
                writeThrough(target, content, followed.isRegularFile());
            } else if (followed != null) {
                replace(target.toRealPath(), content);
            } else {
                replace(danglingTarget(target), content);
            }
        } catch (IOException e) {
            throw new IOException("cannot write " + target + ": " + reason(e, target), e);
        }
    }

    /** The attributes of what {@code file} is or its links lead to, or {@code null} when nothing is there. */
    private static BasicFileAttributes attributes(Path file) throws IOException {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return null;
        } catch (FileSystemException e) {
            if (Files.isSymbolicLink(file)) {
                return null; // a loop: danglingTarget says so
            }
            throw e;
        }
    }

    /**
     * Whether {@code target} is under {@code /dev} or {@code /proc}, or a link leads through them:
     * {@code /dev/stdout} is {@code /proc/self/fd/1}, which may be a regular file the shell opened
     * ({@code > out.txt}); renaming over it would cut the shell's output off from the file.
     */
    private static boolean throughDevOrProc(Path target) throws IOException {
        Path at = target.toAbsolutePath().normalize();
        for (int hops = 0; hops <= MAX_LINKS; hops++) {
            if (at.startsWith("/dev") || at.startsWith("/proc")) {
                return true;
            }
            if (!Files.isSymbolicLink(at)) {
                return false;
            }
            at = at.getParent().resolve(Files.readSymbolicLink(at)).normalize();
        }
        return false;
    }

    /** Where the chain of links starting at {@code target} ends, when it ends where nothing is yet. */
    private static Path danglingTarget(Path target) throws IOException {
        Path at = target.toAbsolutePath();
        for (int hops = 0; Files.isSymbolicLink(at); hops++) {
            if (hops == MAX_LINKS) {
                throw new IOException("too many levels of symbolic links");
            }
            at = at.getParent().resolve(Files.readSymbolicLink(at)).normalize();
        }
        return at;
    }

    /**
     * Writes a device, FIFO or socket as it is: no temporary file, no rename, no truncation (a
     * regular file reached through {@code /proc} is truncated first, as a shell's {@code >} does).
     */
    private static void writeThrough(Path target, Content content, boolean regular) throws IOException {
        try (OutputStream out = new BufferedOutputStream(
                regular
                        ? Files.newOutputStream(target, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)
                        : Files.newOutputStream(target, StandardOpenOption.WRITE))) {
            content.writeTo(out);
        }
    }

    /** Writes a temporary file beside {@code file}, flushes it and renames it over {@code file}. */
    private static void replace(Path file, Content content) throws IOException {
        Path dir = file.getParent();
        Files.createDirectories(dir);
        PosixFileAttributes existing = posixAttributes(file);
        String name = file.getFileName().toString();
        Path temp = dir.resolve("." + name.substring(0, Math.min(name.length(), 100)) + "."
                + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
        try {
            try (FileChannel channel =
                    FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 64 * 1024);
                content.writeTo(out);
                out.flush();
                channel.force(true);
            }
            if (existing != null) {
                keepOwnership(temp, existing);
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static PosixFileAttributes posixAttributes(Path file) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)
                || Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS) == null) {
            return null;
        }
        return Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }

    /** The replaced file's mode, and its owner and group when this process may set them. */
    private static void keepOwnership(Path temp, PosixFileAttributes existing) throws IOException {
        Files.setPosixFilePermissions(temp, existing.permissions());
        PosixFileAttributeView view = Files.getFileAttributeView(temp, PosixFileAttributeView.class);
        try {
            PosixFileAttributes now = view.readAttributes();
            if (!now.owner().equals(existing.owner())) {
                view.setOwner(existing.owner());
            }
            if (!now.group().equals(existing.group())) {
                view.setGroup(existing.group());
            }
        } catch (IOException notPermitted) {
            // only the owner changes; the content and mode are what matter
        }
    }

    /** Why writing {@code target} failed, as the end of a sentence. */
    private static String reason(IOException e, Path target) {
        if (e instanceof FileAlreadyExistsException exists && exists.getFile() != null) {
            return exists.getFile() + " is not a directory"; // createDirectories met a file on the way
        }
        if (e instanceof NotDirectoryException notDirectory) {
            return notDirectory.getFile() + " is not a directory";
        }
        if (e instanceof AccessDeniedException denied) {
            return "permission denied" + about(denied, target);
        }
        if (e instanceof NoSuchFileException missing) {
            return "no such file or directory" + about(missing, target);
        }
        if (e instanceof FileSystemException fs && "Not a directory".equals(fs.getReason()) && fs.getFile() != null) {
            Path file = Path.of(fs.getFile());
            for (Path up = file.getParent(); up != null; up = up.getParent()) {
                if (Files.exists(up) && !Files.isDirectory(up)) {
                    return up + " is not a directory";
                }
            }
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            String reason = fs.getReason();
            return Character.toLowerCase(reason.charAt(0)) + reason.substring(1) + about(fs, target);
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static String about(FileSystemException e, Path target) {
        String file = e.getFile();
        return file == null || Path.of(file).equals(target) ? "" : " (" + file + ")";
    }
}
