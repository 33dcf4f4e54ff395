package dev.planvm.server.internal;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The names a request's {@code Host} may give for a server: the address it listens on (any address of this
 * machine when that is a wildcard) and {@code localhost} when it listens on loopback, each with the port it
 * listens on; plus the configured names ({@code name} on any port, {@code name:port} on that one). Anything
 * else — above all a name an attacker's DNS points at 127.0.0.1 (DNS rebinding) — is not this server.
 * Only literal addresses are parsed; a name in a request is never looked up.
 */
public final class AllowedHosts {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9.-]*[a-z0-9])?|\\[[0-9a-f:.]+]");

    private final Set<InetAddress> addresses;
    private final Set<String> names;
    private final Set<String> anyPort;
    private final Set<String> exact;

    private AllowedHosts(Set<InetAddress> addresses, Set<String> names, Set<String> anyPort, Set<String> exact) {
        this.addresses = Set.copyOf(addresses);
        this.names = Set.copyOf(names);
        this.anyPort = Set.copyOf(anyPort);
        this.exact = Set.copyOf(exact);
    }

    /**
     * The hosts of a server listening on {@code bind} (as configured: an address or a name), plus {@code extra}
     * entries ({@code name} or {@code name:port}).
     *
     * @throws IllegalArgumentException for an entry that is not a host name or address (with an optional port)
     */
    public static AllowedHosts of(String bind, List<String> extra) {
        Set<InetAddress> addresses = new LinkedHashSet<>();
        Set<String> names = new LinkedHashSet<>();
        InetAddress bound;
        try {
            bound = InetAddress.getByName(bind); // the operator's setting, looked up once at start
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot resolve the bind address " + bind);
        }
        if (bound.isAnyLocalAddress()) {
            addresses.addAll(localAddresses());
        } else {
            addresses.add(bound);
        }
        if (bound.isAnyLocalAddress() || bound.isLoopbackAddress()) {
            names.add("localhost");
            addresses.add(InetAddress.getLoopbackAddress());
        }
        String bindName = bind.toLowerCase(Locale.ROOT);
        if (literal(bindName) == null && NAME.matcher(bindName).matches()) {
            names.add(bindName);
        }
        Set<String> anyPort = new LinkedHashSet<>();
        Set<String> exact = new LinkedHashSet<>();
        for (String entry : extra) {
            String host = entry.strip().toLowerCase(Locale.ROOT);
            int colon = host.lastIndexOf(':');
            boolean withPort = colon > 0 && !host.endsWith("]") && host.indexOf(':') == colon;
            boolean v6WithPort = host.startsWith("[") && host.contains("]:");
            if (withPort || v6WithPort) {
                String name = host.substring(0, colon);
                String number = host.substring(colon + 1);
                if (!NAME.matcher(name).matches() || !number.matches("\\d{1,5}") || Integer.parseInt(number) > 65535) {
                    throw invalid(entry);
                }
                exact.add(name + ":" + Integer.parseInt(number));
            } else if (NAME.matcher(host).matches()) {
                anyPort.add(host);
            } else {
                throw invalid(entry);
            }
        }
        return new AllowedHosts(addresses, names, anyPort, exact);
    }

    /**
     * Whether {@code host} (as in the request's URI or {@code Host} header, lower or upper case; an IPv6
     * address in brackets) with {@code requestPort} ({@code -1}: none given, so 80) names this server, which
     * listens on {@code port}.
     */
    public boolean allows(String host, int requestPort, int port) {
        if (host == null || host.isEmpty()) {
            return false;
        }
        String name = host.toLowerCase(Locale.ROOT);
        int given = requestPort < 0 ? 80 : requestPort;
        if (anyPort.contains(name) || exact.contains(name + ":" + given)) {
            return true;
        }
        if (given != port) {
            return false;
        }
        if (names.contains(name)) {
            return true;
        }
        InetAddress address = literal(name);
        return address != null && addresses.contains(address);
    }

    /** {@code 127.0.0.1:8080, localhost:8080, ...}: what a request may name, for messages. */
    public String describe(int port) {
        Set<String> all = new LinkedHashSet<>();
        addresses.stream()
                .limit(4)
                .forEach(a ->
                        all.add((a.getHostAddress().contains(":") ? "[" + a.getHostAddress() + "]" : a.getHostAddress())
                                + ":" + port));
        names.forEach(n -> all.add(n + ":" + port));
        all.addAll(anyPort);
        all.addAll(exact);
        return String.join(", ", all);
    }

    /** The address a literal names ({@code 127.0.0.1}, {@code [::1]}), or null for a name (never looked up). */
    private static InetAddress literal(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        boolean v6 = bare.contains(":") && bare.matches("[0-9a-f:.%]+");
        if (!v6 && !IPV4.matcher(bare).matches()) {
            return null;
        }
        try {
            return InetAddress.getByName(bare); // a literal: parsed, not looked up
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static Set<InetAddress> localAddresses() {
        Set<InetAddress> all = new LinkedHashSet<>();
        try {
            for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                all.addAll(Collections.list(network.getInetAddresses()));
            }
        } catch (SocketException e) {
            // the loopback addresses still count
        }
        return all;
    }

    private static IllegalArgumentException invalid(String entry) {
        return new IllegalArgumentException("--allow-host " + entry
                + ": give a host name or address, optionally with :PORT (e.g. planvm.internal:8080)");
    }
}
