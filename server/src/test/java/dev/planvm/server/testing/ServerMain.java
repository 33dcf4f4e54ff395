package dev.planvm.server.testing;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.server.PlanService;
import dev.planvm.server.ServiceSettings;
import dev.planvm.server.http.PlanServer;
import dev.planvm.server.http.ServerSettings;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.durable.RunStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A server in a child JVM for the crash tests: {@code ServerMain STORE LOG PORTFILE SESSION}. Its tools
 * {@code work} (waits 15 ms) and {@code send} append {@code "SESSION TOOL PARAM"} to LOG before answering, so
 * every invocation is counted even when the process is killed. It resumes the interrupted runs it finds,
 * then writes its port to PORTFILE and serves until killed.
 */
public final class ServerMain {

    private ServerMain() {}

    public static void main(String[] args) throws Exception {
        Path store = Path.of(args[0]);
        Path log = Path.of(args[1]);
        Path portFile = Path.of(args[2]);
        String session = args[3];
        PlanVm vm = PlanVm.builder()
                .tool(Tool.of("work", "Logs its call, waits, answers the pass.", (params, context) -> {
                    append(log, session + " work " + params.path("i").asInt());
                    ServerFixture.sleep(15);
                    return TextNode.valueOf(String.valueOf(params.path("i").asInt()));
                }))
                .tool(Tool.of("send", "Logs its call and answers.", (params, context) -> {
                    append(log, session + " send " + params.path("to").asText());
                    return TextNode.valueOf("sent to " + params.path("to").asText());
                }))
                .build();
        RunStore runs = RunStore.open(
                store, vm.redactor(), RunStore.Settings.DEFAULT.withDurability(RunStore.Durability.PROCESS));
        PlanService service = new PlanService(vm, runs, ServiceSettings.DEFAULT);
        service.resumeInterrupted();
        PlanServer server =
                PlanServer.start(service, ServerSettings.builder().port(0).build());
        Path written = portFile.resolveSibling(portFile.getFileName() + ".tmp");
        Files.writeString(written, String.valueOf(server.port()));
        Files.move(written, portFile);
        Thread.currentThread().join();
    }

    private static synchronized void append(Path log, String line) {
        try {
            Files.writeString(
                    log, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
