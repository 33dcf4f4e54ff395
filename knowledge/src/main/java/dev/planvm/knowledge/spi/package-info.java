/**
 * The types the knowledge API and its implementation share: what a user plugs in
 * ({@link dev.planvm.knowledge.spi.Embedder}, {@link dev.planvm.knowledge.spi.LlmJson},
 * {@link dev.planvm.knowledge.spi.IndexListener}, {@link dev.planvm.knowledge.spi.EmbeddingEndpoint})
 * and what comes back ({@link dev.planvm.knowledge.spi.ChunkHit}, {@link dev.planvm.knowledge.spi.GraphAnswer},
 * {@link dev.planvm.knowledge.spi.IndexReport}, {@link dev.planvm.knowledge.spi.KnowledgeException}).
 * Nothing here depends on the rest of the module.
 */
package dev.planvm.knowledge.spi;
