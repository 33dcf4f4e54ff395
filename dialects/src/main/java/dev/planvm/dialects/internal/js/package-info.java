/**
 * The JavaScript-subset dialect: its parser and header, then the shared back end of {@code dialects.internal}.
 * Not API: reach it through {@link dev.planvm.dialects.DialectCompiler} ({@code Dialect.JS}).
 */
package dev.planvm.dialects.internal.js;
