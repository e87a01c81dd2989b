package dev.berth.manager.controller;

import dev.berth.manager.clusters.ClusterConnections;
import dev.berth.manager.clusters.ClusterEvents;
import dev.berth.manager.api.ResourceRegistry;
import dev.berth.manager.objects.AdmissionCheckDecoder;
import dev.berth.manager.objects.ClusterQueueDecoder;
import dev.berth.manager.objects.CohortDecoder;
import dev.berth.manager.objects.KubeflowWorkloads;
import dev.berth.manager.objects.LocalQueueDecoder;
import dev.berth.manager.objects.NamespaceDecoder;
import dev.berth.manager.objects.PriorityClassDecoder;
import dev.berth.manager.objects.RayWorkloads;
import dev.berth.manager.objects.TrainJobWorkloads;
import dev.berth.manager.objects.ResourceFlavorDecoder;
import dev.berth.manager.objects.WorkloadFactory;
import dev.berth.manager.security.RbacResources;
import dev.berth.protocol.KubeflowJobKind;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.ServingKind;
import dev.berth.manager.objects.ServingWorkloads;

/** Binds every served kind to its hooks: how it is validated and what the controller learns from it. */
final class ManagerResources {
    private ManagerResources() {}

    /**
     * The registry, and the hooks the manager drives besides: MultiKueue's (they connect the stored worker
     * clusters when dispatch starts) and the deletions held while in use (released by housekeeping).
     */
    record Hooks(ResourceRegistry registry, MultiKueueHooks multiKueue, ResourceInUse inUse) {}

    /** The registry of a manager that never dispatches (a follower's read-only API, the leader's read thread). */
    static ResourceRegistry registry(ManagerState state) {
        return hooks(state, ClusterConnections.NONE, new ClusterEventsLink()).registry();
    }

