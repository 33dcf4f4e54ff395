package dev.planvm.tools.config;

import dev.planvm.tools.Tool;

/**
 * A second name for a tool, e.g. the bare name {@code read_file} of the MCP tool {@code fs:read_file}.
 * A provider returns aliases beside the tools they stand for; the loader keeps an alias only while
 * no other tool has its name (see {@link LoadedTools#aliases()}), and permissions are decided on the
 * full name it stands for ({@link LoadedTools#tools(dev.planvm.tools.ToolPolicy)}).
 */
public interface ToolAlias extends Tool {

    /** The full name of the tool this alias calls. */
    String aliasOf();
}
