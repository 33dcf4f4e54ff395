/**
 * The YAML dataflow dialect: safe YAML reading, {@code ${...}} repair and the plan's structure, then the shared
 * back end of {@code dialects.internal}. Not API: reach it through {@link dev.planvm.dialects.DialectCompiler}
 * ({@code Dialect.YAML}).
 */
package dev.planvm.dialects.internal.yaml;
