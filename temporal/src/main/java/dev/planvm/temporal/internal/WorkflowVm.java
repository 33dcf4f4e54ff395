package dev.planvm.temporal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.temporal.contract.CallSettings;
import dev.planvm.temporal.contract.RetrySpec;
import dev.planvm.temporal.contract.RunSettings;
import dev.planvm.temporal.contract.ToolCatalog;
import dev.planvm.temporal.contract.ToolInfo;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@link PlanVm} a plan workflow runs: the tools the workers of its task queues hold (as
 * descriptions: every call goes out through {@link RemoteCalls} before reaching them), the
 * workflow's {@link TemporalScheduler}, and the run's settings. Retries are the activities'
 * (the in-workflow retry link makes one attempt); the tool policy is checked in the workflow,
 * before any activity is scheduled. The built-in {@code sleep} runs in the workflow, as a workflow timer
 * ({@code Workflow.sleep}) on the workflow's clock; {@code human_input} waits, durably, for the workflow's
 * {@code answer} update ({@link WorkflowInputs}: its validator refuses an answer that does not fit the input, and
 * the workflow keeps waiting), and the accepted answer is the call's output.
 */
final class WorkflowVm {

    private WorkflowVm() {}

    /**
     * The VM of one workflow run; plan tools' calls run as child workflows ({@code children}), chains of them at
     * most {@code maxPlanDepth} deep ({@code null}: the default).
     *
     * @param catalogs the tools of each task queue (the deployment's own first)
     * @param person    who answers the run's {@code human_input} calls
     * @param telemetry where the run's spans go ({@link TemporalSpans#forWorkflow}), or {@code null}: none
     * @throws dev.planvm.vm.plantools.PlanToolsException when the plan tools do not go together
     */
    static PlanVm build(
            Deployment deployment,
            Map<String, ToolCatalog> catalogs,
            RunSettings settings,
            WorkflowInputs person,
            io.opentelemetry.api.OpenTelemetry telemetry,
            java.util.List<dev.planvm.instructions.Plan> planTools,
            Integer maxPlanDepth,
            dev.planvm.vm.plantools.ChildRunner children) {
        Map<String, ToolInfo> tools = toolsByName(deployment, catalogs);
        PlanVmBuilder builder = PlanVm.builder()
                .callInterceptor(new RemoteCalls(deployment, call -> settingsOf(call, settings, tools)))
                .callScheduler(TemporalScheduler::new)
                .clock(new WorkflowClock())
                .retrySleeper(io.temporal.workflow.Workflow::sleep) // the built-in sleep: a durable workflow timer
                .retryPolicy(RetryPolicy.NONE)
                .toolPolicy(ToolPolicy.of(settings.allowTools(), settings.denyTools()))
                .sequential(settings.sequential())
                .maxInFlightPerRun(settings.maxInFlight())
                .maxSteps(settings.maxSteps())
                .strict(settings.strict())
                .runLimits(settings.limits())
                .approvals(person);
        if (telemetry != null) {
            builder.openTelemetry(telemetry);
        }
        tools.values().forEach(info -> builder.tool(new Described(info)));
        if (!planTools.isEmpty()) {
            builder.planTools(planTools).childRunner(children);
            if (maxPlanDepth != null) {
                builder.maxPlanDepth(maxPlanDepth);
            }
        }
        ToolCatalog conditions = catalogs.get(deployment.conditionQueue());
        if (conditions != null && conditions.conditions()) {
            builder.conditionEvaluator(NOT_HERE);
        }
        String llm = dev.planvm.vm.PlanVm.LLM_TOOL;
        ToolCatalog llmQueue = catalogs.get(deployment.queueOf(llm));
        String why = llmQueue == null ? null : llmQueue.unavailable().get(llm);
        builder.llmUnavailable("the workers of task queue '" + deployment.conditionQueue() + "' have no LLM"
                + (why == null ? ": start them with OPENAI_API_KEY or OPENAI_BASE_URL set" : " (" + why + ")"));
        return builder.build();
    }

    /** Each tool as the queue its calls go to describes it. */
    private static Map<String, ToolInfo> toolsByName(Deployment deployment, Map<String, ToolCatalog> catalogs) {
        Map<String, ToolInfo> tools = new LinkedHashMap<>();
        catalogs.forEach((queue, catalog) -> catalog.tools().forEach(tool -> {
            if (deployment.queueOf(tool.name()).equals(queue)) {
                tools.putIfAbsent(tool.name(), tool);
            }
        }));
        return tools;
    }

    /** The call's retry policy and timeout: the run's per-tool settings, else the tool's own, else the run's defaults. */
    static CallSettings settingsOf(Call call, RunSettings settings, Map<String, ToolInfo> tools) {
        RetryPolicy retry = settings.retry().policy();
        Duration timeout = settings.timeoutMs() == null ? null : Duration.ofMillis(settings.timeoutMs());
        if (call instanceof Call.ToolCall toolCall) {
            String name = toolCall.tool();
            ToolInfo info = tools.get(name);
            RetrySpec own = settings.toolRetries().get(name);
            if (own != null) {
                retry = own.policy();
            } else if (info != null && info.maxAttempts() != null) {
                retry = retry.withMaxAttempts(info.maxAttempts());
            }
            Long ownTimeout = settings.toolTimeoutsMs().get(name);
            if (ownTimeout == null && info != null) {
                ownTimeout = info.timeoutMs();
            }
            if (ownTimeout != null) {
                timeout = ownTimeout == 0 ? null : Duration.ofMillis(ownTimeout);
            }
        }
        return CallSettings.of(retry, timeout, Duration.ofMillis(settings.maxRetryAfterMs()));
    }

    /** Conditions are decided by activities: this evaluator only says one is there. */
    private static final ConditionEvaluator NOT_HERE = (prompt, context, call) -> {
        throw ToolException.permanent("conditions are decided by activities, not in the workflow");
    };

    /** A tool a worker holds, as the workflow knows it: every call to it is answered by an activity first. */
    private record Described(ToolInfo info) implements Tool {
        @Override
        public String name() {
            return info.name();
        }

        @Override
        public String description() {
            return info.description();
        }

        @Override
        public boolean hasSideEffects() {
            return info.sideEffects();
        }

        @Override
        public JsonNode invoke(JsonNode params, CallContext context) {
            throw ToolException.permanent("tool '" + info.name() + "' runs on a worker, not in the workflow");
        }
    }
}
