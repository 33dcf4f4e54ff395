package dev.planvm.tools;

/** One form a secret may take in a text (at least {@link Redactor#MIN_LENGTH} characters), and its placeholder. */
record Form(String text, String placeholder) {}
