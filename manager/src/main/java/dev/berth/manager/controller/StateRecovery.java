package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.objects.AdmissionCheckDecoder;
import dev.berth.manager.objects.ClusterQueueDecoder;
import dev.berth.manager.objects.CohortDecoder;
import dev.berth.manager.objects.InvalidObjectException;
import dev.berth.manager.objects.LocalQueueDecoder;
import dev.berth.manager.objects.NamespaceDecoder;
import dev.berth.manager.objects.ResourceFlavorDecoder;
import dev.berth.manager.objects.StatusJson;
import dev.berth.manager.objects.WorkloadDecoder;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the controller from the durable store after a restart: queue objects first, then every
 * workload with the status it had, so admitted workloads keep their quota instead of queueing again.
 */
final class StateRecovery {
    private static final Logger log = LoggerFactory.getLogger(StateRecovery.class);

    private StateRecovery() {}

    static List<StoredObject> recover(ObjectStore store, AdmissionController controller) {
        return recover(store, controller, dev.berth.manager.objects.WorkloadResourcePolicy.NONE);
    }

    /**
     * As {@link #recover(ObjectStore, AdmissionController)}, pending workloads' requests counted as {@code resources} says.
     * Returns the stored workloads it listed, so the dispatcher recovers its attempts from the same listing instead of
     * reading every workload a second time while a new leader takes office.
     */
    static List<StoredObject> recover(ObjectStore store, AdmissionController controller, dev.berth.manager.objects.WorkloadResourcePolicy resources) {
        List<StoredObject> listed = rebuild(store, controller, resources);
        log.atInfo().addKeyValue("workloads", listed.size()).addKeyValue("revision", store.revision()).log("state recovered from the store");
        return listed;
    }

    /** As {@link #recover}, without its log line (a follower's {@link TakeoverRehearsal}). */
    static List<StoredObject> rebuild(ObjectStore store, AdmissionController controller, dev.berth.manager.objects.WorkloadResourcePolicy resources) {
        for (StoredObject o : store.list(Resources.TOPOLOGIES.resource(), null)) controller.applyTopology(o.key().name());
        for (StoredObject o : store.list(Resources.RESOURCE_FLAVORS.resource(), null)) controller.applyResourceFlavor(ResourceFlavorDecoder.decode(o.object()));
        for (StoredObject o : store.list(Resources.COHORTS.resource(), null)) controller.applyCohort(CohortDecoder.decode(o.object()));
        for (StoredObject o : store.list(Resources.CLUSTER_QUEUES.resource(), null)) controller.applyClusterQueue(ClusterQueueDecoder.decode(o.object()));
        for (StoredObject o : store.list(Resources.LOCAL_QUEUES.resource(), null)) controller.applyLocalQueue(LocalQueueDecoder.decode(o.object()));
        for (StoredObject o : store.list(Resources.NAMESPACES.resource(), null)) {
            controller.applyNamespace(o.key().name(), NamespaceDecoder.labels(o.object()));
        }
        for (StoredObject o : store.list(Resources.ADMISSION_CHECKS.resource(), null)) {
            controller.applyAdmissionCheck(AdmissionCheckDecoder.decode(o.object()).name(), true);
        }
        List<StoredObject> listed = store.list(Resources.WORKLOADS.resource(), null);
        for (StoredObject o : listed) {
            ObjectNode workload = o.object();
            WorkloadStatus status = workload.path("status").isObject()
                    ? StatusJson.parseWorkloadStatus((ObjectNode) workload.get("status")) : WorkloadStatus.EMPTY;
            try {
                controller.submit(WorkloadDecoder.request(workload, resources), WorkloadDecoder.active(workload), status);
            } catch (InvalidObjectException unreadable) {
                // Stored before validation refused such objects (a total that overflows, say): left out of scheduling.
                log.atWarn().addKeyValue("workload", o.key().namespace() + "/" + o.key().name())
                        .addKeyValue("reason", unreadable.getMessage()).log("stored workload cannot be scheduled; left out");
            }
        }
        return listed;
    }
}
