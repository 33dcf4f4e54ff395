package dev.planvm.cli;

import dev.planvm.server.PlanService;
import dev.planvm.server.ServiceSettings;
import dev.planvm.server.mcp.PlanMcpServer;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.durable.RunStore;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm mcp}: planvm as an MCP server, over stdio (until stdin closes) or Streamable HTTP with {@code --port}. */
@Command(
        name = "mcp",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Serve planvm to MCP clients (desktop assistants, IDE agents, agent frameworks): the tools validate_plan, "
                    + "run_plan, get_run, plan_schema and list_tools, with this machine's tools, run store and policy.",
            "Over stdio by default (stdout carries only the protocol; logs go to stderr; a line that is not JSON-RPC "
                    + "is answered with its JSON-RPC error; the end of stdin ends it), or Streamable HTTP at "
                    + "http://127.0.0.1:PORT/mcp with --port, which answers only requests that name it (Host) and refuses "
                    + "requests from web pages unless their origin is an --allow-origin."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stdin closed (stdio) or stopped", "1:cannot listen", "2:bad usage"})
final class McpCommand implements Callable<Integer> {

    @CommandLine.Option(
            names = "--port",
            paramLabel = "N",
            description = "Serve Streamable HTTP on this port (0: any free one) instead of stdio.")
    private Integer port;

    @CommandLine.Option(
            names = "--bind",
            paramLabel = "ADDRESS",
            defaultValue = "127.0.0.1",
            description = "With --port, the loopback address to listen on (default: ${DEFAULT-VALUE}).")
    private String bind;

    @CommandLine.Option(
            names = "--allow-host",
            paramLabel = "HOST",
            description = "With --port, also answer requests whose Host is this name (any port) or NAME:PORT; "
                    + "repeatable. By default only the bound address and localhost.")
    private List<String> allowHosts = List.of();

    @CommandLine.Option(
            names = "--allow-origin",
            paramLabel = "ORIGIN",
            description = "With --port, let web pages of this origin (scheme://host[:port]) connect, with CORS; "
                    + "repeatable. By default a request from any web page (it carries an Origin) is refused with 403.")
    private List<String> allowOrigins = List.of();

    @CommandLine.Mixin
    private DurableStoreOptions store;

    @CommandLine.Mixin
    private VmOptions vmOptions;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    private PlanvmCommand parent;

    @Override
    public Integer call() throws Exception {
        CommandLine commandLine = spec.commandLine();
        if (!vmOptions.inputs(commandLine).isEmpty()) {
            throw new CommandLine.ParameterException(
                    commandLine, "--var does not go with mcp: each run_plan call brings its inputs");
        }
        if (port == null && !(allowHosts.isEmpty() && allowOrigins.isEmpty())) {
            throw new CommandLine.ParameterException(
                    commandLine, "--allow-host and --allow-origin go with --port (Streamable HTTP), not stdio");
        }
        Map<String, String> secrets = vmOptions.secrets(parent.environment(), commandLine);
        PlanVm vm = vmOptions.build(parent.environment(), secrets, commandLine);
        RunStore runs = store.open(parent.environment(), vm.redactor());
        PlanService service = new PlanService(
                vm,
                runs,
                ServiceSettings.DEFAULT
                        .withOrigin("mcp")
                        .withUnavailableTools(vmOptions.loaded().unavailable()));
        String version = new VersionProvider().getVersion()[0].replace("planvm ", "");
        CountDownLatch done = new CountDownLatch(1);
        try {
            if (port != null) {
                return http(commandLine, service, version, done);
            }
            PlanMcpServer.Stdio server = PlanMcpServer.stdio(
                    service, new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out), version);
            server.awaitEnd(); // the client closed stdin: stop
            server.close();
            return ExitCodes.OK;
        } finally {
            service.shutdown(Duration.ofSeconds(10));
            runs.close();
            vm.close();
        }
    }

    private int http(CommandLine commandLine, PlanService service, String version, CountDownLatch done)
            throws Exception {
        PlanMcpServer.Http server;
        try {
            server = PlanMcpServer.http(service, bind, port, allowHosts, allowOrigins, version);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, e.getMessage());
        } catch (IOException e) {
            commandLine.getErr().println("planvm mcp: cannot listen on " + bind + ":" + port + ": " + e.getMessage());
            return ExitCodes.RUNTIME_FAILURE;
        }
        commandLine
                .getErr()
                .println("planvm mcp: Streamable HTTP at " + server.url() + "; stop with Ctrl-C or SIGTERM");
        commandLine.getErr().flush();
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                server.close();
                            } catch (Exception ignored) {
                                // stopping anyway
                            }
                            done.countDown();
                        },
                        "planvm-mcp-stop"));
        done.await();
        return ExitCodes.OK;
    }
}
