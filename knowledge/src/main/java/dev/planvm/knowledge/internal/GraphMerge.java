package dev.planvm.knowledge.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Merges the per-chunk extractions into one graph. Entities with the same normalised name (Unicode NFKC,
 * lower case, every run of characters other than letters and digits made one space) are one entity: its
 * name is the most frequent spelling (on a tie, one with capitals before an all-lower-case one, then the
 * first seen), its type the most frequent, its description the distinct descriptions joined (up to
 * {@value #MAX_DESCRIPTION} characters). A relationship joins the entities its endpoint names resolve to,
 * across chunks; one whose endpoint names no entity is dropped (and counted), as is one from an entity to
 * itself. Ids are stable: derived from the normalised name.
 */
public final class GraphMerge {

    static final int MAX_DESCRIPTION = 2000;
    private static final int MAX_CHUNKS_PER_ENTITY = 20;
    private static final int MAX_DESCRIPTIONS_PER_PAIR = 5;

    private GraphMerge() {}

    /** A merged entity. */
    public record Entity(long id, String name, String type, String description, List<String> chunkIds) {}

    /** A merged relationship between entity ids. */
    public record Relationship(long sourceId, long targetId, String description) {}

    /** The merged graph; {@code dropped} counts relationships whose endpoints named no entity. */
    public record Graph(List<Entity> entities, List<Relationship> relationships, int dropped) {}

    /** Merges extractions, given as chunk id to extraction, in the order given. */
    public static Graph merge(List<Map.Entry<String, Extraction>> extractions) {
        Map<String, Builder> byKey = new LinkedHashMap<>();
        for (Map.Entry<String, Extraction> entry : extractions) {
            for (Extraction.Entity entity : entry.getValue().entities()) {
                String key = normalise(entity.name());
                if (!key.isEmpty()) {
                    byKey.computeIfAbsent(key, k -> new Builder(k)).add(entity, entry.getKey());
                }
            }
        }
        Map<String, Set<String>> pairDescriptions = new LinkedHashMap<>();
        int dropped = 0;
        for (Map.Entry<String, Extraction> entry : extractions) {
            for (Extraction.Relationship relationship : entry.getValue().relationships()) {
                Builder source = byKey.get(normalise(relationship.source()));
                Builder target = byKey.get(normalise(relationship.target()));
                if (source == null || target == null) {
                    dropped++;
                    continue;
                }
                if (source == target) {
                    continue;
                }
                Set<String> descriptions =
                        pairDescriptions.computeIfAbsent(source.id + ">" + target.id, k -> new LinkedHashSet<>());
                if (descriptions.size() < MAX_DESCRIPTIONS_PER_PAIR) {
                    descriptions.add(relationship.description());
                }
            }
        }
        List<Entity> entities = new ArrayList<>(byKey.size());
        for (Builder builder : byKey.values()) {
            entities.add(builder.build());
        }
        List<Relationship> relationships = new ArrayList<>();
        pairDescriptions.forEach((pair, descriptions) -> {
            int arrow = pair.indexOf('>');
            long source = Long.parseLong(pair.substring(0, arrow));
            long target = Long.parseLong(pair.substring(arrow + 1));
            for (String description : descriptions) {
                relationships.add(new Relationship(source, target, description));
            }
        });
        return new Graph(entities, relationships, dropped);
    }

    /** The name entities are merged by. */
    public static String normalise(String name) {
        String folded = Normalizer.normalize(name, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        return folded.replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
    }

    /** A stable positive id (below 2^48, exact in JSON numbers) for a normalised name. */
    static long idOf(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            long id = 0;
            for (int i = 0; i < 6; i++) {
                id = (id << 8) | (digest[i] & 0xff);
            }
            return id == 0 ? 1 : id;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final class Builder {
        final long id;
        final Map<String, Integer> spellings = new LinkedHashMap<>();
        final Map<String, Integer> types = new HashMap<>();
        final List<String> typeOrder = new ArrayList<>();
        final Map<String, String> descriptions = new LinkedHashMap<>();
        final Set<String> chunkIds = new LinkedHashSet<>();

        Builder(String key) {
            this.id = idOf(key);
        }

        void add(Extraction.Entity entity, String chunkId) {
            spellings.merge(entity.name().strip(), 1, Integer::sum);
            if (!entity.type().isBlank()) {
                String type = entity.type().strip();
                if (types.merge(type, 1, Integer::sum) == 1) {
                    typeOrder.add(type);
                }
            }
            if (!entity.description().isBlank()) {
                descriptions.putIfAbsent(
                        normalise(entity.description()), entity.description().strip());
            }
            if (chunkIds.size() < MAX_CHUNKS_PER_ENTITY) {
                chunkIds.add(chunkId);
            }
        }

        Entity build() {
            String type = "";
            int best = 0;
            for (String candidate : typeOrder) {
                if (types.get(candidate) > best) {
                    best = types.get(candidate);
                    type = candidate;
                }
            }
            StringBuilder description = new StringBuilder();
            for (String text : descriptions.values()) {
                String piece = text.endsWith(".") || text.endsWith("!") || text.endsWith("?") ? text : text + ".";
                if (description.length() + piece.length() + 1 > MAX_DESCRIPTION) {
                    break;
                }
                if (description.length() > 0) {
                    description.append(' ');
                }
                description.append(piece);
            }
            String name = null;
            for (Map.Entry<String, Integer> spelling : spellings.entrySet()) {
                if (name == null
                        || spelling.getValue() > spellings.get(name)
                        || (spelling.getValue().equals(spellings.get(name))
                                && name.equals(name.toLowerCase(Locale.ROOT))
                                && !spelling.getKey().equals(spelling.getKey().toLowerCase(Locale.ROOT)))) {
                    name = spelling.getKey();
                }
            }
            return new Entity(id, name, type, description.toString(), List.copyOf(chunkIds));
        }
    }
}
