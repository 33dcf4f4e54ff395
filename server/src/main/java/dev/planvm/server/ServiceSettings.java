package dev.planvm.server;

import java.util.Map;
import java.util.Objects;

/**
 * How a {@link PlanService} bounds its work.
 *
 * @param maxActiveRuns      runs that may execute at once; a request for more is refused as busy (HTTP 429)
 * @param eventLogCapacity   events kept in memory per running run (older committed steps are rebuilt from the store)
 * @param finishedLogsKept   event logs of finished runs kept in memory, their last 500 events each (the rest are
 *                           rebuilt from the store)
 * @param planCacheEntries   loaded plans kept by their text, so a plan sent again is not validated again
 * @param unavailableTools   tools the configuration declares but cannot offer, name to why ({@code GET /v1/tools})
 * @param origin             what the service writes as the origin of the runs it starts; it resumes on start
 *                           only interrupted runs of this origin
 */
public record ServiceSettings(
        int maxActiveRuns,
        int eventLogCapacity,
        int finishedLogsKept,
        int planCacheEntries,
        Map<String, String> unavailableTools,
        String origin) {

    /** 64 runs at once, 2,000 events per run (500 once it ended), 128 finished logs, 512 cached plans, origin {@code serve}. */
    public static final ServiceSettings DEFAULT = new ServiceSettings(64, 2_000, 128, 512, Map.of(), "serve");

    public ServiceSettings {
        if (maxActiveRuns < 1 || eventLogCapacity < 10 || finishedLogsKept < 0 || planCacheEntries < 0) {
            throw new IllegalArgumentException("service limits must be positive");
        }
        unavailableTools = Map.copyOf(unavailableTools);
        Objects.requireNonNull(origin, "origin");
    }

    public ServiceSettings withMaxActiveRuns(int value) {
        return new ServiceSettings(
                value, eventLogCapacity, finishedLogsKept, planCacheEntries, unavailableTools, origin);
    }

    public ServiceSettings withEventLogCapacity(int value) {
        return new ServiceSettings(maxActiveRuns, value, finishedLogsKept, planCacheEntries, unavailableTools, origin);
    }

    public ServiceSettings withUnavailableTools(Map<String, String> value) {
        return new ServiceSettings(maxActiveRuns, eventLogCapacity, finishedLogsKept, planCacheEntries, value, origin);
    }

    public ServiceSettings withOrigin(String value) {
        return new ServiceSettings(
                maxActiveRuns, eventLogCapacity, finishedLogsKept, planCacheEntries, unavailableTools, value);
    }
}
