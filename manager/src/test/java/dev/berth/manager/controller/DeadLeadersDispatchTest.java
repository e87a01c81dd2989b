package dev.berth.manager.controller;

import static dev.berth.manager.testing.ManagerClient.KUEUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.testing.DispatchQueues;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MockWorkerCluster;
import dev.berth.manager.testing.MockWorkerClusters;
import dev.berth.protocol.crd.RemoteWorkload;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A leader that recorded a dispatch and died before its create reached the worker cluster: the next
 * manager (a new epoch, over the same store) finds the attempt missing from the cluster's listings and
 * holds the workload as an unconfirmed create. With the default 60 s lease that hold lasted 70 s; once the
 * agent publishes that it accepted the new epoch (so it refuses the dead leader's late create) and a
 * listing after that does not show the attempt, the hold ends after the pod check, in seconds.
 * One worker cluster, a fabric8 CRUD mock API server; the test plays its agent.
 */
class DeadLeadersDispatchTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    /** The default lease: an unconfirmed create is held lease + margin (70 s) without the agent's epoch. */
    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty()
            .dispatchOptions(new DispatchOptions("test-manager", Duration.ofSeconds(60), Duration.ofMillis(100), PlacementOptions.DEFAULTS));
    @RegisterExtension
    final MockWorkerClusters workers = new MockWorkerClusters();
    private ManagerClient client;
    private MockWorkerCluster roomy;

    @BeforeEach
    void start() {
        client = harness.client();
        roomy = workers.start("roomy");
        heartbeat(0);
        DispatchQueues.to("roomy").createIn(client);
        roomy.connect(client);
    }

    @Test
    void aDeadLeadersLostDispatchIsReleasedOnceTheAgentAcceptedTheNewEpochNotAfterTheLease() throws Exception {
        RemoteWorkload lost = dispatchedByALeaderThatThenDies();
        Instant newLeaderStarted = Instant.now();
        harness.restart();
        awaitHeldAsUnconfirmed(lost);

        // what the agent publishes once it took any RemoteWorkload of the new leader
        heartbeat(harness.manager().fencingEpoch());

        RemoteWorkload again = await().atMost(WAIT).until(this::attempt, r -> r != null
                && !r.getSpec().getAttemptId().equals(lost.getSpec().getAttemptId()));
        assertThat(again.getSpec().getFencingEpoch()).isEqualTo(harness.manager().fencingEpoch());
        assertThat(Duration.between(newLeaderStarted, Instant.parse(again.getSpec().getLeaseRenewTime())))
                .as("dispatched again well before the lost copy's lease (60 s + 10 s margin) ran out").isLessThan(WAIT);
    }

    @Test
    void anAgentStillAtTheDeadLeadersEpochKeepsTheWorkloadHeld() throws Exception {
        RemoteWorkload lost = dispatchedByALeaderThatThenDies();
        harness.restart();
        awaitHeldAsUnconfirmed(lost);

        // the agent accepted only the dead leader's epoch: its late create would still start
        heartbeat(lost.getSpec().getFencingEpoch());

        await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(10)).until(() -> attempt() == null);
        assertThat(workload().path("status").path("dispatchHolds").path(0).path("reason").asText()).isEqualTo("DispatchUnconfirmed");
    }

    /** A job is dispatched; its leader dies; the create never reached the cluster (the object is gone there). */
    private RemoteWorkload dispatchedByALeaderThatThenDies() throws Exception {
        submitJob();
        RemoteWorkload first = await().atMost(WAIT).until(this::attempt, r -> r != null);
        harness.stopManager();
        roomy.agent().resources(RemoteWorkload.class).inNamespace("team-a").withName(first.getMetadata().getName()).delete();
        await().atMost(WAIT).until(() -> attempt() == null);
        return first;
    }

    private void awaitHeldAsUnconfirmed(RemoteWorkload lost) {
        JsonNode held = await().atMost(WAIT).until(this::workload,
                w -> w != null && w.path("status").path("admissionChecks").path(0).path("message").asText().contains("never confirmed"));
        assertThat(held.path("status").path("admissionChecks").get(0).path("message").asText())
                .contains("attempt " + lost.getSpec().getAttemptId() + " on cluster roomy");
        assertThat(lost.getSpec().getFencingEpoch()).isLessThan(harness.manager().fencingEpoch());
    }

    // ---- the test as agent ---------------------------------------------------------------

    /** Eight free GPUs, and the fencing epoch the agent accepted. */
    private void heartbeat(long acceptedEpoch) {
        roomy.heartbeat(MockWorkerCluster.Capacity.a100(8).acceptingEpoch(acceptedEpoch));
    }

    private RemoteWorkload attempt() {
        return roomy.attempt();
    }

    // ---- the user ---------------------------------------------------------------------------

    private void submitJob() {
        client.create(DispatchQueues.job("train", 1, 1));
    }

    private JsonNode workload() {
        List<JsonNode> items = client.items(KUEUE + "/namespaces/team-a/workloads");
        return items.isEmpty() ? null : items.get(0);
    }
}
