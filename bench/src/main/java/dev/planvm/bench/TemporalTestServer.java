package dev.planvm.bench;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.TestServicesStarter;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Temporal's Java test server on a loopback port, to try {@code planvm worker} and {@code --temporal}
 * where neither {@code temporal server start-dev} nor a cluster is at hand. It keeps everything in
 * memory, has no UI and no visibility store; real time (no time skipping). Stop it with Ctrl-C.
 *
 * <p>{@code bench/run --main dev.planvm.bench.TemporalTestServer [PORT]} (default 7233)
 */
public final class TemporalTestServer {

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 7233;
        TestServicesStarter services = new TestServicesStarter(true, 0);
        NettyServerBuilder builder =
                NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), builder);
        Server server = builder.build().start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdownNow();
            services.close();
        }));
        System.err.println(
                "Temporal test server at 127.0.0.1:" + server.getPort() + " (namespace default); Ctrl-C stops it");
        server.awaitTermination();
    }
}
