package dev.berth.system.rbac;

import dev.berth.virtualcluster.ClientIdentity;
import dev.berth.protocol.JobKind;
import dev.berth.protocol.JobKinds;
import java.util.List;
import java.util.stream.Stream;

/**
 * Grants the shipped worker roles keep although the end-to-end suites never use them: each is needed on
 * a path the suites do not reach, named in its reason. Keep this list short and every reason checkable.
 */
final class WorkerRbacExceptions {
    record Allowed(ClientIdentity identity, String verb, String apiGroup, String resource, String reason) {}

    private static final String ONLY_JOBS = "the end-to-end suites dispatch batch/v1 Jobs only";

    static final List<Allowed> UNUSED_BUT_NEEDED = Stream.concat(Stream.of(
            new Allowed(ClientIdentity.AGENT, "create", "jobset.x-k8s.io", "jobsets",
                    "a RemoteWorkload whose template is a JobSet (TemplateRenderer; rendering covered by TemplateRendererTest); " + ONLY_JOBS),
            new Allowed(ClientIdentity.AGENT, "create", "", "pods",
                    "a RemoteWorkload whose template is a Pod or a List of Pods, a Kueue pod group (TemplateRenderer; rendering covered by "
                            + "TemplateRendererTest); " + ONLY_JOBS),
            new Allowed(ClientIdentity.AGENT, "get", "", "podtemplates",
                    "a PodTemplate an earlier pass created before its ProvisioningRequest's create failed is read back on 409 "
                            + "(ProvisioningRequests.createIfAbsent); ProvisioningRequestSystemTest creates each template once"),
            new Allowed(ClientIdentity.AGENT, "create", "trainer.kubeflow.org", "trainingruntimes",
                    "a TrainJob naming a namespaced TrainingRuntime (TrainJobsSystemTest uses a ClusterTrainingRuntime)")),
            JobKinds.DISPATCHED.stream().filter(kind -> kind != JobKinds.JOB).flatMap(kind -> Stream.of(agentDelete(kind), fence(kind))))
            .toList();

    /**
     * The agent deletes a stopped, rejected, expired or deleted attempt's objects of every dispatched kind alike
     * (AttemptObjects.deleteAttempt, by name after a labelled list). For a Job the suites always see it; for the
     * other kinds the virtual cluster's garbage collector removes the copy once its RemoteWorkload is gone, and
     * which of the two deletes it first is a race the suites cannot decide (it failed CI once for Deployments).
     */
    private static Allowed agentDelete(JobKind kind) {
        return new Allowed(ClientIdentity.AGENT, "delete", kind.group(), kind.plural(),
                "removing a " + kind.kind() + " attempt (AttemptObjects.deleteAttempt); in the suites the virtual cluster's garbage "
                        + "collector may remove the copy first");
    }

    /** Fencing an old attempt on a cluster whose agent is lost: AttemptFencing deletes every dispatched kind alike. */
    private static Allowed fence(JobKind kind) {
        return new Allowed(ClientIdentity.MANAGER, "delete", kind.group(), kind.plural(),
                "fencing an old " + kind.kind() + " attempt on a cluster whose agent is lost (AttemptFencing deletes every dispatched "
                        + "kind alike; FailoverSystemTest fences Job attempts only)");
    }

    static boolean allowsUnused(ClientIdentity identity, RbacRule single) {
        return UNUSED_BUT_NEEDED.stream().anyMatch(e -> e.identity() == identity && single.verbs().contains(e.verb())
                && single.apiGroups().contains(e.apiGroup()) && single.resources().contains(e.resource()));
    }

    private WorkerRbacExceptions() {}
}
