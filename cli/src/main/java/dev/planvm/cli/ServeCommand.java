package dev.planvm.cli;

import dev.planvm.server.PlanService;
import dev.planvm.server.ServiceSettings;
import dev.planvm.server.http.PlanServer;
import dev.planvm.server.http.ServerSettings;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.durable.RunStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm serve}: the HTTP API (see {@code GET /openapi.json}) until SIGTERM or Ctrl-C. */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Serve the HTTP API: validate plans, start and follow runs (server-sent events), approve, resume, "
                    + "rerun and cancel them, tools, schema, metrics. GET /openapi.json describes it.",
            "Listens on 127.0.0.1 unless --bind says otherwise, which needs --token-file. It answers only requests that "
                    + "name it (Host: the bound address, localhost on loopback, or an --allow-host name; a DNS-rebound "
                    + "name is refused), refuses requests from web pages unless their origin is an --allow-origin, and "
                    + "takes a POST only as Content-Type: application/json.",
            "On SIGTERM it stops accepting, "
                    + "lets active runs reach a commit point within --grace, and leaves the rest interrupted; on start it "
                    + "resumes the interrupted runs a server started."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:stopped",
            "1:cannot listen (the address is in use)",
            "2:bad usage (a public address without a token)"
        })
final class ServeCommand implements Callable<Integer> {

    @CommandLine.Option(
            names = "--port",
            paramLabel = "N",
            defaultValue = "8080",
            description = "The port (default: ${DEFAULT-VALUE}; 0: any free one).")
    private int port;

    @CommandLine.Option(
            names = "--bind",
            paramLabel = "ADDRESS",
            defaultValue = "127.0.0.1",
            description =
                    "The address to listen on (default: ${DEFAULT-VALUE}); anything but loopback needs --token-file.")
    private String bind;

    @CommandLine.Option(
            names = "--token-file",
            paramLabel = "FILE",
            description =
                    "A file holding the bearer token every request must carry (Authorization: Bearer TOKEN), at least 16 characters.")
    private Path tokenFile;

    @CommandLine.Option(
            names = "--max-body",
            paramLabel = "SIZE",
            defaultValue = "8MiB",
            converter = Sizes.class,
            description = "The largest request body (default: ${DEFAULT-VALUE}); a larger one is answered 413.")
    private long maxBody;

    @CommandLine.Option(
            names = "--max-runs",
            paramLabel = "N",
            defaultValue = "64",
            description = "Runs executing at once (default: ${DEFAULT-VALUE}); beyond, requests are answered 429.")
    private int maxRuns;

    @CommandLine.Option(
            names = "--max-requests",
            paramLabel = "N",
            defaultValue = "256",
            description = "Requests handled at once (default: ${DEFAULT-VALUE}); beyond, 429 with Retry-After.")
    private int maxRequests;

    @CommandLine.Option(
            names = "--allow-host",
            paramLabel = "HOST",
            description = "Also answer requests whose Host is this name (any port) or NAME:PORT, e.g. behind a "
                    + "reverse proxy; repeatable. By default only the bound address (and localhost on loopback).")
    private List<String> allowHosts = List.of();

    @CommandLine.Option(
            names = "--allow-origin",
            paramLabel = "ORIGIN",
            description = "Let web pages of this origin (scheme://host[:port]) call the API, with CORS; repeatable. "
                    + "By default a request from any web page (it carries an Origin) is refused with 403.")
    private List<String> allowOrigins = List.of();

    @CommandLine.Option(
            names = "--max-connections",
            paramLabel = "N",
            defaultValue = "1024",
            description = "Connections open at once (default: ${DEFAULT-VALUE}); beyond, new ones wait to be accepted.")
    private int maxConnections;

    @CommandLine.Option(
            names = "--header-timeout",
            paramLabel = "SECONDS",
            defaultValue = "10",
            description = "How long a client may take to send a request's headers (default: ${DEFAULT-VALUE}); "
                    + "a slower one is disconnected.")
    private int headerTimeout;

