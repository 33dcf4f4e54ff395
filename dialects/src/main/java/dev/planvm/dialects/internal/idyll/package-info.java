/**
 * Idyll documents (seed 003, the Idyllic document engine): XML documents whose {@code <fncall>} blocks
 * run in document order, compiled to a plan that records each block's result or error and goes on, and
 * whose final answer is the engine's execution report. Custom functions ({@code <function>} /
 * {@code <tool>} definitions) are expanded where a block calls them and compiled to plan tools for
 * plans. Not API: reach it through {@link dev.planvm.dialects.DialectCompiler} ({@code Dialect.IDYLL})
 * and {@link dev.planvm.dialects.IdyllDocuments}.
 */
package dev.planvm.dialects.internal.idyll;
