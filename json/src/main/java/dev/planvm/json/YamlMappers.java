package dev.planvm.json;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * {@link JsonMappers} for YAML documents read as JSON trees (OpenAPI documents). Needs
 * {@code jackson-dataformat-yaml} on the class path (an optional dependency of this module: only the
 * modules that read YAML this way bring it).
 */
public final class YamlMappers {

    private YamlMappers() {}

    /**
     * A mapper reading YAML within {@code limits} (its depth also bounds SnakeYAML's own parse; a
     * duplicate key is refused when the limits say so), at most {@code maxCodePoints} characters and
     * {@code maxAliases} aliases (so that a "billion laughs" document stays small). Build it once and
     * keep it: it is thread-safe.
     */
    public static ObjectMapper mapper(JsonLimits limits, int maxCodePoints, int maxAliases) {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(maxCodePoints);
        options.setMaxAliasesForCollections(maxAliases);
        options.setNestingDepthLimit(limits.maxDepth());
        options.setAllowDuplicateKeys(!limits.noDuplicateKeys());
        return new ObjectMapper(YAMLFactory.builder()
                .loaderOptions(options)
                .streamReadConstraints(limits.constraints())
                .configure(StreamReadFeature.STRICT_DUPLICATE_DETECTION, limits.noDuplicateKeys())
                .build());
    }
}
