package dev.berth.system.rbac;

import dev.berth.virtualcluster.ClientIdentity;
import java.util.List;

/**
 * Grants the shipped worker roles keep although the end-to-end suites never use them: each is needed on
 * a path the suites do not reach, named in its reason. Keep this list short and every reason checkable.
 */
final class WorkerRbacExceptions {
    record Allowed(ClientIdentity identity, String verb, String apiGroup, String resource, String reason) {}

    private static final String ONLY_JOBS = "the end-to-end suites dispatch batch/v1 Jobs only";

    static final List<Allowed> UNUSED_BUT_NEEDED = List.of(
            new Allowed(ClientIdentity.AGENT, "create", "jobset.x-k8s.io", "jobsets",
                    "a RemoteWorkload whose template is a JobSet (TemplateRenderer; rendering covered by TemplateRendererTest); " + ONLY_JOBS),
            new Allowed(ClientIdentity.AGENT, "delete", "jobset.x-k8s.io", "jobsets",
                    "removing a JobSet attempt that was stopped, rejected, expired or deleted (AttemptObjects.deleteAttempt deletes "
                            + "Jobs and JobSets alike, by name after a labelled list); " + ONLY_JOBS),
            new Allowed(ClientIdentity.AGENT, "create", "", "pods",
                    "a RemoteWorkload whose template is a Pod or a List of Pods, a Kueue pod group (TemplateRenderer; rendering covered by "
                            + "TemplateRendererTest); " + ONLY_JOBS),
            new Allowed(ClientIdentity.MANAGER, "delete", "jobset.x-k8s.io", "jobsets",
                    "fencing an old JobSet attempt on a cluster whose agent is lost (AttemptFencing deletes Jobs and JobSets alike, "
                            + "by name after a labelled list; FailoverSystemTest fences Job attempts); " + ONLY_JOBS),
            new Allowed(ClientIdentity.AGENT, "get", "", "podtemplates",
                    "a PodTemplate an earlier pass created before its ProvisioningRequest's create failed is read back on 409 "
                            + "(ProvisioningRequests.createIfAbsent); ProvisioningRequestSystemTest creates each template once"),
            kubeflowAgentDelete("pytorchjobs"), kubeflowAgentDelete("mpijobs"),
            kubeflowFence("pytorchjobs"), kubeflowFence("mpijobs"),
            rayFence("rayjobs"), rayFence("rayclusters"),
            new Allowed(ClientIdentity.MANAGER, "delete", "trainer.kubeflow.org", "trainjobs",
                    "fencing an old TrainJob attempt on a cluster whose agent is lost (AttemptFencing deletes every owner kind alike; "
                            + "FailoverSystemTest fences Job attempts only)"),
            new Allowed(ClientIdentity.AGENT, "create", "trainer.kubeflow.org", "trainingruntimes",
                    "a TrainJob naming a namespaced TrainingRuntime (TrainJobsSystemTest uses a ClusterTrainingRuntime)"),
            servingFence("apps", "deployments"), servingFence("apps", "statefulsets"),
            servingFence("leaderworkerset.x-k8s.io", "leaderworkersets"),
            new Allowed(ClientIdentity.MANAGER, "delete", "workload.codeflare.dev", "appwrappers",
                    "fencing an old AppWrapper attempt on a cluster whose agent is lost (AttemptFencing deletes every owner kind alike; "
                            + "FailoverSystemTest fences Job attempts only)"),
            new Allowed(ClientIdentity.AGENT, "delete", "workload.codeflare.dev", "appwrappers",
                    "removing an AppWrapper attempt that was stopped, rejected, expired or deleted (AttemptObjects.deleteAttempt); "
                            + "in AppWrapperSystemTest the virtual cluster's garbage collector may remove the copy first"));

    private static Allowed servingFence(String group, String resource) {
        return new Allowed(ClientIdentity.MANAGER, "delete", group, resource,
                "fencing an old serving attempt on a cluster whose agent is lost (AttemptFencing deletes every owner kind alike; "
                        + "FailoverSystemTest fences Job attempts only)");
    }

    /** KubeflowJobsSystemTest creates these; whether the agent or the cluster's garbage collector removes a finished copy is a race. */
    private static Allowed kubeflowAgentDelete(String resource) {
        return new Allowed(ClientIdentity.AGENT, "delete", "kubeflow.org", resource,
                "removing a Kubeflow job attempt that was stopped, rejected, expired or deleted (AttemptObjects.deleteAttempt, by name "
                        + "after a labelled list); in KubeflowJobsSystemTest the virtual cluster's garbage collector may remove the copy first");
    }

    private static Allowed kubeflowFence(String resource) {
        return new Allowed(ClientIdentity.MANAGER, "delete", "kubeflow.org", resource,
                "fencing an old Kubeflow job attempt on a cluster whose agent is lost (AttemptFencing deletes every owner kind alike; "
                        + "FailoverSystemTest fences Job attempts only)");
    }

    private static Allowed rayFence(String resource) {
        return new Allowed(ClientIdentity.MANAGER, "delete", "ray.io", resource,
                "fencing an old Ray attempt on a cluster whose agent is lost (AttemptFencing deletes every owner kind alike; "
                        + "FailoverSystemTest fences Job attempts only)");
    }

    static boolean allowsUnused(ClientIdentity identity, RbacRule single) {
        return UNUSED_BUT_NEEDED.stream().anyMatch(e -> e.identity() == identity && single.verbs().contains(e.verb())
                && single.apiGroups().contains(e.apiGroup()) && single.resources().contains(e.resource()));
    }

    private WorkerRbacExceptions() {}
}
