package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.Topology;
import dev.berth.protocol.TopologyApi;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Decodes a Kueue Topology with the rules of its CRD: spec.levels has 1 to 16 items, each a node
 * label key (at most 316 characters), unique, kubernetes.io/hostname only as the lowest level, and the
 * levels change only while kubernetes.io/hostname is the lowest level both before and after.
 */
public final class TopologyDecoder {
    static final int MAX_LABEL_LENGTH = 316;
    static final String UNIQUE = "must be unique";
    static final String HOSTNAME_LOWEST = "the kubernetes.io/hostname label can only be used at the lowest level of topology";
    static final String IMMUTABLE = "levels are mutable only when kubernetes.io/hostname is the lowest level both before and after the change";

    private TopologyDecoder() {}

    public static Topology decode(ObjectNode object) {
        return decode(object, Optional.empty());
    }

    /** Decodes, and with the stored object checks that the levels changed only as Kueue allows. */
    public static Topology decode(ObjectNode object, Optional<ObjectNode> existing) {
        List<FieldCause> causes = new ArrayList<>();
        FieldReader root = FieldReader.root(object, causes);
        String name = ObjectNames.readName(root);
        FieldReader levelsField = root.field("spec").object().field("levels");
        List<String> levels = new ArrayList<>();
        if (levelsField.isAbsent() || (levelsField.node().isArray() && levelsField.node().isEmpty())) {
            levelsField.required();
        } else {
            levelsField.checkMaxItems(TopologyApi.MAX_LEVELS);
            for (FieldReader item : levelsField.items()) {
                FieldReader label = item.object().field("nodeLabel");
                String key = label.requiredText();
                if (key == null) continue;
                if (key.length() > MAX_LABEL_LENGTH) {
                    label.invalid("may not be more than " + MAX_LABEL_LENGTH + " bytes");
                } else {
                    LabelSyntax.validateKey(label.path(), key, causes);
                }
                levels.add(key);
            }
            rules(levelsField, levels, existing);
        }
        root.throwIfInvalid(TopologyApi.KIND, name);
        return new Topology(name, levels);
    }

    private static void rules(FieldReader levelsField, List<String> levels, Optional<ObjectNode> existing) {
        Set<String> seen = new HashSet<>();
        if (levels.stream().anyMatch(level -> !seen.add(level))) levelsField.invalid(UNIQUE);
        int hostname = levels.indexOf(TopologyApi.HOSTNAME_LABEL);
        if (hostname >= 0 && hostname != levels.size() - 1) levelsField.invalid(HOSTNAME_LOWEST);
        if (existing.isEmpty()) return;
        List<String> before = levels(existing.get());
        if (before.equals(levels)) return;
        boolean hostnameLowest = !levels.isEmpty() && TopologyApi.HOSTNAME_LABEL.equals(levels.get(levels.size() - 1))
                && !before.isEmpty() && TopologyApi.HOSTNAME_LABEL.equals(before.get(before.size() - 1));
        if (!hostnameLowest) levelsField.invalid(IMMUTABLE);
    }

    /** The level label keys of a stored Topology, without validating. */
    public static List<String> levels(ObjectNode topology) {
        List<String> levels = new ArrayList<>();
        for (JsonNode level : topology.path("spec").path("levels")) levels.add(level.path("nodeLabel").asText());
        return levels;
    }
}
