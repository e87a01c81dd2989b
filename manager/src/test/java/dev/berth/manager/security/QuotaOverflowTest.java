package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorQuotas;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.LabelSelector;
import dev.berth.manager.model.Preemption;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.QueueingStrategy;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.manager.model.ResourceQuota;
import dev.berth.manager.model.StopPolicy;
import dev.berth.manager.model.FlavorFungibility;
import dev.berth.manager.scheduling.QuotaTree;
import dev.berth.manager.security.SecureManager.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Requests whose total a long cannot hold (issue 12, class 2), sent over HTTPS: 422 naming the field
 * that overflows the total, never a 500, and nothing stored. The random side is {@link QuotaOverflowPropertyTest}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QuotaOverflowTest {
    static final String HUGE_CPU = "4611686018402387.904";

    @TempDir
    static Path dir;
    SecureManager api;

    @BeforeAll
    void start() throws Exception {
        api = new SecureManager(dir, SecurityOptions.DEFAULT_TENANT_RATE, Optional.empty());
    }

    @AfterAll
    void stop() throws Exception {
        api.close();
    }

    record Overflow(String what, String token, String path, String body, String field) {
        @Override
        public String toString() {
            return what;
        }
    }

    static Stream<Overflow> overflows() {
        String workloads = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads";
        return Stream.of(
                new Overflow("count 4 x 4.6e15 cpu (the reported attack)", SecureManager.ALICE, workloads,
                        workload("w1", 4, container("c", HUGE_CPU)), "spec.podSets[0].count"),
                new Overflow("two containers of 5e15 cpu (was a 500)", SecureManager.ALICE, workloads,
                        workload("w2", 1, container("a", "5e15") + container("b", "5e15")),
                        "spec.podSets[0].template.spec.containers[1].resources.requests.cpu"),
                new Overflow("a container and pod overhead", SecureManager.ALICE, workloads,
                        workload("w3", 1, container("a", "9e15")).replace("        containers:", "        overhead: {cpu: \"9e15\"}\n        containers:"),
                        "spec.podSets[0].template.spec.overhead.cpu"),
                new Overflow("two pod sets that each fit", SecureManager.ALICE, workloads,
                        workload("w4", 1, container("a", "5e15")).replace("  podSets:\n", "  podSets:\n  - name: other\n    count: 1\n"
                                + "    template:\n      spec:\n        containers:\n        - name: x\n          resources:\n"
                                + "            requests: {cpu: \"5e15\"}\n"), "spec.podSets[1].count"),
                new Overflow("a Job's parallelism", SecureManager.ALICE, "/apis/batch/v1/namespaces/team-a/jobs",
                        TenantAuthorizationTest.job("j1", "").replace("parallelism: 1\n  completions: 1", "parallelism: 4")
                                .replace("{cpu: 1}", "{cpu: \"" + HUGE_CPU + "\"}"), "spec.parallelism"),
                new Overflow("a JobSet's replicas", SecureManager.ALICE, "/apis/jobset.x-k8s.io/v1alpha2/namespaces/team-a/jobsets",
                        jobSet("js1", 4, HUGE_CPU), "spec.replicatedJobs[0].replicas"),
                new Overflow("a JobSet's replicas x parallelism beyond an int", SecureManager.ALICE,
                        "/apis/jobset.x-k8s.io/v1alpha2/namespaces/team-a/jobsets", jobSet("js2", 2147483647, "1")
                                .replace("parallelism: 1", "parallelism: 2"), "spec.replicatedJobs[0].replicas"),
                new Overflow("a pod group whose total count overflows", SecureManager.ADMIN, "/api/v1/namespaces/team-a/pods",
                        groupPod("p1", 4, HUGE_CPU), "metadata.annotations[kueue.x-k8s.io/pod-group-total-count]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("overflows")
    void aTotalThatCannotBeRepresentedIsRefusedWith422NamingTheField(Overflow overflow) throws Exception {
        List<String> before = api.contents();
        Reply reply = api.send("POST", overflow.path(), overflow.token(), "application/yaml", overflow.body());

        assertThat(reply.code()).as(reply.body().toString()).isEqualTo(422);
        List<String> fields = new ArrayList<>();
        for (JsonNode cause : reply.body().path("details").path("causes")) fields.add(cause.path("field").asText());
        assertThat(fields).as(reply.body().toString()).contains(overflow.field());
        assertThat(api.contents()).isEqualTo(before);
    }

    @Test
    void theLargestRepresentableWorkloadIsStillAccepted() throws Exception {
        Reply reply = api.send("POST", "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads", SecureManager.ALICE,
                "application/yaml", workload("fits", 2, container("c", "4611686018427387.903")));
        assertThat(reply.code()).as(reply.body().toString()).isEqualTo(201);
    }

    /** Three ClusterQueues of nearly 2^63 millicores each: the cohort's sum saturates instead of wrapping negative. */
    @Test
    void aCohortOfHugeNominalQuotasSaturatesInsteadOfWrapping() {
        long huge = 9_000_000_000_000_000_000L;
        List<ClusterQueueSpec> queues = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            queues.add(new ClusterQueueSpec("cq" + i, "pool", List.of(new ResourceGroup(List.of("cpu"),
                    List.of(new FlavorQuotas("f", List.of(new ResourceQuota("cpu", huge, null, null)))))),
                    QueueingStrategy.BEST_EFFORT_FIFO, LabelSelector.EVERYTHING, FlavorFungibility.DEFAULT,
                    new Preemption(PreemptionPolicy.NEVER, PreemptionPolicy.NEVER, PreemptionPolicy.NEVER, null), List.of(), StopPolicy.NONE, 1));
        }
        QuotaTree tree = QuotaTree.build(queues, List.of());
        FlavorResource cpu = new FlavorResource("f", "cpu");

        assertThat(tree.potentialAvailable("cq0", cpu)).isEqualTo(Long.MAX_VALUE);
        assertThat(tree.available("cq0", cpu)).isEqualTo(Long.MAX_VALUE);
        tree.addUsage("cq1", Map.of(cpu, huge));
        tree.addUsage("cq2", Map.of(cpu, huge));
        assertThat(tree.available("cq0", cpu)).isBetween(0L, Long.MAX_VALUE);
        assertThat(tree.fits("cq0", Map.of(cpu, Long.MAX_VALUE), true)).isFalse();
        assertThat(tree.usage("cq1", cpu)).isEqualTo(huge);
    }

    static String workload(String name, int count, String containers) {
        return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: " + name + "\nspec:\n  queueName: team-queue\n"
                + "  podSets:\n  - name: main\n    count: " + count + "\n    template:\n      spec:\n        containers:\n" + containers;
    }

    static String container(String name, String cpu) {
        return "        - name: " + name + "\n          resources:\n            requests: {cpu: \"" + cpu + "\"}\n";
    }

    static String jobSet(String name, int replicas, String cpu) {
        return "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata:\n  name: " + name + "\n  labels:\n"
                + "    kueue.x-k8s.io/queue-name: team-queue\nspec:\n  replicatedJobs:\n  - name: workers\n    replicas: " + replicas + "\n"
                + "    template:\n      spec:\n        parallelism: 1\n        template:\n          spec:\n            restartPolicy: Never\n"
                + "            containers:\n            - name: c\n              resources:\n                requests: {cpu: \"" + cpu + "\"}\n";
    }

    static String groupPod(String name, int total, String cpu) {
        return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  labels:\n    kueue.x-k8s.io/queue-name: team-queue\n"
                + "    kueue.x-k8s.io/pod-group-name: g\n  annotations:\n    kueue.x-k8s.io/pod-group-total-count: \"" + total + "\"\n"
                + "spec:\n  containers:\n  - name: c\n    resources:\n      requests: {cpu: \"" + cpu + "\"}\n";
    }
}
