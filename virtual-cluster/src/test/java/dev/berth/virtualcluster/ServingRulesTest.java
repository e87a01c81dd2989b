package dev.berth.virtualcluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.ServingKind;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The simulated serving controllers' decisions: pod names and labels per kind, scaling, replacement, and replica counts. */
class ServingRulesTest {
    private static final Map<String, Object> TEMPLATE = Map.of("metadata", Map.of("labels", Map.of("app", "s")), "spec", Map.of());

    private static Map<String, Object> replicas(int replicas) {
        return Map.of("replicas", replicas, "template", TEMPLATE);
    }

    private static Map<String, Object> lws(int replicas, int size) {
        return Map.of("replicas", replicas, "leaderWorkerTemplate",
                Map.of("size", size, "leaderTemplate", TEMPLATE, "workerTemplate", Map.of("spec", Map.of())));
    }

    private static List<String> names(List<ServingRules.WantedPod> pods) {
        return pods.stream().map(ServingRules.WantedPod::name).toList();
    }

    @Test
    void aStatefulSetsPodsAreItsOrdinalsWithTheirIndexLabels() {
        ServingRules.Decision decision = ServingRules.decide(ServingKind.STATEFUL_SET, "web", 1, replicas(2), Map.of(), Set.of());

        assertThat(names(decision.create())).containsExactly("web-0", "web-1");
        assertThat(decision.create().get(1).labels()).containsEntry(ServingKind.STS_POD_NAME_LABEL, "web-1")
                .containsEntry(ServingKind.POD_INDEX_LABEL, "1");
    }

    @Test
    void aDeploymentsPodsShareTheTemplateHashAndDifferInTheirSuffix() {
        List<ServingRules.WantedPod> pods = ServingRules.decide(ServingKind.DEPLOYMENT, "api", 1, replicas(3), Map.of(), Set.of()).create();

        assertThat(names(pods)).hasSize(3).doesNotHaveDuplicates().allMatch(n -> n.matches("api-[a-z0-9]{10}-[a-z0-9]{5}"));
        String hash = pods.get(0).labels().get(ServingKind.POD_TEMPLATE_HASH_LABEL);
        assertThat(pods).allSatisfy(p -> assertThat(p.name()).startsWith("api-" + hash + "-"));
    }

    @Test
    void aLeaderWorkerSetHasALeaderAndSizeMinusOneWorkersPerGroup() {
        List<ServingRules.WantedPod> pods = ServingRules.decide(ServingKind.LEADER_WORKER_SET, "llm", 1, lws(2, 3), Map.of(), Set.of()).create();

        assertThat(names(pods)).containsExactly("llm-0", "llm-0-1", "llm-0-2", "llm-1", "llm-1-1", "llm-1-2");
        assertThat(pods.get(0).template()).isSameAs(TEMPLATE);
        assertThat(pods.get(4).labels()).containsEntry(ServingKind.LWS_NAME_LABEL, "llm")
                .containsEntry(ServingKind.LWS_GROUP_INDEX_LABEL, "1").containsEntry(ServingKind.LWS_WORKER_INDEX_LABEL, "1");
    }

    @Test
    void scalingDownRemovesTheHighestOrdinalsAndEndedPodsAreReplaced() {
        ServingRules.Decision decision = ServingRules.decide(ServingKind.STATEFUL_SET, "web", 2, replicas(1),
                Map.of("web-0", PodPhases.FAILED, "web-1", PodPhases.RUNNING), Set.of("web-1"));

        assertThat(decision.delete()).containsExactly("web-0", "web-1");
        assertThat(names(decision.create())).isEmpty();
        ServingRules.Decision next = ServingRules.decide(ServingKind.STATEFUL_SET, "web", 2, replicas(1), Map.of(), Set.of());
        assertThat(names(next.create())).containsExactly("web-0");
    }

    @Test
    void theStatusCountsReadyPodsAndForALeaderWorkerSetReadyGroups() {
        Map<String, Object> deployment = ServingRules.decide(ServingKind.DEPLOYMENT, "api", 3, replicas(2), Map.of(), Set.of()).status();
        assertThat(deployment).containsEntry("replicas", 2).containsEntry("readyReplicas", 0).containsEntry("observedGeneration", 3L);

        Map<String, Object> sts = ServingRules.decide(ServingKind.STATEFUL_SET, "web", 1, replicas(2),
                Map.of("web-0", PodPhases.RUNNING, "web-1", PodPhases.RUNNING), Set.of("web-0", "web-1")).status();
        assertThat(sts).containsEntry("readyReplicas", 2).containsEntry("availableReplicas", 2).containsEntry("currentReplicas", 2);

        Map<String, Object> groups = ServingRules.decide(ServingKind.LEADER_WORKER_SET, "llm", 1, lws(2, 2), Map.of(),
                Set.of("llm-0", "llm-0-1", "llm-1")).status();
        assertThat(groups).containsEntry("replicas", 2).containsEntry("readyReplicas", 1);
    }
}
