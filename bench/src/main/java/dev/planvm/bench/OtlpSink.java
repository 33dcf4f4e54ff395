package dev.planvm.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The OTLP/HTTP receiver of {@code ServerLoadBench --tracing}, run as its own process (a collector runs
 * elsewhere: its work is not the traced server's): it accepts {@code POST /v1/traces} on 127.0.0.1, drains
 * the body into one reused buffer without decoding it, answers 200 and counts requests and bytes. Prints
 * its port on the first line of stdout; when stdin closes, prints {@code REQUESTS BYTES} and exits.
 */
public final class OtlpSink {

    private OtlpSink() {}

    public static void main(String[] args) throws IOException {
        AtomicLong requests = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newSingleThreadExecutor());
        byte[] buffer = new byte[1 << 16]; // one thread drains every request
        server.createContext("/v1/traces", exchange -> {
            try (exchange;
                    InputStream body = exchange.getRequestBody()) {
                long n = 0;
                for (int read; (read = body.read(buffer)) >= 0; ) {
                    n += read;
                }
                bytes.addAndGet(n);
                requests.incrementAndGet();
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, -1);
            }
        });
        server.start();
        System.out.println(server.getAddress().getPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // until the bench closes our stdin
        }
        server.stop(0);
        System.out.println(requests.get() + " " + bytes.get());
        System.out.flush();
        System.exit(0);
    }
}
