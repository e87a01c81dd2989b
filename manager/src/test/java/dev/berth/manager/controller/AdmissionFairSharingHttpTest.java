package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.core.AdmissionFairSharing;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Admission fair sharing over real HTTP on loopback: a ClusterQueue with admissionScope and a
 * LocalQueue with fairSharing.weight pass the Kueue schema and keep those fields, and once a Job of the
 * LocalQueue is admitted its status shows Kueue's fairSharing.admissionFairSharingStatus with the
 * entry penalty in consumedResources.
 */
class AdmissionFairSharingHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().fileStore().schedulerOptions(SchedulerOptions.DEFAULTS.withAdmissionFairSharing(
            new AdmissionFairSharing(Duration.ofMinutes(10), Duration.ofMinutes(5), Map.of("cpu", 1.0))));

    @BeforeEach
    void start() throws Exception {
        assertThat(send("POST", "/api/v1/namespaces", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: afs\n").statusCode())
                .isEqualTo(201);
    }

    @Test
    void aLocalQueueShowsItsConsumedResourcesAfterAnAdmission() throws Exception {
        assertThat(send("POST", KUEUE + "/resourceflavors",
                "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: default\n").statusCode()).isEqualTo(201);
        assertThat(send("POST", KUEUE + "/clusterqueues", """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata:
                  name: shared
                spec:
                  namespaceSelector: {}
                  admissionScope:
                    admissionMode: UsageBasedAdmissionFairSharing
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors:
                    - name: default
                      resources:
                      - name: cpu
                        nominalQuota: 4
                """).statusCode()).isEqualTo(201);
        assertThat(send("POST", KUEUE + "/namespaces/afs/localqueues", """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: LocalQueue
                metadata:
                  name: lq
                  namespace: afs
                spec:
                  clusterQueue: shared
                  fairSharing:
                    weight: "2"
                """).statusCode()).isEqualTo(201);
        assertThat(JSON.readTree(send("GET", KUEUE + "/clusterqueues/shared", null).body())
                .at("/spec/admissionScope/admissionMode").asText()).isEqualTo("UsageBasedAdmissionFairSharing");
        assertThat(JSON.readTree(send("GET", KUEUE + "/namespaces/afs/localqueues/lq", null).body())
                .at("/spec/fairSharing/weight").asText()).isEqualTo("2");

        JsonNode before = await().atMost(Duration.ofSeconds(10)).until(this::admissionFairSharingStatus, s -> !s.isMissingNode());
        assertThat(before.path("consumedResources").size()).isZero();
        assertThat(before.path("lastUpdate").asText()).isNotEmpty();

        assertThat(send("POST", "/apis/batch/v1/namespaces/afs/jobs", """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: first
                  namespace: afs
                  labels:
                    kueue.x-k8s.io/queue-name: lq
                spec:
                  suspend: true
                  template:
                    spec:
                      restartPolicy: Never
                      containers:
                      - name: main
                        image: busybox
                        resources:
                          requests:
                            cpu: 1
                """).statusCode()).isEqualTo(201);
        // The entry penalty, 1 cpu * (1 - 0.5^(5m / 10m)) = 293m, charged when the Job is admitted, plus the
        // few millicores the decay adds for the seconds the admitted Job counts since the LocalQueue's last sample.
        JsonNode after = await().atMost(Duration.ofSeconds(10)).until(this::admissionFairSharingStatus,
                s -> s.path("consumedResources").has("cpu"));
        String cpu = after.path("consumedResources").path("cpu").asText();
        assertThat(cpu).matches("[0-9]+m");
        assertThat(Long.parseLong(cpu.substring(0, cpu.length() - 1))).isBetween(293L, 310L);
    }

    private JsonNode admissionFairSharingStatus() throws Exception {
        HttpResponse<String> response = send("GET", KUEUE + "/namespaces/afs/localqueues/lq", null);
        return JSON.readTree(response.body()).at("/status/fairSharing/admissionFairSharingStatus");
    }

    private HttpResponse<String> send(String method, String path, String yaml) throws Exception {
        return harness.client().send(method, path, yaml == null ? null : "application/yaml", yaml);
    }
}
