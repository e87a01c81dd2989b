package dev.berth.protocol;

import java.util.Optional;

/**
 * Kubeflow Trainer v2's {@code trainer.kubeflow.org/v1alpha1} kinds Berth serves: TrainJob (a job Kueue manages
 * through a Workload) and the runtimes it names in {@code spec.runtimeRef} (TrainingRuntime, namespaced, and
 * ClusterTrainingRuntime, cluster-scoped), which are stored as they are. A runtime's {@code spec.template} is a
 * JobSet spec; the trainer's own step is the replicatedJob named {@code node} (or labelled as the trainer's
 * ancestor step), whose container {@code node} takes the TrainJob's resourcesPerNode.
 */
public final class TrainerApi {
    public static final String GROUP = "trainer.kubeflow.org";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String TRAIN_JOB = "TrainJob";
    public static final String TRAINING_RUNTIME = "TrainingRuntime";
    public static final String CLUSTER_TRAINING_RUNTIME = "ClusterTrainingRuntime";
    /** Kueue's integrations.frameworks name. */
    public static final String FRAMEWORK = "trainer.kubeflow.org/trainjob";
    /** The trainer step: its replicatedJob and container name in Kubeflow's runtimes. */
    public static final String TRAINER_NODE = "node";
    /** The label a runtime's replicatedJob carries when it is the trainer step (Trainer's constants.LabelTrainJobAncestor). */
    public static final String ANCESTOR_LABEL = "trainer.kubeflow.org/trainjob-ancestor-step";
    public static final String ANCESTOR_TRAINER = "trainer";
    /**
     * Berth's: the manager puts the runtime a dispatched TrainJob names on the worker's copy under this annotation
     * (JSON), and the agent creates that runtime on the worker before the TrainJob unless it is there already.
     */
    public static final String RUNTIME_ANNOTATION = "berth.dev/training-runtime";
    /** The labels Trainer's JobSet puts on a TrainJob's pods (JobSet's own plus the TrainJob's name). */
    public static final String JOBSET_NAME_LABEL = "jobset.sigs.k8s.io/jobset-name";
    public static final String REPLICATED_JOB_NAME_LABEL = "jobset.sigs.k8s.io/replicatedjob-name";
    public static final String JOB_INDEX_LABEL = "jobset.sigs.k8s.io/job-index";

    /** One of the served kinds. */
    public record Kind(String kind, String plural, String singular, boolean namespaced) {
        public String apiVersion() {
            return API_VERSION;
        }

        public String group() {
            return GROUP;
        }

        public String version() {
            return VERSION;
        }
    }

    public static final Kind TRAIN_JOB_KIND = new Kind(TRAIN_JOB, "trainjobs", "trainjob", true);
    public static final Kind TRAINING_RUNTIME_KIND = new Kind(TRAINING_RUNTIME, "trainingruntimes", "trainingruntime", true);
    public static final Kind CLUSTER_TRAINING_RUNTIME_KIND = new Kind(CLUSTER_TRAINING_RUNTIME, "clustertrainingruntimes", "clustertrainingruntime", false);

    private TrainerApi() {}

    /** The runtime kind a runtimeRef.kind names (Trainer's default is ClusterTrainingRuntime), if it is one. */
    public static Optional<Kind> runtimeKind(String refKind) {
        if (refKind == null || refKind.isEmpty() || refKind.equals(CLUSTER_TRAINING_RUNTIME)) return Optional.of(CLUSTER_TRAINING_RUNTIME_KIND);
        if (refKind.equals(TRAINING_RUNTIME)) return Optional.of(TRAINING_RUNTIME_KIND);
        return Optional.empty();
    }
}
