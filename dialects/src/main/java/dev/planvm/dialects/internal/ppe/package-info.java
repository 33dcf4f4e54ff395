/**
 * PPE prompt scripts ({@code .ai.yaml}): front matter, directives, templates and control flow compiled to a
 * plan, with the YAML dialect's reader. Not API: reach it through {@link dev.planvm.dialects.DialectCompiler}
 * ({@code Dialect.PPE}).
 */
package dev.planvm.dialects.internal.ppe;
