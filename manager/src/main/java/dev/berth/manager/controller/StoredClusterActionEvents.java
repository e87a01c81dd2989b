package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.events.EventRecorder;
import dev.berth.manager.events.WorkloadEvent;
import dev.berth.protocol.Events;
import dev.berth.protocol.KueueApi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records cluster actions and losses as core/v1 Events about the MultiKueueCluster, in the events
 * store, so {@code kubectl describe multikueuecluster} and {@code kubectl get events} show them. The
 * MultiKueueCluster is cluster-scoped: as for Nodes, its events live in namespace "default" and the
 * involvedObject carries no namespace. Also logs each one. On the state thread only.
 */
final class StoredClusterActionEvents implements ClusterActionEvents {
    private static final Logger log = LoggerFactory.getLogger(StoredClusterActionEvents.class);

    private final ManagerState state;
    private final EventRecorder recorder;

    StoredClusterActionEvents(ManagerState state, EventRecorder recorder) {
        this.state = state;
        this.recorder = recorder;
    }

    @Override
    public void record(String cluster, String reason, String message) {
        store(cluster, Events.NORMAL, reason, message);
    }

    @Override
    public void warning(String cluster, String reason, String message) {
        store(cluster, Events.WARNING, reason, message);
    }

    private void store(String cluster, String type, String reason, String message) {
        ClusterActionEvents.LOGGING.record(cluster, reason, message);
        String uid = state.find(Resources.MULTIKUEUE_CLUSTERS.resource(), null, cluster)
                .map(object -> object.path("metadata").path("uid")).map(JsonNode::asText).orElse("");
        try {
            recorder.record(new EventRecorder.InvolvedObject(KueueApi.API_VERSION, KueueApi.MULTIKUEUE_CLUSTER, null, cluster,
                    uid.isEmpty() ? KueueApi.MULTIKUEUE_CLUSTER + "/" + cluster : uid), new WorkloadEvent(type, reason, message));
        } catch (RuntimeException e) {
            log.atWarn().addKeyValue("cluster", cluster).addKeyValue("reason", reason).log("cluster event not stored: " + e.getMessage());
        }
    }
}
