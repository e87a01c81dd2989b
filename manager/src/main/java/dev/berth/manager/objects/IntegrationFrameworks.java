package dev.berth.manager.objects;

import java.util.List;
import java.util.Set;

/**
 * Which job kinds get a Workload (Kueue's integrations.frameworks). A job of a kind not enabled is
 * stored and left alone, as Kueue leaves it: not suspended, no Workload. Without a Configuration
 * file Berth manages every kind it serves.
 */
public record IntegrationFrameworks(Set<String> enabled) {
    public static final String BATCH_JOB = "batch/job";
    public static final String JOBSET = "jobset.x-k8s.io/jobset";
    public static final String POD = "pod";
    public static final String PYTORCH_JOB = dev.berth.protocol.KubeflowJobKind.PYTORCH_JOB.framework();
    public static final String MPI_JOB = dev.berth.protocol.KubeflowJobKind.MPI_JOB.framework();
    public static final String RAY_JOB = dev.berth.protocol.RayApi.RAY_JOB_KIND.framework();
    public static final String RAY_CLUSTER = dev.berth.protocol.RayApi.RAY_CLUSTER_KIND.framework();
    public static final String TRAIN_JOB = dev.berth.protocol.TrainerApi.FRAMEWORK;
    /** The frameworks Berth can act on; the others of Kueue's are warned about at start. */
    public static final String DEPLOYMENT = dev.berth.protocol.ServingKind.DEPLOYMENT.framework();
    public static final String STATEFUL_SET = dev.berth.protocol.ServingKind.STATEFUL_SET.framework();
    public static final String LEADER_WORKER_SET = dev.berth.protocol.ServingKind.LEADER_WORKER_SET.framework();
    public static final String APP_WRAPPER = dev.berth.protocol.AppWrapperApi.FRAMEWORK;
    public static final List<String> SERVED = List.of(BATCH_JOB, JOBSET, POD, PYTORCH_JOB, MPI_JOB,
            RAY_JOB, RAY_CLUSTER,
            TRAIN_JOB,
            DEPLOYMENT, STATEFUL_SET, LEADER_WORKER_SET,
            APP_WRAPPER);
    public static final IntegrationFrameworks ALL_SERVED = new IntegrationFrameworks(Set.copyOf(SERVED));

    public IntegrationFrameworks {
        enabled = Set.copyOf(enabled);
    }

    public boolean manages(String framework) {
        return enabled.contains(framework);
    }

    /** The framework a served kind belongs to (Job, JobSet, Pod, PyTorchJob, MPIJob), or null. */
    public static String frameworkOf(String kind) {
        return switch (kind) {
            case "Job" -> BATCH_JOB;
            case "JobSet" -> JOBSET;
            case "Pod" -> POD;
            case "RayJob" -> RAY_JOB;
            case "RayCluster" -> RAY_CLUSTER;
            case "TrainJob" -> TRAIN_JOB;
            case "AppWrapper" -> APP_WRAPPER;
            default -> dev.berth.protocol.KubeflowJobKind.of(kind).map(dev.berth.protocol.KubeflowJobKind::framework)
                    .or(() -> dev.berth.protocol.ServingKind.of(kind).map(dev.berth.protocol.ServingKind::framework)).orElse(null);
        };
    }

    public boolean managesKind(String kind) {
        String framework = frameworkOf(kind);
        return framework == null || manages(framework);
    }
}
