package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl pages lists and discovers the visibility API (issue 13): {@code --chunk-size}
 * follows continue tokens to the whole list, and {@code api-resources} lists Kueue's visibility group.
 */
@NeedsKubectl
class KubectlListsTest {
    private static final String WORKLOAD = """
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: Workload
            metadata:
              name: %s
              namespace: team-a
            spec:
              queueName: team-a-queue
              podSets:
              - name: main
                count: 1
                template:
                  spec:
                    containers:
                    - name: c
                      image: busybox
                      resources: {requests: {cpu: "1"}}
            """;

    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();
    static final Kubectl kubectl = Kubectl.on(harness);
    @TempDir
    static Path home;

    @Test
    void getWithAChunkSizeOfTwoFollowsTheContinueTokensToEveryWorkload() throws Exception {
        StringBuilder manifest = new StringBuilder();
        List<String> names = List.of("wl-1", "wl-2", "wl-3", "wl-4", "wl-5", "wl-6", "wl-7");
        for (String name : names) manifest.append(WORKLOAD.formatted(name)).append("---\n");
        kubectl.run("kubectl create -f " + Files.writeString(home.resolve("workloads.yaml"), manifest)).ok();

        Kubectl.Result paged = kubectl.run("kubectl get workloads -n team-a --chunk-size=2 -o name -v=6").ok();

        assertThat(paged.stdout().lines().toList())
                .containsExactlyElementsOf(names.stream().map(n -> "workload.kueue.x-k8s.io/" + n).toList());
        assertThat(paged.stderr()).as("kubectl asked for pages and followed a continue token").contains("limit=2", "continue=");

        Kubectl.Result table = kubectl.run("kubectl get workloads -n team-a --chunk-size=3").ok();
        assertThat(table.stdout().lines().filter(line -> line.startsWith("wl-")).count()).isEqualTo(7);
    }

    /**
     * As against Kueue's own visibility server, clusterqueues and localqueues carry no verbs (they
     * exist to hold pendingworkloads), so {@code kubectl api-resources} skips them; it must still read
     * the aggregated discovery without error, and {@code get --raw} shows the group and subresources.
     */
    @Test
    void discoveryShowsKueuesVisibilityGroupToKubectl() throws Exception {
        Kubectl.Result resources = kubectl.run("kubectl api-resources --api-group=visibility.kueue.x-k8s.io -v=6").ok();
        assertThat(resources.stderr()).as("kubectl read discovery in one aggregated request").containsPattern("GET \\S+/apis\\?timeout=\\S+ 200 OK")
                .doesNotContain("/apis/visibility.kueue.x-k8s.io/v1beta2 200");
        assertThat(kubectl.run("kubectl api-resources -o name").ok().stdout()).contains("workloads.kueue.x-k8s.io");

        String raw = kubectl.run("kubectl get --raw /apis/visibility.kueue.x-k8s.io/v1beta2").ok().stdout();
        assertThat(raw).contains("\"clusterqueues/pendingworkloads\"", "\"localqueues/pendingworkloads\"", "PendingWorkloadsSummary");
        assertThat(kubectl.run("kubectl get --raw /apis").ok().stdout()).contains("visibility.kueue.x-k8s.io");
        assertThat(kubectl.run("kubectl get --raw /apis/visibility.kueue.x-k8s.io").ok().stdout()).contains("\"preferredVersion\"");
    }
}
