package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.api.ForwardingObjectHooks;
import dev.berth.manager.api.ObjectHooks;
import dev.berth.manager.api.ObjectService;
import dev.berth.manager.api.ResourcePath;
import dev.berth.manager.api.ResourceType;
import dev.berth.manager.core.QueueStatus;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.KueueApi;
import java.util.function.Predicate;

/**
 * Kueue's {@code kueue.x-k8s.io/resource-in-use} finalizer: a ResourceFlavor or AdmissionCheck that a
 * ClusterQueue names, or a ClusterQueue that still has workloads holding quota, is not deleted at once.
 * The delete marks it (deletionTimestamp, the finalizer) and {@link #releaseFreed} deletes it once it
 * is free. Kueue adds the finalizer when the object is created; Berth adds it only when a delete has
 * to wait, so a free object is deleted at once either way.
 */
final class ResourceInUse {
    static final String FINALIZER = KueueApi.RESOURCE_IN_USE_FINALIZER;

    private final ManagerState state;

    ResourceInUse(ManagerState state) {
        this.state = state;
    }

    /** The hooks of a kind, with its deletion held while {@code inUse} says the object is used. */
    static ObjectHooks holding(ObjectHooks hooks, Predicate<StoredObject> inUse) {
        return new ForwardingObjectHooks(hooks) {
            @Override
            public String finalizerHoldingDeletion(StoredObject existing) {
                return inUse.test(existing) ? FINALIZER : null;
            }
        };
    }

    boolean flavorInUse(StoredObject flavor) {
        String name = flavor.key().name();
        return anyClusterQueue(queue -> {
            for (JsonNode group : queue.path("spec").path("resourceGroups")) {
                for (JsonNode named : group.path("flavors")) if (name.equals(named.path("name").asText())) return true;
            }
            return false;
        });
    }

    boolean admissionCheckInUse(StoredObject check) {
        String name = check.key().name();
        return anyClusterQueue(queue -> {
            for (JsonNode named : queue.path("spec").path("admissionChecksStrategy").path("admissionChecks")) {
                if (name.equals(named.path("name").asText())) return true;
            }
            return false;
        });
    }

    /** Kueue keeps a ClusterQueue while workloads still hold quota in it (reserved or admitted). */
    boolean clusterQueueInUse(StoredObject queue) {
        QueueStatus status = state.controller.clusterQueueStatus(queue.key().name());
        return status != null && status.reservingWorkloads() > 0;
    }

    private boolean anyClusterQueue(Predicate<JsonNode> names) {
        for (StoredObject queue : state.store.list(Resources.CLUSTER_QUEUES.resource(), null)) {
            if (names.test(queue.object())) return true;
        }
        return false;
    }

    /** Deletes every held object that is free now (on the state thread, from housekeeping). */
    void releaseFreed(ObjectService service) {
        release(service, Resources.CLUSTER_QUEUES, this::clusterQueueInUse);
        release(service, Resources.RESOURCE_FLAVORS, this::flavorInUse);
        release(service, Resources.ADMISSION_CHECKS, this::admissionCheckInUse);
    }

    private void release(ObjectService service, ResourceType type, Predicate<StoredObject> inUse) {
        for (StoredObject object : state.store.list(type.resource(), null)) {
            if (!held(object.object()) || inUse.test(object)) continue;
            try {
                service.delete(ResourcePath.collection(type, KueueApi.V1BETA2, null).named(object.key().name()));
            } catch (RuntimeException goneMeanwhile) {
                // deleted by a client meanwhile; the next sweep sees the store as it is
            }
        }
    }

    private static boolean held(JsonNode object) {
        JsonNode metadata = object.path("metadata");
        if (!metadata.has("deletionTimestamp")) return false;
        for (JsonNode name : metadata.path("finalizers")) if (FINALIZER.equals(name.asText())) return true;
        return false;
    }
}
