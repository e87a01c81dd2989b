package dev.berth.protocol;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A Kubeflow training job kind shaped like the training operator's jobs: a map of replica specs by
 * replica type under {@code spec.<replicaSpecsField>}, each with {@code replicas} (default 1) and a pod
 * {@code template}, and a {@code spec.runPolicy} holding {@code suspend}, {@code managedBy} and
 * {@code schedulingPolicy.priorityClass}. Kueue derives one pod set per present replica type, in
 * {@link #replicaTypes()} order, named in lower case (pkg/controller/jobs/kubeflow/kubeflowjob and
 * pkg/controller/jobs/mpijob). The same shape fits TFJob, PaddleJob, XGBoostJob and JAXJob.
 *
 * @param replicaTypes the replica types in Kueue's order (OrderedReplicaTypes)
 * @param completingReplicaType the replica type whose success is the job's (Master, Launcher); when
 *        absent from a job, every replica must succeed
 * @param completingReplicaRequired whether the completing replica type must be present, with one replica (MPIJob's launcher)
 * @param framework Kueue's integrations.frameworks name
 * @param cleansRunningPods whether the controller's default cleanPodPolicy is Running (MPIJob) rather than None
 */
public record KubeflowJobKind(String group, String version, String kind, String plural, String singular,
                              String replicaSpecsField, List<String> replicaTypes, String completingReplicaType,
                              boolean completingReplicaRequired, String framework, boolean cleansRunningPods) {
    public static final String GROUP = "kubeflow.org";
    /** Labels the training operator puts on each replica's pods. */
    public static final String JOB_NAME_LABEL = "training.kubeflow.org/job-name";
    public static final String OPERATOR_NAME_LABEL = "training.kubeflow.org/operator-name";
    public static final String REPLICA_TYPE_LABEL = "training.kubeflow.org/replica-type";
    public static final String REPLICA_INDEX_LABEL = "training.kubeflow.org/replica-index";
    public static final String JOB_ROLE_LABEL = "training.kubeflow.org/job-role";

    public static final KubeflowJobKind PYTORCH_JOB = new KubeflowJobKind(GROUP, "v1", "PyTorchJob", "pytorchjobs", "pytorchjob",
            "pytorchReplicaSpecs", List.of("Master", "Worker"), "Master", false, "kubeflow.org/pytorchjob", false);
    public static final KubeflowJobKind MPI_JOB = new KubeflowJobKind(GROUP, "v2beta1", "MPIJob", "mpijobs", "mpijob",
            "mpiReplicaSpecs", List.of("Launcher", "Worker"), "Launcher", true, "kubeflow.org/mpijob", true);
    public static final List<KubeflowJobKind> ALL = List.of(PYTORCH_JOB, MPI_JOB);

    public KubeflowJobKind {
        replicaTypes = List.copyOf(replicaTypes);
    }

    public String apiVersion() {
        return group + "/" + version;
    }

    /** The pod set (and pod name part) of a replica type: its name in lower case, as Kueue and the operators write it. */
    public static String podSetName(String replicaType) {
        return replicaType.toLowerCase(Locale.ROOT);
    }

    /** The operator name on the pods' labels, as the real controllers set it. */
    public String operatorName() {
        return kind.equals("MPIJob") ? "mpi-operator" : singular + "-controller";
    }

    /** The served Kubeflow kind of this name, if any. */
    public static Optional<KubeflowJobKind> of(String kind) {
        return ALL.stream().filter(k -> k.kind.equals(kind)).findFirst();
    }
}
