package dev.berth.agent;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pass's step: whatever the agent created for a RemoteWorkload that is gone, or for an attempt it no longer runs, is
 * deleted, by name from the pass's listing ({@link AttemptObjects#deleteListed}, with the listed resourceVersion).
 */
final class OrphanedAttempts {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteWorkloadReconciler.class);

    private final AttemptObjects objects;
    private final String cluster;

    OrphanedAttempts(AttemptObjects objects, String cluster) {
        this.objects = objects;
        this.cluster = cluster;
    }

    /**
     * @param current         the attempts of the RemoteWorkloads in scope, as "namespace/attemptId"
     * @param ownersByAttempt the listed objects of each attempt
     * @param podsByAttempt   the listed pods of each attempt
     */
    void remove(Set<String> current, Map<String, List<Map<String, Object>>> ownersByAttempt, Map<String, List<Pod>> podsByAttempt) {
        Map<String, List<Map<String, Object>>> orphanOwners = new TreeMap<>();
        Map<String, List<Pod>> orphanPods = new TreeMap<>();
        ownersByAttempt.forEach((attempt, owners) -> owners.forEach(o -> {
            String key = TemplatePods.map(o, "metadata").orElse(Map.of()).get("namespace") + "/" + attempt;
            if (!current.contains(key)) orphanOwners.computeIfAbsent(key, k -> new ArrayList<>()).add(o);
        }));
        podsByAttempt.forEach((attempt, pods) -> pods.forEach(p -> {
            String key = p.getMetadata().getNamespace() + "/" + attempt;
            if (!current.contains(key)) orphanPods.computeIfAbsent(key, k -> new ArrayList<>()).add(p);
        }));
        Set<String> orphans = new TreeSet<>(orphanOwners.keySet());
        orphans.addAll(orphanPods.keySet());
        for (String key : orphans) {
            LOG.atInfo().addKeyValue("cluster", cluster).addKeyValue("namespace", key.substring(0, key.indexOf('/')))
                    .addKeyValue("attempt", key.substring(key.indexOf('/') + 1)).log("deleting objects of a removed attempt");
            objects.deleteListed(orphanOwners.getOrDefault(key, List.of()), orphanPods.getOrDefault(key, List.of()));
        }
    }
}
