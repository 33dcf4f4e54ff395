package dev.planvm.vm.durable;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.Optional;

/**
 * Who works on a stored run: a process, written {@code pid@host@start-epoch-ms}. On this host a
 * process that is gone (or whose pid was reused by another process) is known dead at once; on
 * another host only the expiry of its lease tells.
 *
 * @param pid     the process id
 * @param host    the host name
 * @param started when the process started, epoch milliseconds (0 when unknown)
 */
record Owner(long pid, String host, long started) {

    /** This process. */
    static final Owner CURRENT = new Owner(
            ProcessHandle.current().pid(),
            hostName(),
            ProcessHandle.current()
                    .info()
                    .startInstant()
                    .map(Instant::toEpochMilli)
                    .orElse(0L));

    static Optional<Owner> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String[] parts = text.split("@");
        try {
            return Optional.of(new Owner(Long.parseLong(parts[0]), parts[1], Long.parseLong(parts[2])));
        } catch (RuntimeException malformed) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return pid + "@" + host + "@" + started;
    }

    /** Whether this owner is certainly dead: a process of this host that no longer runs. */
    boolean knownDead() {
        if (!host.equals(CURRENT.host)) {
            return false;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) {
            return true;
        }
        long start =
                process.get().info().startInstant().map(Instant::toEpochMilli).orElse(0L);
        return started != 0 && start != 0 && Math.abs(start - started) > 1000; // the pid now belongs to another process
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName().replace("@", "_");
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
