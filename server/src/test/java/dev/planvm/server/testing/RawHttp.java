package dev.planvm.server.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 by hand over a socket to 127.0.0.1, for what a JDK client will not send (a foreign {@code Host},
 * malformed or partial requests): one request with {@code Connection: close}, the whole answer read.
 */
public final class RawHttp {

    /** An answer: status, headers (names lower-cased, last wins) and body; status 0 when the server sent nothing. */
    public record Answer(int status, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private RawHttp() {}

    /** Sends {@code head} (request line and headers, CRLF-separated, without the blank line) and {@code body}. */
    public static Answer send(int port, String head, String body) throws IOException {
        byte[] content = body.getBytes(StandardCharsets.UTF_8);
        String request = head + "\r\nContent-Length: " + content.length + "\r\nConnection: close\r\n\r\n";
        return exchange(port, concat(request.getBytes(StandardCharsets.ISO_8859_1), content));
    }

    /** Sends these bytes as they are, then the end of input, and reads the answer until the server closes (at most 30 s). */
    public static Answer exchange(int port, byte[] request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(60_000); // not hung: no timing target
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            socket.shutdownOutput(); // nothing more comes: the server closes once it answered
            return parse(readAll(socket.getInputStream()));
        }
    }

    /** A request with this method, path, {@code Host} and extra header lines ({@code "Name: value"}). */
    public static String head(String method, String path, String host, String... headers) {
        StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + host);
        for (String header : headers) {
            head.append("\r\n").append(header);
        }
        return head.toString();
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                all.write(buffer, 0, n);
            }
        } catch (java.net.SocketException reset) {
            // the server closed hard after answering: keep what came
        }
        return all.toByteArray();
    }

    private static Answer parse(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1); // a char a byte: chunk sizes count bytes
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/") || end < 0) {
            return new Answer(0, Map.of(), text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(
                        lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).strip());
            }
        }
        String body = text.substring(end + 4);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Answer(
                status, headers, new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
    }

    private static String dechunk(String chunked) {
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (at < chunked.length()) {
            int line = chunked.indexOf("\r\n", at);
            if (line < 0) {
                break;
            }
            int size =
                    Integer.parseInt(chunked.substring(at, line).split(";")[0].strip(), 16);
            if (size == 0) {
                break;
            }
            body.append(chunked, line + 2, Math.min(chunked.length(), line + 2 + size));
            at = line + 2 + size + 2;
        }
        return body.toString();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
