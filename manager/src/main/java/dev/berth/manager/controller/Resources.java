package dev.berth.manager.controller;

import dev.berth.manager.api.ResourceType;
import dev.berth.protocol.KubeflowJobKind;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.ServingKind;
import java.util.List;
import java.util.Optional;

/** The kinds the manager serves, with their plurals, short names and scope. */
final class Resources {
    private Resources() {}

    static final ResourceType RESOURCE_FLAVORS = kueue("resourceflavors", "resourceflavor", KueueApi.RESOURCE_FLAVOR, false, List.of("rf", "flavor", "flavors"), false);
    static final ResourceType CLUSTER_QUEUES = kueue("clusterqueues", "clusterqueue", KueueApi.CLUSTER_QUEUE, false, List.of("cq"), true);
    static final ResourceType COHORTS = kueue("cohorts", "cohort", KueueApi.COHORT, false, List.of(), true);
    static final ResourceType LOCAL_QUEUES = kueue("localqueues", "localqueue", KueueApi.LOCAL_QUEUE, true, List.of("lq", "queue", "queues"), true);
    static final ResourceType WORKLOADS = kueue("workloads", "workload", KueueApi.WORKLOAD, true, List.of("wl"), true);
    static final ResourceType WORKLOAD_PRIORITY_CLASSES = kueue("workloadpriorityclasses", "workloadpriorityclass", KueueApi.WORKLOAD_PRIORITY_CLASS, false, List.of(), false);
    static final ResourceType TOPOLOGIES = kueue(dev.berth.protocol.TopologyApi.PLURAL, "topology", dev.berth.protocol.TopologyApi.KIND, false, List.of("topo"), false);
    static final ResourceType ADMISSION_CHECKS = kueue("admissionchecks", "admissioncheck", KueueApi.ADMISSION_CHECK, false, List.of(), true);
    static final ResourceType JOBS = new ResourceType(KueueApi.BATCH_GROUP, "v1", "jobs", "job", KueueApi.JOB, true, List.of(), true);
    static final ResourceType JOBSETS = new ResourceType(KueueApi.JOBSET_GROUP, KueueApi.JOBSET_VERSION, "jobsets", "jobset", KueueApi.JOBSET, true, List.of(), true);
    static final ResourceType PYTORCH_JOBS = kubeflow(KubeflowJobKind.PYTORCH_JOB);
    static final ResourceType MPI_JOBS = kubeflow(KubeflowJobKind.MPI_JOB);
    static final ResourceType RAY_JOBS = ray(dev.berth.protocol.RayApi.RAY_JOB_KIND);
    static final ResourceType RAY_CLUSTERS = ray(dev.berth.protocol.RayApi.RAY_CLUSTER_KIND);
    static final ResourceType TRAIN_JOBS = trainer(dev.berth.protocol.TrainerApi.TRAIN_JOB_KIND, true);
    /** Kubeflow Trainer's runtimes: stored as they are, read when a TrainJob naming one is derived. */
    static final ResourceType TRAINING_RUNTIMES = trainer(dev.berth.protocol.TrainerApi.TRAINING_RUNTIME_KIND, false);
    static final ResourceType CLUSTER_TRAINING_RUNTIMES = trainer(dev.berth.protocol.TrainerApi.CLUSTER_TRAINING_RUNTIME_KIND, false);
    static final ResourceType APP_WRAPPERS = new ResourceType(dev.berth.protocol.AppWrapperApi.GROUP, dev.berth.protocol.AppWrapperApi.VERSION,
            dev.berth.protocol.AppWrapperApi.PLURAL, dev.berth.protocol.AppWrapperApi.SINGULAR, dev.berth.protocol.AppWrapperApi.KIND, true,
            dev.berth.protocol.AppWrapperApi.SHORT_NAMES, true);
    /** The job kinds that own the Workload derived from them (pods are owners too, but many to one). */
    static final ResourceType DEPLOYMENTS = serving(ServingKind.DEPLOYMENT);
    static final ResourceType STATEFUL_SETS = serving(ServingKind.STATEFUL_SET);
    static final ResourceType LEADER_WORKER_SETS = serving(ServingKind.LEADER_WORKER_SET);
    /** The job kinds that own the Workload derived from them (pods are owners too, but many to one). */
    static final List<ResourceType> OWNING_JOBS = List.of(JOBS, JOBSETS, PYTORCH_JOBS, MPI_JOBS,
            RAY_JOBS, RAY_CLUSTERS,
            TRAIN_JOBS,
            DEPLOYMENTS, STATEFUL_SETS, LEADER_WORKER_SETS,
            APP_WRAPPERS);
    static final ResourceType PODS = new ResourceType("", "v1", "pods", "pod", KueueApi.POD, true, List.of("po"), true);
    static final ResourceType NAMESPACES = new ResourceType("", "v1", "namespaces", "namespace", KueueApi.NAMESPACE, false, List.of("ns"), true);
    static final ResourceType PRIORITY_CLASSES = new ResourceType(KueueApi.SCHEDULING_GROUP, "v1", "priorityclasses", "priorityclass", KueueApi.PRIORITY_CLASS, false, List.of("pc"), false);

