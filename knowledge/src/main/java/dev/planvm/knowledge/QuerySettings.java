package dev.planvm.knowledge;

import dev.planvm.knowledge.spi.KnowledgeException;

/**
 * How a knowledge base answers queries.
 *
 * @param defaultTopK       {@code vector_search}'s {@code top_k} when a call gives none
 * @param maxTopK           the largest {@code top_k} a call may ask for
 * @param tokenBudget       {@code vector_search} keeps the best chunks whose tokens add up to at most this (StackVM: 10,240)
 * @param fanout            HNSW candidates examined per search (at least {@code top_k}); more buys recall for time
 * @param graphSeeds        entities found by similarity before expanding
 * @param graphDepth        how many relationship hops the expansion follows (0: the seeds only)
 * @param graphMaxEntities  most entities in an answer
 * @param graphMaxRelationships most relationships in an answer
 * @param relationshipsPerEntity most relationships followed from one entity
 */
public record QuerySettings(
        int defaultTopK,
        int maxTopK,
        int tokenBudget,
        int fanout,
        int graphSeeds,
        int graphDepth,
        int graphMaxEntities,
        int graphMaxRelationships,
        int relationshipsPerEntity) {

    public static final int DEFAULT_TOKEN_BUDGET = 10_240;
    public static final int DEFAULT_FANOUT = 50;

    public QuerySettings {
        check(maxTopK >= 1 && maxTopK <= 1000, "the largest top_k must be 1 to 1000, not " + maxTopK);
        check(defaultTopK >= 1 && defaultTopK <= maxTopK, "top_k must be 1 to " + maxTopK + ", not " + defaultTopK);
        check(tokenBudget >= 1, "the token budget must be positive, not " + tokenBudget);
        check(fanout >= 1 && fanout <= 10_000, "the HNSW fan-out must be 1 to 10000, not " + fanout);
        check(graphSeeds >= 1 && graphSeeds <= 100, "the graph seeds must be 1 to 100, not " + graphSeeds);
        check(graphDepth >= 0 && graphDepth <= 5, "graph_depth must be 0 to 5, not " + graphDepth);
        check(
                graphMaxEntities >= 1 && graphMaxEntities <= 1000,
                "the graph entity limit must be 1 to 1000, not " + graphMaxEntities);
        check(
                graphMaxRelationships >= 0 && graphMaxRelationships <= 5000,
                "the graph relationship limit must be 0 to 5000, not " + graphMaxRelationships);
        check(
                relationshipsPerEntity >= 1 && relationshipsPerEntity <= 1000,
                "the relationships per entity must be 1 to 1000, not " + relationshipsPerEntity);
    }

    /** top_k 10 (at most 100), token budget 10,240, fan-out 50; graph: 5 seeds, depth 2, at most 50 entities, 100 relationships, 20 per entity. */
    public static QuerySettings defaults() {
        return new QuerySettings(10, 100, DEFAULT_TOKEN_BUDGET, DEFAULT_FANOUT, 5, 2, 50, 100, 20);
    }

    public QuerySettings withTopK(int topK) {
        return new QuerySettings(
                topK,
                maxTopK,
                tokenBudget,
                fanout,
                graphSeeds,
                graphDepth,
                graphMaxEntities,
                graphMaxRelationships,
                relationshipsPerEntity);
    }

    public QuerySettings withTokenBudget(int budget) {
        return new QuerySettings(
                defaultTopK,
                maxTopK,
                budget,
                fanout,
                graphSeeds,
                graphDepth,
                graphMaxEntities,
                graphMaxRelationships,
                relationshipsPerEntity);
    }

    public QuerySettings withFanout(int candidates) {
        return new QuerySettings(
                defaultTopK,
                maxTopK,
                tokenBudget,
                candidates,
                graphSeeds,
                graphDepth,
                graphMaxEntities,
                graphMaxRelationships,
                relationshipsPerEntity);
    }

    public QuerySettings withGraph(int seeds, int depth, int maxEntities, int maxRelationships) {
        return new QuerySettings(
                defaultTopK,
                maxTopK,
                tokenBudget,
                fanout,
                seeds,
                depth,
                maxEntities,
                maxRelationships,
                relationshipsPerEntity);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new KnowledgeException(message);
        }
    }
}
