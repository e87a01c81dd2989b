package dev.berth.agent;

import static dev.berth.agent.Templates.podSet;
import static dev.berth.agent.Templates.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.protocol.Annotations;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.CapacityReport;
import dev.berth.protocol.crd.FlavorDefinition;
import dev.berth.protocol.crd.PodSetPlacement;
import dev.berth.protocol.crd.PodSetTopology;
import dev.berth.protocol.crd.PodSetTopologyAssignment;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import dev.berth.protocol.crd.TopologyCapacity;
import dev.berth.virtualcluster.ClusterProfile;
import dev.berth.virtualcluster.PoolTopology;
import dev.berth.virtualcluster.VirtualCluster;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent against a virtual cluster of 2 blocks x 2 racks x 2 A100 nodes (profile a100:2b2r2x8), whose
 * scheduler honours nodeSelector and node affinity: the heartbeat reports every node by domain, a gang
 * required in one rack gets that rack's labels and hostnames as node constraints and its pods are bound
 * there, and a second gang for the now full rack stays Pending with a reason naming the rack.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TopologyOnVirtualClusterTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final List<String> RACK_2 = List.of("block-1", "rack-2");

    private VirtualCluster cluster;
    private Vertx vertx;
    private Agent agent;
    private final Fixtures.MutableClock clock = new Fixtures.MutableClock(Instant.now());

    @BeforeAll
    void startClusterAndAgent(@TempDir Path dir) throws Exception {
        cluster = VirtualCluster.start("vc", ClusterProfile.parse("a100:2b2r2x8"), dir, false, Duration.ofMillis(100));
        KubernetesClient client = cluster.client();
        client.configMaps().inNamespace(BerthCrds.SYSTEM_NAMESPACE).resource(new ConfigMapBuilder()
                .withNewMetadata().withName(BerthCrds.FLAVOR_CATALOGUE).endMetadata()
                .addToData(BerthCrds.FLAVOR_CATALOGUE_KEY, client.getKubernetesSerialization().asJson(List.of(a100WithTopology())))
                .build()).create();
        vertx = Vertx.vertx();
        agent = new Agent(vertx, client, AgentConfig.parse("--name", "vc", "--host", "127.0.0.1", "--port", "0",
                "--heartbeat", "PT0.2S", "--reconcile-interval", "PT0.1S"), clock);
        agent.start().toCompletionStage().toCompletableFuture().get();
    }

    @AfterAll
    void stop() throws Exception {
        if (agent != null) agent.stop().toCompletionStage().toCompletableFuture().get();
        if (vertx != null) vertx.close().toCompletionStage().toCompletableFuture().get();
        if (cluster != null) cluster.close();
    }

    static FlavorDefinition a100WithTopology() {
        FlavorDefinition flavor = AgentIntegrationTest.gpuFlavor("a100", Fixtures.A100);
        flavor.setTopologyName("default");
        flavor.setTopologyLevels(new ArrayList<>(PoolTopology.LEVELS));
        return flavor;
    }

    @Test
    @Order(1)
    void heartbeatReportsEveryNodeWithItsBlockRackAndHostname() {
        await().atMost(WAIT).untilAsserted(() -> {
            Lease lease = cluster.client().leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(BerthCrds.AGENT_LEASE).get();
            assertThat(lease).isNotNull();
            CapacityReport report = cluster.client().getKubernetesSerialization()
                    .unmarshal(lease.getMetadata().getAnnotations().get(Annotations.AGENT_CAPACITY), CapacityReport.class);
            TopologyCapacity topology = report.getFlavors().get(0).getTopology();
            assertThat(topology.getLevels()).isEqualTo(PoolTopology.LEVELS);
            assertThat(topology.getNodes()).hasSize(8);
            assertThat(topology.getNodes().get(2).getValues()).containsExactly("block-1", "rack-2", "vc-a100-2");
            assertThat(topology.getNodes().get(2).getFree()).containsEntry("nvidia.com/gpu", "8");
        });
    }

    @Test
    @Order(2)
    void requiredRackGangIsPinnedToTheRackAndLandsThere() {
        submit("gang", 4, "4");

        await().atMost(WAIT).until(() -> RemoteWorkloadPhase.ADMITTED.equals(statusOf("gang").getPhase())
                || RemoteWorkloadPhase.RUNNING.equals(statusOf("gang").getPhase()));
        var template = cluster.client().batch().v1().jobs().inNamespace("team-tas").withName("gang").get().getSpec().getTemplate().getSpec();
        assertThat(template.getNodeSelector()).containsEntry(PoolTopology.BLOCK_LABEL, "block-1").containsEntry(PoolTopology.RACK_LABEL, "rack-2");
        assertThat(template.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms())
                .singleElement().satisfies(term -> assertThat(term.getMatchExpressions()).singleElement().satisfies(expression -> {
                    assertThat(expression.getKey()).isEqualTo(PoolTopology.HOSTNAME_LABEL);
                    assertThat(expression.getOperator()).isEqualTo("In");
                    assertThat(expression.getValues()).containsExactly("vc-a100-2", "vc-a100-3");
                }));
        await().atMost(WAIT).untilAsserted(() -> assertThat(podsOf("gang")).hasSize(4)
                .allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isIn("vc-a100-2", "vc-a100-3")));
        PodSetTopologyAssignment assignment = statusOf("gang").getTopologyAssignments().get(0);
        assertThat(assignment.getPodSet()).isEqualTo("main");
        assertThat(assignment.getLevels()).containsExactly(PoolTopology.HOSTNAME_LABEL);
        assertThat(assignment.getDomains()).extracting(PodSetTopologyAssignment.Domain::getValues)
                .containsExactly(List.of("vc-a100-2"), List.of("vc-a100-3"));
        assertThat(assignment.getDomains()).extracting(PodSetTopologyAssignment.Domain::getCount).containsExactly(2, 2);
    }

    @Test
    @Order(3)
    void gangForTheFullRackStaysPendingNamingTheRack() {
        submit("late", 1, "4");

        await().atMost(WAIT).untilAsserted(() -> {
            RemoteWorkloadStatus status = statusOf("late");
            assertThat(status.getPhase()).isEqualTo(RemoteWorkloadPhase.PENDING);
            assertThat(status.getReason()).isEqualTo("topology domain block-1/rack-2 of flavor a100 has room for 0 of 1 pods"
                    + " of pod set main (required " + PoolTopology.RACK_LABEL + ")");
        });
        assertThat(cluster.client().batch().v1().jobs().inNamespace("team-tas").withName("late").get()).isNull();
    }

    private void submit(String name, int pods, String gpus) {
        Map<String, Object> job = Templates.job(name, pods, gpus);
        @SuppressWarnings("unchecked")
        Map<String, Object> podTemplate = (Map<String, Object>) ((Map<String, Object>) job.get("spec")).get("template");
        @SuppressWarnings("unchecked")
        Map<String, Object> podSpec = (Map<String, Object>) podTemplate.get("spec");
        podSpec.remove("nodeSelector"); // the fixture's zone label is not on the virtual nodes
        @SuppressWarnings("unchecked")
        Map<String, Object> metadata = (Map<String, Object>) podTemplate.get("metadata");
        metadata.put("annotations", Map.of(Annotations.SIMULATED_RUNTIME, "PT10M"));
        PodSetPlacement podSet = podSet("main", pods, gpus, "a100");
        PodSetTopology topology = new PodSetTopology();
        topology.setMode("Required");
        topology.setLevel(PoolTopology.RACK_LABEL);
        topology.setLevels(new ArrayList<>(PoolTopology.LEVELS));
        topology.setDomain(new ArrayList<>(RACK_2));
        podSet.setTopology(topology);
        RemoteWorkloadSpec spec = spec(UUID.randomUUID().toString(), 1, job, a100WithTopology(), podSet);
        spec.setLeaseRenewTime(clock.instant().toString());
        spec.setLeaseDurationSeconds(3600);
        RemoteWorkload rw = new RemoteWorkload();
        rw.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("team-tas")
                .addToLabels(Labels.ATTEMPT_ID, spec.getAttemptId()).addToLabels(Labels.ORIGIN, "berth-manager").build());
        rw.setSpec(spec);
        cluster.client().resources(RemoteWorkload.class).inNamespace("team-tas").resource(rw).create();
    }

    private RemoteWorkloadStatus statusOf(String name) {
        RemoteWorkload rw = cluster.client().resources(RemoteWorkload.class).inNamespace("team-tas").withName(name).get();
        return rw == null || rw.getStatus() == null ? new RemoteWorkloadStatus() : rw.getStatus();
    }

    private List<Pod> podsOf(String name) {
        return cluster.client().pods().inNamespace("team-tas").withLabel("job-name", name).list().getItems();
    }
}