    /** With the worker clusters a MultiKueueCluster connects, and where an operator's marks on one go. */
    static Hooks hooks(ManagerState state, ClusterConnections clusters, ClusterEvents marksChanged) {
        StoredPriorities priorities = new StoredPriorities(state);
        MultiKueueHooks multiKueue = new MultiKueueHooks(state, clusters, marksChanged);
        ResourceInUse inUse = new ResourceInUse(state);
        MultiKueueStatus multiKueueStatus = new MultiKueueStatus(state, java.time.Clock.systemUTC());
        ProvisioningHooks provisioning = new ProvisioningHooks(state, multiKueueStatus);
        ResourceRegistry registry = ResourceRegistry.builder()
                .add(Resources.TOPOLOGIES, new TopologyHooks(state, multiKueue), KueueApi.V1BETA1)
                .add(Resources.RESOURCE_FLAVORS, TopologyHooks.flavorRules(ResourceInUse.holding(new KueueObjectHooks<>(state, ResourceFlavorDecoder::decode, f -> { },
                        f -> {
                            state.controller.applyResourceFlavor(f);
                            multiKueue.flavorsChanged();
                        }, o -> {
                            state.controller.deleteResourceFlavor(o.key().name());
                            multiKueue.flavorsChanged();
                        }), inUse::flavorInUse)), KueueApi.V1BETA1)
                .add(Resources.CLUSTER_QUEUES, ResourceInUse.holding(new KueueObjectHooks<>(state, ClusterQueueDecoder::decode, cq -> { },
                        cq -> state.controller.applyClusterQueue(cq), o -> state.controller.deleteClusterQueue(o.key().name())),
                        inUse::clusterQueueInUse), KueueApi.V1BETA1)
                .add(Resources.COHORTS, new KueueObjectHooks<>(state, CohortDecoder::decode, c -> { },
                        c -> state.controller.applyCohort(c), o -> state.controller.deleteCohort(o.key().name())), KueueApi.V1BETA1)
                .add(Resources.LOCAL_QUEUES, new KueueObjectHooks<>(state, LocalQueueDecoder::decode, lq -> { },
                        lq -> state.controller.applyLocalQueue(lq),
                        o -> state.controller.deleteLocalQueue(o.key().namespace(), o.key().name())), KueueApi.V1BETA1)
                .add(Resources.WORKLOAD_PRIORITY_CLASSES, new KueueObjectHooks<>(state, PriorityClassDecoder::decodeWorkloadPriorityClass,
                        p -> { }, p -> { }, o -> { }), KueueApi.V1BETA1)
                .add(Resources.ADMISSION_CHECKS, ResourceInUse.holding(new KueueObjectHooks<>(state, AdmissionCheckDecoder::decode, c -> { },
                        c -> {
                            state.controller.applyAdmissionCheck(c.name(), true);
                            state.find(Resources.ADMISSION_CHECKS.resource(), "", c.name())
                                    .ifPresent(check -> {
                                        multiKueue.admissionCheckStored(check, multiKueueStatus);
                                        provisioning.admissionCheckStored(check);
                                    });
                        },
                        o -> state.controller.deleteAdmissionCheck(o.key().name())), inUse::admissionCheckInUse), KueueApi.V1BETA1)
                .add(Resources.WORKLOADS, new WorkloadHooks(state, priorities), KueueApi.V1BETA1)
                .add(Resources.JOBS, new OwnedWorkloadHooks(state, priorities, WorkloadFactory::fromJob))
                .add(Resources.JOBSETS, new OwnedWorkloadHooks(state, priorities, WorkloadFactory::fromJobSet))
                .add(Resources.PYTORCH_JOBS, new OwnedWorkloadHooks(state, priorities,
                        (job, resolver) -> KubeflowWorkloads.from(KubeflowJobKind.PYTORCH_JOB, job, resolver)))
                .add(Resources.MPI_JOBS, new OwnedWorkloadHooks(state, priorities,
                        (job, resolver) -> KubeflowWorkloads.from(KubeflowJobKind.MPI_JOB, job, resolver)))
                .add(Resources.RAY_JOBS, new OwnedWorkloadHooks(state, priorities, RayWorkloads::fromRayJob))
                .add(Resources.RAY_CLUSTERS, new OwnedWorkloadHooks(state, priorities, RayWorkloads::fromRayCluster))
                .add(Resources.TRAIN_JOBS, new OwnedWorkloadHooks(state, priorities,
                        (job, resolver) -> TrainJobWorkloads.from(job, TrainingRuntimes.in(state), resolver)))
                .add(Resources.TRAINING_RUNTIMES, dev.berth.manager.api.ObjectHooks.NONE)
                .add(Resources.CLUSTER_TRAINING_RUNTIMES, dev.berth.manager.api.ObjectHooks.NONE)
                .add(Resources.DEPLOYMENTS, serving(state, priorities, ServingKind.DEPLOYMENT))
                .add(Resources.STATEFUL_SETS, serving(state, priorities, ServingKind.STATEFUL_SET))
                .add(Resources.LEADER_WORKER_SETS, serving(state, priorities, ServingKind.LEADER_WORKER_SET))
                .add(Resources.APP_WRAPPERS, new OwnedWorkloadHooks(state, priorities, dev.berth.manager.objects.AppWrapperWorkloads::from))
                .add(Resources.PODS, new PodHooks(state, priorities))
                .add(Resources.NAMESPACES, new NamespaceHooks(new KueueObjectHooks<>(state, NamespaceLabels::decode, n -> { },
                        n -> state.controller.applyNamespace(n.name(), n.labels()),
                        o -> state.controller.deleteNamespace(o.key().name()))))
                .add(Resources.PRIORITY_CLASSES, new KueueObjectHooks<>(state, PriorityClassDecoder::decodePriorityClass,
                        p -> { }, p -> { }, o -> { }))
                .add(Resources.MULTIKUEUE_CLUSTERS, multiKueue.clusterHooks(), KueueApi.V1BETA1)
                .add(Resources.MULTIKUEUE_CONFIGS, multiKueue.configHooks(), KueueApi.V1BETA1)
                .add(Resources.PROVISIONING_REQUEST_CONFIGS, provisioning.configHooks(), KueueApi.V1BETA1)
                .add(Resources.SECRETS, multiKueue.secretHooks())
                .add(Resources.EVENTS, dev.berth.manager.api.ObjectHooks.NONE)
                .add(RbacResources.ROLES, state.rbac.hooks(false))
                .add(RbacResources.CLUSTER_ROLES, state.rbac.hooks(false))
                .add(RbacResources.ROLE_BINDINGS, state.rbac.hooks(true))
                .add(RbacResources.CLUSTER_ROLE_BINDINGS, state.rbac.hooks(true))
                .build();
        return new Hooks(registry, multiKueue, inUse);
    }

    /** A namespace as the controller needs it: name and labels. */
    record NamespaceLabels(String name, java.util.Map<String, String> labels) {
        static NamespaceLabels decode(com.fasterxml.jackson.databind.node.ObjectNode object) {
            return new NamespaceLabels(object.path("metadata").path("name").asText(), NamespaceDecoder.labels(object));
        }
    }

    private static OwnedWorkloadHooks serving(ManagerState state, StoredPriorities priorities, ServingKind kind) {
        return new OwnedWorkloadHooks(state, priorities, (object, resolver) -> ServingWorkloads.from(kind, object, resolver));
    }
}
