package dev.berth.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.testing.ManagerClient;
import java.time.Duration;
import java.util.List;

/**
 * The manager's Kubernetes API, reached through the port its container maps to localhost: the shared
 * {@link ManagerClient} with the drills' short timeouts and the reads the invariants use.
 */
public final class ManagerApi extends ManagerClient {
    public ManagerApi(String baseUrl) {
        super(baseUrl, Duration.ofSeconds(3), Duration.ofSeconds(15));
    }

    public List<JsonNode> workloads(String namespace) {
        return items(KUEUE + "/namespaces/" + namespace + "/workloads");
    }

    public List<JsonNode> clusterQueues() {
        return items(KUEUE + "/clusterqueues");
    }

    public JsonNode multiKueueCluster(String name) {
        return get(KUEUE + "/multikueueclusters/" + name);
    }

    /** The job kinds the drills submit. */
    private static final java.util.Set<String> JOB_KINDS = java.util.Set.of("Job", "PyTorchJob");

    /** The name of the job (a Job, a PyTorchJob) a Workload was derived from (its owner), or null. */
    public static String ownerJob(JsonNode workload) {
        for (JsonNode owner : workload.path("metadata").path("ownerReferences")) {
            if (JOB_KINDS.contains(owner.path("kind").asText())) return owner.path("name").asText();
        }
        return null;
    }
}
