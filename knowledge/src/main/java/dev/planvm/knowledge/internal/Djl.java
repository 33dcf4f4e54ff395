package dev.planvm.knowledge.internal;

/**
 * DJL, under langchain4j's in-process model and the tokenizer, reports usage to its makers when it runs on
 * EC2 (it asks the instance metadata service, then a telemetry endpoint) unless told not to. A knowledge
 * base is built and queried with no network, so before DJL is first used this turns that off (offline
 * mode, tracking opted out), unless the user already decided otherwise through the same properties or
 * the {@code DJL_OFFLINE} / {@code OPT_OUT_TRACKING} environment variables.
 */
final class Djl {

    private Djl() {}

    static void offline() {
        if (System.getProperty("ai.djl.offline") == null && System.getenv("DJL_OFFLINE") == null) {
            System.setProperty("ai.djl.offline", "true");
        }
        if (System.getProperty("OPT_OUT_TRACKING") == null && System.getenv("OPT_OUT_TRACKING") == null) {
            System.setProperty("OPT_OUT_TRACKING", "true");
        }
    }
}
