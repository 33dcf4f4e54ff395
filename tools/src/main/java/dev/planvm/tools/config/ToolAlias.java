package dev.planvm.tools.config;

import dev.planvm.tools.Tool;

/**
 * A second name for a tool: the bare name of a {@code prefix:name} tool, e.g. {@code read_file} for the
 * MCP tool {@code fs:read_file}. A provider returns aliases beside the tools they stand for; the loader
 * keeps an alias only while no other tool has its name (see {@link LoadedTools#aliases()}). Every rule
 * (approval, permission, limits, retries, timeouts) matches the full name it stands for, its
 * {@link #canonicalName()}.
 */
public interface ToolAlias extends Tool {

    /** The full name of the tool this alias calls: {@code prefix:} followed by this alias's name. */
    String aliasOf();

    /** The full name this alias stands for ({@link #aliasOf()}). */
    @Override
    default String canonicalName() {
        return aliasOf();
    }
}
