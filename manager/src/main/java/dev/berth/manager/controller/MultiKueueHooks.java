package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ObjectHooks;
import dev.berth.manager.clusters.KubeconfigSource;
import dev.berth.manager.clusters.ClusterConnections;
import dev.berth.manager.clusters.ClusterEvents;
import dev.berth.manager.objects.ApiVersionConverter;
import dev.berth.manager.objects.MultiKueueDecoder;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.KueueApi;
import java.util.List;
import java.util.Optional;

/**
 * MultiKueue's objects: a MultiKueueCluster (re)connects its worker cluster when stored, a
 * MultiKueueConfig is validated, and a kubeconfig Secret in kueue-system reconnects the clusters
 * that name it. Secrets are write-only through the API and their content is never logged.
 */
final class MultiKueueHooks {
    private final ManagerState state;
    private final ClusterConnections clusters;
    /** Where an operator's mark goes once the worker clusters hold it: the dispatcher's failover. */
    private final ClusterEvents marksChanged;
    /** Dispatch started ({@link #connectStored}): until then a stored MultiKueueCluster is connected by that call, not here. */
    private boolean live;

    MultiKueueHooks(ManagerState state, ClusterConnections clusters, ClusterEvents marksChanged) {
        this.state = state;
        this.clusters = clusters;
        this.marksChanged = marksChanged;
    }

    /** Dispatch starts: connects every stored MultiKueueCluster and applies its marks; the hooks do so from now on. */
    void connectStored() {
        live = true;
        clusters.flavorsChanged(RemoteWorkloads.flavorCatalogue(state));
        for (StoredObject cluster : state.store.list(Resources.MULTIKUEUE_CLUSTERS.resource(), null)) {
            connect(cluster.object());
            marks(cluster.object());
        }
    }

    /** The operator's annotations berth.dev/cordon and berth.dev/drain ("true"); a change is an action, recorded as an event. */
    private void marks(ObjectNode object) {
        if (!live) return;
        String name = object.path("metadata").path("name").asText();
        var annotations = object.path("metadata").path("annotations");
        boolean draining = "true".equalsIgnoreCase(annotations.path(Annotations.DRAIN).asText(""));
        boolean cordoned = draining || "true".equalsIgnoreCase(annotations.path(Annotations.CORDON).asText(""));
        boolean wasCordoned = clusters.isCordoned(name);
        boolean wasDraining = clusters.isDraining(name);
        if (cordoned == wasCordoned && draining == wasDraining) return;
        clusters.setOperatorMarks(name, cordoned, draining);
        marksChanged.operatorMarksChanged(name, cordoned, draining, wasCordoned, wasDraining);
    }

    void flavorsChanged() {
        if (live) clusters.flavorsChanged(RemoteWorkloads.flavorCatalogue(state));
    }

    private void connect(ObjectNode object) {
        if (!live) return;
        MultiKueueDecoder.ClusterInfo cluster = MultiKueueDecoder.decodeCluster(object);
        clusters.connect(cluster.name(), source(cluster));
    }

    private KubeconfigSource source(MultiKueueDecoder.ClusterInfo cluster) {
        return StoredClusterSources.of(cluster, name -> state.find(Resources.SECRETS.resource(), KueueApi.CONFIG_NAMESPACE, name));
    }

    ObjectHooks clusterHooks() {
        return new ObjectHooks() {
            @Override
            public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
                ApiVersionConverter.toV1beta2(incoming);
                MultiKueueDecoder.decodeCluster(incoming);
                ClusterMarks.validate(incoming);
                return incoming;
            }

            @Override
            public void stored(StoredObject object) {
                connect(object.object());
                marks(object.object());
            }

            @Override
            public void deleted(StoredObject object) {
                if (!live) return;
                clusters.setOperatorMarks(object.key().name(), false, false);
                clusters.disconnect(object.key().name());
            }
        };
    }

    ObjectHooks configHooks() {
        return new ObjectHooks() {
            @Override
            public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
                ApiVersionConverter.toV1beta2(incoming);
                MultiKueueDecoder.decodeConfig(incoming);
                return incoming;
            }

            @Override
            public void stored(StoredObject object) {
                state.reschedule();
            }
        };
    }

    ObjectHooks secretHooks() {
        return new ObjectHooks() {
            @Override
            public boolean readable() {
                return false;
            }

            @Override
            public void stored(StoredObject secret) {
                if (!KueueApi.CONFIG_NAMESPACE.equals(secret.key().namespace())) return;
                for (StoredObject stored : state.store.list(Resources.MULTIKUEUE_CLUSTERS.resource(), null)) {
                    MultiKueueDecoder.ClusterInfo cluster = MultiKueueDecoder.decodeCluster(stored.object());
                    if (cluster.fromSecret() && cluster.location().equals(secret.key().name())) connect(stored.object());
                }
            }
        };
    }

    /** Kueue's AdmissionCheck Active condition for a MultiKueue check: its config must exist. */
    void admissionCheckStored(ObjectNode check, MultiKueueStatus status) {
        if (!KueueApi.MULTIKUEUE_CONTROLLER.equals(check.path("spec").path("controllerName").asText())) return;
        String name = check.path("metadata").path("name").asText();
        String config = MultiKueueDecoder.configOf(check);
        if (config == null) {
            status.admissionCheckActive(name, false, "spec.parameters must reference a MultiKueueConfig");
        } else if (state.find(Resources.MULTIKUEUE_CONFIGS.resource(), "", config).isEmpty()) {
            status.admissionCheckActive(name, false, "MultiKueueConfig " + config + " not found");
        } else {
            status.admissionCheckActive(name, true, "The admission check is active");
        }
    }

}