    static final ResourceType EVENTS = new ResourceType("", "v1", "events", "event", dev.berth.protocol.Events.KIND, true, List.of("ev"), false);

    static final ResourceType MULTIKUEUE_CLUSTERS = kueue("multikueueclusters", "multikueuecluster", KueueApi.MULTIKUEUE_CLUSTER, false, List.of(), true);
    static final ResourceType MULTIKUEUE_CONFIGS = kueue("multikueueconfigs", "multikueueconfig", KueueApi.MULTIKUEUE_CONFIG, false, List.of(), false);
    static final ResourceType PROVISIONING_REQUEST_CONFIGS = kueue("provisioningrequestconfigs", "provisioningrequestconfig",
            KueueApi.PROVISIONING_REQUEST_CONFIG, false, List.of("prc"), false);
    /** Write-only through the API: kubeconfig Secrets for MultiKueueClusters live in kueue-system. */
    static final ResourceType SECRETS = new ResourceType("", "v1", "secrets", "secret", KueueApi.SECRET, true, List.of(), false);
    /** Not served: the manager's own bookkeeping (its fencing epoch). */
    static final String MANAGER_RECORDS = "berth.dev/managerrecords";

    /** The served job kind of this kind name, if it is one. */
    static Optional<ResourceType> owningJob(String kind) {
        return OWNING_JOBS.stream().filter(type -> type.kind().equals(kind)).findFirst();
    }

    private static ResourceType kubeflow(KubeflowJobKind kind) {
        return new ResourceType(kind.group(), kind.version(), kind.plural(), kind.singular(), kind.kind(), true, List.of(), true);
    }

    private static ResourceType ray(dev.berth.protocol.RayApi.Kind kind) {
        return new ResourceType(kind.group(), kind.version(), kind.plural(), kind.singular(), kind.kind(), true, List.of(), true);
    }

    private static ResourceType trainer(dev.berth.protocol.TrainerApi.Kind kind, boolean hasStatus) {
        return new ResourceType(kind.group(), kind.version(), kind.plural(), kind.singular(), kind.kind(), kind.namespaced(), List.of(), hasStatus);
    }

    private static ResourceType serving(ServingKind kind) {
        return new ResourceType(kind.group(), kind.version(), kind.plural(), kind.singular(), kind.kind(), true, kind.shortNames(), true);
    }

    private static ResourceType kueue(String plural, String singular, String kind, boolean namespaced, List<String> shortNames, boolean hasStatus) {
        return new ResourceType(KueueApi.GROUP, KueueApi.V1BETA2, plural, singular, kind, namespaced, shortNames, hasStatus);
    }
}
