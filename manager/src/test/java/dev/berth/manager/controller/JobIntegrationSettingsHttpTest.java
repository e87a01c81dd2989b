package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.model.Quantity;
import dev.berth.manager.objects.WorkloadResourcePolicy;
import dev.berth.manager.objects.WorkloadResourcePolicy.ResourceTransformation;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Kueue's Configuration settings for jobs, on a real manager over loopback HTTP: resources excluded by
 * prefix and transformed before they count against quota, LocalQueue defaulting, and
 * manageJobsWithoutQueueName within its namespace selector.
 */
class JobIntegrationSettingsHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final Duration BOUND = Duration.ofSeconds(10);

    /** Started by each test with its settings (the settings are the test's subject), closed after it. */
    private ManagerHarness harness;

    private void start(JobIntegrationSettings settings) throws Exception {
        harness = ManagerHarness.empty().fileStore().jobIntegration(settings);
        harness.start();
        assertThat(send("POST", "/api/v1/namespaces", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n").statusCode()).isEqualTo(201);
    }

    @AfterEach
    void stop() {
        if (harness != null) harness.close();
    }

    @Test
    void aResourceExcludedByPrefixDoesNotCountAndStaysInThePodTemplate() throws Exception {
        start(new JobIntegrationSettings(new WorkloadResourcePolicy(List.of("example.com/"), List.of()), ManagedJobsPolicy.DEFAULTS));
        queues("lq", "cpu", "4");

        created(send("POST", "/apis/batch/v1/namespaces/team/jobs", job("excluded", "lq", "cpu: 1\n            example.com/ignored: 1")));

        JsonNode workload = await().atMost(BOUND).until(this::onlyWorkload, w -> w != null && admitted(w));
        assertThat(workload.at("/status/admission/podSetAssignments/0/resourceUsage").has("example.com/ignored")).isFalse();
        assertThat(workload.at("/spec/podSets/0/template/spec/containers/0/resources/requests/example.com~1ignored").asText()).isEqualTo("1");
    }

    @Test
    void aWorkloadPendingAcrossARestartIsCountedWithTheNewSettings() throws Exception {
        start(JobIntegrationSettings.DEFAULTS);
        queues("lq", "cpu", "4");
        created(send("POST", "/apis/batch/v1/namespaces/team/jobs", job("excluded", "lq", "cpu: 1\n            example.com/ignored: 1")));
        await().atMost(BOUND).until(this::onlyWorkload, w -> w != null && quotaReserved(w) != null);
        assertThat(admitted(onlyWorkload())).isFalse();
        harness.restart(new JobIntegrationSettings(new WorkloadResourcePolicy(List.of("example.com/"), List.of()), ManagedJobsPolicy.DEFAULTS));

        await().atMost(BOUND).until(this::onlyWorkload, w -> w != null && admitted(w));
    }

    @Test
    void aTransformationCountsMigSlicesAsAcceleratorMemory() throws Exception {
        WorkloadResourcePolicy resources = new WorkloadResourcePolicy(List.of(), List.of(ResourceTransformation.of("nvidia.com/mig-1g.5gb",
                WorkloadResourcePolicy.Strategy.REPLACE, Map.of("example.com/accelerator-memory", "5Gi"))));
        start(new JobIntegrationSettings(resources, ManagedJobsPolicy.DEFAULTS));
        queues("lq", "example.com/accelerator-memory", "20Gi");

        created(send("POST", "/apis/batch/v1/namespaces/team/jobs", job("mig", "lq", "nvidia.com/mig-1g.5gb: 2")));

        JsonNode workload = await().atMost(BOUND).until(() -> workloadOf("mig"), w -> w != null && admitted(w));
        JsonNode usage = workload.at("/status/admission/podSetAssignments/0/resourceUsage");
        assertThat(usage.has("nvidia.com/mig-1g.5gb")).isFalse();
        assertThat(Quantity.parse(usage.path("example.com/accelerator-memory").asText())).isEqualByComparingTo(Quantity.parse("10Gi"));
        JsonNode flavorUsage = await().atMost(BOUND).until(() -> get(KUEUE + "/clusterqueues/cq").at("/status/flavorsUsage/0/resources/0"),
                r -> !r.path("total").asText().isEmpty() && !"0".equals(r.path("total").asText()));
        assertThat(flavorUsage.path("name").asText()).isEqualTo("example.com/accelerator-memory");
        assertThat(Quantity.parse(flavorUsage.path("total").asText())).isEqualByComparingTo(Quantity.parse("10Gi"));

        created(send("POST", "/apis/batch/v1/namespaces/team/jobs", job("mig-big", "lq", "nvidia.com/mig-1g.5gb: 3")));
        String reason = await().atMost(BOUND).until(() -> pendingMessage("mig-big"), m -> m.contains("insufficient"));
        assertThat(reason).contains("example.com/accelerator-memory").doesNotContain("nvidia.com/mig-1g.5gb");
    }

    private String pendingMessage(String jobName) throws Exception {
        for (JsonNode workload : get(KUEUE + "/namespaces/team/workloads").path("items")) {
            if (!workload.at("/metadata/ownerReferences/0/name").asText().equals(jobName)) continue;
            JsonNode condition = quotaReserved(workload);
            return condition == null ? "" : condition.path("message").asText();
        }
        return "";
    }

    @Test
    void aJobWithoutTheLabelInANamespaceWithALocalQueueNamedDefaultIsQueuedThere() throws Exception {
        start(JobIntegrationSettings.DEFAULTS);
        queues("default", "cpu", "4");

        HttpResponse<String> response = send("POST", "/apis/batch/v1/namespaces/team/jobs", job("plain", null, "cpu: 1"));

        created(response);
        assertThat(JSON.readTree(response.body()).at("/metadata/labels/kueue.x-k8s.io~1queue-name").asText()).isEqualTo("default");
        assertThat(JSON.readTree(response.body()).at("/spec/suspend").asBoolean()).isTrue();
        JsonNode workload = await().atMost(BOUND).until(this::onlyWorkload, w -> w != null && admitted(w));
        assertThat(workload.at("/spec/queueName").asText()).isEqualTo("default");
    }

    @Test
    void withoutTheSettingAJobWithoutTheLabelIsLeftAlone() throws Exception {
        start(JobIntegrationSettings.DEFAULTS);
        queues("lq", "cpu", "4");

        HttpResponse<String> response = send("POST", "/apis/batch/v1/namespaces/team/jobs", job("plain", null, "cpu: 1"));

        created(response);
        assertThat(JSON.readTree(response.body()).at("/spec/suspend").asBoolean(false)).isFalse();
        await().during(Duration.ofMillis(300)).atMost(BOUND).until(() -> onlyWorkload() == null);
    }

    @Test
    void manageJobsWithoutQueueNameSuspendsTheJobAndQueuesAWorkloadNoLocalQueueTakes() throws Exception {
        start(new JobIntegrationSettings(WorkloadResourcePolicy.NONE, new ManagedJobsPolicy(true, ManagedJobsPolicy.DEFAULT_NAMESPACE_SELECTOR)));
        queues("lq", "cpu", "4");

        HttpResponse<String> response = send("POST", "/apis/batch/v1/namespaces/team/jobs", job("plain", null, "cpu: 1"));

        created(response);
        assertThat(JSON.readTree(response.body()).at("/spec/suspend").asBoolean()).isTrue();
        JsonNode workload = await().atMost(BOUND).until(this::onlyWorkload, w -> w != null && quotaReserved(w) != null);
        assertThat(workload.at("/spec/queueName").asText("")).isEmpty();
        assertThat(quotaReserved(workload).path("status").asText()).isEqualTo("False");
        assertThat(quotaReserved(workload).path("message").asText()).isEqualTo("LocalQueue  doesn't exist");
        assertThat(get("/apis/batch/v1/namespaces/team/jobs/plain").at("/spec/suspend").asBoolean()).isTrue();
    }

    @Test
    void manageJobsWithoutQueueNameLeavesANamespaceOutsideTheSelectorAlone() throws Exception {
        start(new JobIntegrationSettings(WorkloadResourcePolicy.NONE, new ManagedJobsPolicy(true, ManagedJobsPolicy.DEFAULT_NAMESPACE_SELECTOR)));

        HttpResponse<String> response = send("POST", "/apis/batch/v1/namespaces/kube-system/jobs",
                job("plain", null, "cpu: 1").replace("namespace: team", "namespace: kube-system"));

        created(response);
        assertThat(JSON.readTree(response.body()).at("/spec/suspend").asBoolean(false)).isFalse();
        await().during(Duration.ofMillis(300)).atMost(BOUND)
                .until(() -> get(KUEUE + "/namespaces/kube-system/workloads").path("items").size() == 0);
    }

    @Test
    void manageJobsWithoutQueueNameGatesALabelLessPodAndGivesItAWorkload() throws Exception {
        start(new JobIntegrationSettings(WorkloadResourcePolicy.NONE, new ManagedJobsPolicy(true, ManagedJobsPolicy.DEFAULT_NAMESPACE_SELECTOR)));

        HttpResponse<String> response = send("POST", "/api/v1/namespaces/team/pods", pod("lone"));

        created(response);
        JsonNode pod = JSON.readTree(response.body());
        assertThat(pod.at("/spec/schedulingGates/0/name").asText()).isEqualTo("kueue.x-k8s.io/admission");
        assertThat(pod.at("/metadata/labels/kueue.x-k8s.io~1managed").asText()).isEqualTo("true");
        JsonNode workload = await().atMost(BOUND).until(this::onlyWorkload, w -> w != null && quotaReserved(w) != null);
        assertThat(quotaReserved(workload).path("message").asText()).isEqualTo("LocalQueue  doesn't exist");
    }

    @Test
    void aLabelLessPodInANamespaceWithALocalQueueNamedDefaultIsQueuedThere() throws Exception {
        start(JobIntegrationSettings.DEFAULTS);
        queues("default", "cpu", "4");

        HttpResponse<String> response = send("POST", "/api/v1/namespaces/team/pods", pod("lone"));

        created(response);
        assertThat(JSON.readTree(response.body()).at("/metadata/labels/kueue.x-k8s.io~1queue-name").asText()).isEqualTo("default");
        await().atMost(BOUND).until(this::onlyWorkload, w -> w != null && admitted(w));
    }

    private static String pod(String name) {
        return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  namespace: team\nspec:\n  containers:\n"
                + "  - name: main\n    image: busybox\n    resources:\n      requests:\n        cpu: 1\n";
    }

    private void queues(String localQueue, String resource, String quota) throws Exception {
        created(send("POST", KUEUE + "/resourceflavors", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: f\n"));
        created(send("POST", KUEUE + "/clusterqueues", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: cq\nspec:\n"
                + "  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [" + resource + "]\n    flavors:\n"
                + "    - name: f\n      resources:\n      - name: " + resource + "\n        nominalQuota: " + quota + "\n"));
        created(send("POST", KUEUE + "/namespaces/team/localqueues", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n"
                + "  name: " + localQueue + "\n  namespace: team\nspec:\n  clusterQueue: cq\n"));
    }

    private static String job(String name, String queue, String requests) {
        return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name + "\n  namespace: team\n"
                + (queue == null ? "" : "  labels:\n    kueue.x-k8s.io/queue-name: " + queue + "\n")
                + "spec:\n  template:\n    spec:\n      containers:\n"
                + "      - name: main\n        image: busybox\n        resources:\n          requests:\n            " + requests + "\n"
                + "      restartPolicy: Never\n";
    }

    private JsonNode onlyWorkload() throws Exception {
        return workloadOf(null);
    }

    /** The workload of the named job, or with null the namespace's only workload. */
    private JsonNode workloadOf(String jobName) throws Exception {
        JsonNode items = get(KUEUE + "/namespaces/team/workloads").path("items");
        if (jobName != null) {
            for (JsonNode item : items) if (item.at("/metadata/ownerReferences/0/name").asText().equals(jobName)) return item;
            return null;
        }
        assertThat(items.size()).isLessThanOrEqualTo(1);
        return items.size() == 0 ? null : items.get(0);
    }

    private static boolean admitted(JsonNode workload) {
        for (JsonNode condition : workload.path("status").path("conditions")) {
            if (condition.path("type").asText().equals("Admitted")) return condition.path("status").asText().equals("True");
        }
        return false;
    }

    private static JsonNode quotaReserved(JsonNode workload) {
        for (JsonNode condition : workload.path("status").path("conditions")) {
            if (condition.path("type").asText().equals("QuotaReserved")) return condition;
        }
        return null;
    }

    private static void created(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }

    private JsonNode get(String path) throws Exception {
        return JSON.readTree(send("GET", path, null).body());
    }

    private HttpResponse<String> send(String method, String path, String yaml) throws Exception {
        return harness.client().send(method, path, yaml == null ? null : "application/yaml", yaml);
    }
}