    @CommandLine.Option(
            names = "--grace",
            paramLabel = "SECONDS",
            defaultValue = "10",
            description =
                    "On SIGTERM, how long active runs may take to reach a commit point (default: ${DEFAULT-VALUE}).")
    private int grace;

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
                    commandLine, "--var does not go with serve: each request brings its inputs");
        }
        if (maxRuns < 1 || maxRequests < 1 || maxConnections < 1 || headerTimeout < 1 || grace < 0) {
            throw new CommandLine.ParameterException(
                    commandLine,
                    "--max-runs, --max-requests, --max-connections and --header-timeout must be at least 1, "
                            + "--grace not negative");
        }
        ServerSettings settings;
        try {
            settings = ServerSettings.builder()
                    .bind(bind)
                    .port(port)
                    .token(token(commandLine))
                    .maxBodyBytes(maxBody)
                    .maxRequests(maxRequests)
                    .allowHosts(allowHosts)
                    .allowOrigins(allowOrigins)
                    .maxConnections(maxConnections)
                    .headerTimeout(Duration.ofSeconds(headerTimeout))
                    .shutdownGrace(Duration.ofSeconds(grace))
                    .build();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, e.getMessage());
        }
        Map<String, String> secrets = vmOptions.secrets(parent.environment(), commandLine);
        PlanVm vm = vmOptions.build(parent.environment(), secrets, commandLine);
        RunStore runs = store.open(parent.environment(), vm.redactor());
        PlanService service = new PlanService(
                vm,
                runs,
                ServiceSettings.DEFAULT
                        .withMaxActiveRuns(maxRuns)
                        .withUnavailableTools(vmOptions.loaded().unavailable()));
        PlanServer server;
        try {
            server = PlanServer.start(service, settings);
        } catch (IllegalArgumentException e) {
            close(service, runs, vm);
            throw new CommandLine.ParameterException(commandLine, e.getMessage());
        } catch (IOException e) {
            close(service, runs, vm);
            commandLine.getErr().println("planvm serve: cannot listen on " + bind + ":" + port + ": " + e.getMessage());
            return ExitCodes.RUNTIME_FAILURE;
        }
        int resuming = service.resumeInterrupted();
        int sleeping = service.wakeSleeping();
        PrintWriter err = commandLine.getErr();
        err.println("planvm serve: listening on " + server.url() + " (store " + runs.file()
                + (resuming > 0 ? "; resuming " + resuming + " interrupted runs" : "")
                + (sleeping > 0 ? "; " + sleeping + " sleeping runs wait for their timers" : "")
                + "); stop with Ctrl-C or SIGTERM");
        err.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            List<String> late = server.stop(settings.shutdownGrace());
                            err.println("planvm serve: stopped"
                                    + (late.isEmpty()
                                            ? ""
                                            : "; " + late.size()
                                                    + " runs were still in a step and are interrupted (a server started on this store resumes them): "
                                                    + String.join(", ", late)));
                            err.flush();
                            if (late.isEmpty()) {
                                close(service, runs, vm);
                            }
                            stopped.countDown();
                        },
                        "planvm-serve-stop"));
        stopped.await();
        return ExitCodes.OK;
    }

    private String token(CommandLine commandLine) {
        if (tokenFile == null) {
            return null;
        }
        try {
            String token = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
            if (token.length() < ServerSettings.MIN_TOKEN_LENGTH
                    || token.chars().anyMatch(Character::isWhitespace)) {
                throw new CommandLine.ParameterException(
                        commandLine,
                        "--token-file " + tokenFile + ": the token must be one word of at least "
                                + ServerSettings.MIN_TOKEN_LENGTH + " characters");
            }
            return token;
        } catch (IOException e) {
            throw new CommandLine.ParameterException(
                    commandLine, "--token-file " + tokenFile + ": cannot read it: " + e.getMessage());
        }
    }

    private static void close(PlanService service, RunStore runs, PlanVm vm) {
        service.close();
        runs.close();
        vm.close();
    }
}
