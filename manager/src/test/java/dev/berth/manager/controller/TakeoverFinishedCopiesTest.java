package dev.berth.manager.controller;

import static dev.berth.manager.testing.KueueObjects.clusterQueue;
import static dev.berth.manager.testing.KueueObjects.job;
import static dev.berth.manager.testing.KueueObjects.localQueue;
import static dev.berth.manager.testing.KueueObjects.namespace;
import static dev.berth.manager.testing.KueueObjects.resourceFlavor;
import static dev.berth.manager.testing.ManagerClient.condition;
import static dev.berth.manager.testing.MultiKueueObjects.multiKueueCheck;
import static dev.berth.manager.testing.MultiKueueObjects.multiKueueConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.clusters.KubeconfigSource;
import dev.berth.manager.clusters.StandbyClients;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.dispatch.WarmStandbyPlan.Role;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MockWorkerCluster;
import dev.berth.protocol.crd.RemoteWorkload;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 20 rule 3: a workload that finished on its worker while no manager led gives its quota back as soon as the new
 * leader takes office. The quota (1 GPU) is held by {@code first}, which ran under the dead leader; {@code second} waits
 * for it. {@code first} succeeds while nobody leads; the follower's warm standby lists that report; then the copy is gone
 * from the cluster before the new leader's own first listing (its deletion raced the takeover), so only the standby's
 * listing can tell the new leader. Before, the new leader released that quota only from its own first listing.
 */
class TakeoverFinishedCopiesTest {
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final DispatchOptions OPTIONS =
            new DispatchOptions("test-manager", Duration.ofSeconds(60), Duration.ofMillis(100), PlacementOptions.DEFAULTS);

    private StandbyClients standby;
    /** Each leader adopts the follower's warm clients, once there are some. */
    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().dispatchOptions(OPTIONS)
            .configure(manager -> manager.adoptingWarmClients(standby == null ? StandbyClients.NONE : standby));
    private MockWorkerCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MockWorkerCluster.start("roomy").heartbeat(8);
        ManagerClient client = harness.client();
        client.create(namespace("team-a"));
        client.create(resourceFlavor("a100"));
        client.create(multiKueueConfig("workers", "roomy"));
        client.create(multiKueueCheck("dispatch", "workers"));
        client.create(clusterQueue("cq").admissionCheck("dispatch").quota("a100", "cpu", 64).quota("a100", "nvidia.com/gpu", 1));
        client.create(localQueue("team-a", "lq").clusterQueue("cq"));
        cluster.connect(client);
    }

    @AfterEach
    void stop() {
        harness.stopManager();
        if (standby != null) standby.close();
        cluster.close();
    }

    @Test
    void quotaOfACopyThatFinishedWhileNobodyLedIsReleasedFromTheStandbysListingAtTakeover() throws Exception {
        submitJob("first");
        String firstName = await().atMost(WAIT).until(() -> workloadName("first"), name -> !name.isEmpty());
        RemoteWorkload first = await().atMost(WAIT).until(() -> cluster.attemptOf(firstName), r -> r != null);
        cluster.reportRunning(first, 1);
        await().atMost(WAIT).until(() -> "True".equals(condition(workload("first"), "Admitted")));
        submitJob("second");
        await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> !"True".equals(condition(workload("second"), "QuotaReserved")));
        harness.stopManager(); // the leader dies

        cluster.reportSucceeded(first, 1);
        standby = new StandbyClients(OPTIONS.resilience(), OPTIONS.managerId(), Clock.systemUTC(), Duration.ofMillis(100));
        standby.refresh(Role.FOLLOWING, Map.of("roomy", KubeconfigSource.ofPath(cluster.kubeconfig().toString())));
        cluster.agent().resources(RemoteWorkload.class).inNamespace(first.getMetadata().getNamespace())
                .withName(first.getMetadata().getName()).delete();
        await().atMost(WAIT).until(() -> cluster.attemptOf(firstName) == null);

        harness.restart(); // the new leader, adopting the standby's clients

        await().atMost(WAIT).until(() -> "True".equals(condition(workload("first"), "Finished")));
        await().atMost(WAIT).until(() -> "True".equals(condition(workload("second"), "QuotaReserved")));
        assertThat(workload("first").path("status").path("dispatch").path("attemptId").asText()).isEqualTo(first.getSpec().getAttemptId());
    }

    // ---- the user ---------------------------------------------------------------------------

    private void submitJob(String name) {
        client().create(job("team-a", name).queue("lq").request("cpu", "1").request("nvidia.com/gpu", "1"));
    }

    private String workloadName(String job) {
        JsonNode workload = workload(job);
        return workload == null ? "" : workload.path("metadata").path("name").asText();
    }

    private JsonNode workload(String job) {
        for (JsonNode item : client().items(KUEUE + "/namespaces/team-a/workloads")) {
            for (JsonNode owner : item.path("metadata").path("ownerReferences")) {
                if (job.equals(owner.path("name").asText())) return item;
            }
        }
        return null;
    }


    /** The current leader's API (a restart keeps the port). */
    private ManagerClient client() {
        return harness.client();
    }
}
