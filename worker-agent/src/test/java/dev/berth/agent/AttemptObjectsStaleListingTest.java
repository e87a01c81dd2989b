package dev.berth.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.Labels;
import dev.berth.virtualcluster.ClusterProfile;
import dev.berth.virtualcluster.VirtualCluster;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent deletes what a pass listed by name; the listing may be older than an object another attempt created under
 * the same name since (a rescaled Deployment's next copy, a StatefulSet's pod). Against a virtual cluster's API server,
 * which holds a delete to its preconditions as kube-apiserver does.
 */
class AttemptObjectsStaleListingTest {
    private VirtualCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) cluster.close();
    }

    @Test
    void aStaleListingNeverDeletesTheNextAttemptsObjectOrPodUnderTheSameName(@TempDir Path dir) {
        cluster = VirtualCluster.start("vc", ClusterProfile.parse("a100:1x8"), dir, false, Duration.ofHours(1));
        KubernetesClient client = cluster.client();
        var deployments = client.genericKubernetesResources("apps/v1", "Deployment").inNamespace("default");
        var pods = client.pods().inNamespace("default");
        GenericKubernetesResource oldCopy = deployments.resource(deployment("old-attempt")).create();
        Pod oldPod = pods.resource(pod("old-attempt")).create();
        deployments.withName("vllm-server").delete();
        pods.withName("triton-0").delete();
        deployments.resource(deployment("new-attempt")).create();
        pods.resource(pod("new-attempt")).create();

        Map<String, Object> listed = client.getKubernetesSerialization().convertValue(oldCopy, Map.class);
        new AttemptObjects(client, Optional.empty()).deleteListed(List.of(listed), List.of(oldPod));

        assertThat(deployments.withName("vllm-server").get().getMetadata().getLabels()).containsEntry(Labels.ATTEMPT_ID, "new-attempt");
        assertThat(pods.withName("triton-0").get().getMetadata().getLabels()).containsEntry(Labels.ATTEMPT_ID, "new-attempt");

        GenericKubernetesResource current = deployments.withName("vllm-server").get();
        new AttemptObjects(client, Optional.empty()).deleteListed(
                List.of(client.getKubernetesSerialization().convertValue(current, Map.class)), List.of(pods.withName("triton-0").get()));
        assertThat(deployments.withName("vllm-server").get()).as("what the listing showed is deleted").isNull();
        assertThat(pods.withName("triton-0").get()).isNull();
    }

    private static GenericKubernetesResource deployment(String attempt) {
        return new GenericKubernetesResourceBuilder().withApiVersion("apps/v1").withKind("Deployment")
                .withNewMetadata().withName("vllm-server").withNamespace("default").addToLabels(Labels.ATTEMPT_ID, attempt).endMetadata()
                .addToAdditionalProperties("spec", Map.of("replicas", 0)).build();
    }

    private static Pod pod(String attempt) {
        return new PodBuilder().withNewMetadata().withName("triton-0").withNamespace("default").addToLabels(Labels.ATTEMPT_ID, attempt)
                .endMetadata().withNewSpec().addNewContainer().withName("main").withImage("triton:1").endContainer().endSpec().build();
    }
}
