package dev.berth.agent;

import static dev.berth.agent.Fixtures.a100;
import static dev.berth.agent.Templates.podSet;
import static dev.berth.agent.Templates.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplateRendererTest {
    private static final AttemptOwner OWNER = new AttemptOwner("team-b", "job-train", "uid-1", "att-1", "job-train");

    @SuppressWarnings("unchecked")
    private static Map<String, Object> at(Map<String, Object> map, String... path) {
        Map<String, Object> current = map;
        for (String key : path) current = (Map<String, Object>) current.get(key);
        return current;
    }

    @Test
    void jobIsUnsuspendedPinnedToItsFlavorLabelledAndOwned() {
        RemoteWorkloadSpec spec = spec("att-1", 1, Templates.job("train", 2, "4"), a100(), podSet("main", 2, "4", "a100"));

        List<RenderedObject> objects = TemplateRenderer.render(OWNER, spec);

        assertThat(objects).singleElement().satisfies(o -> {
            assertThat(o.kind()).isEqualTo("Job");
            assertThat(o.plural()).isEqualTo("jobs");
            assertThat(o.name()).isEqualTo("train");
            Map<String, Object> body = o.body();
            assertThat(body).doesNotContainKey("status");
            assertThat(at(body, "metadata")).containsEntry("namespace", "team-b").doesNotContainKey("resourceVersion");
            assertThat(at(body, "metadata", "labels")).containsEntry(Labels.REMOTE_WORKLOAD, "job-train")
                    .containsEntry(Labels.ATTEMPT_ID, "att-1").containsEntry(Labels.WORKLOAD_NAME, "job-train")
                    .doesNotContainKey(Labels.QUEUE_NAME);
            assertThat((List<Object>) at(body, "metadata").get("ownerReferences")).singleElement().isEqualTo(Map.of(
                    "apiVersion", "berth.dev/v1alpha1", "kind", "RemoteWorkload", "name", "job-train", "uid", "uid-1",
                    "controller", true, "blockOwnerDeletion", true));
            assertThat(at(body, "spec")).containsEntry("suspend", false);
            assertThat(at(body, "spec", "template", "metadata", "labels")).containsEntry("app", "train").containsEntry(Labels.ATTEMPT_ID, "att-1");
            Map<String, Object> podSpec = at(body, "spec", "template", "spec");
            assertThat(at(podSpec, "nodeSelector")).isEqualTo(Map.of("topology.kubernetes.io/zone", "z1",
                    "nvidia.com/gpu.product", Fixtures.A100));
            assertThat((List<Object>) podSpec.get("tolerations")).containsExactly(Map.of("key", "nvidia.com/gpu", "operator", "Exists", "effect", "NoSchedule"));
        });
        assertThat(at(spec.getTemplate(), "spec")).as("the spec's template is not changed").containsEntry("suspend", true);
    }

    @Test
    void jobSetPinsEachReplicatedJobToItsPodSetsFlavor() {
        var cpu = Fixtures.flavor("cpu").label("node-role", "cpu").build();
        RemoteWorkloadSpec spec = spec("att-1", 1, Templates.jobSet("js"), a100(), podSet("driver", 1, "0", "cpu"), podSet("workers", 1, "8", "a100"));
        spec.getFlavors().add(cpu);

        RenderedObject jobSet = TemplateRenderer.render(OWNER, spec).get(0);

        assertThat(jobSet.kind()).isEqualTo("JobSet");
        assertThat(jobSet.apiVersion()).isEqualTo("jobset.x-k8s.io/v1alpha2");
        assertThat(at(jobSet.body(), "spec")).containsEntry("suspend", false);
        List<Map<String, Object>> replicated = (List<Map<String, Object>>) at(jobSet.body(), "spec").get("replicatedJobs");
        assertThat(at(replicated.get(0), "template", "spec", "template", "spec", "nodeSelector")).isEqualTo(Map.of("node-role", "cpu"));
        assertThat(at(replicated.get(1), "template", "spec", "template", "spec", "nodeSelector"))
                .isEqualTo(Map.of("nvidia.com/gpu.product", Fixtures.A100));
    }

    @Test
    void pyTorchJobRunsUnsuspendedWithoutTheManagersManagedByEachReplicaPinnedToItsPodSetsFlavor() {
        var cpu = Fixtures.flavor("cpu").label("node-role", "cpu").build();
        RemoteWorkloadSpec spec = spec("att-1", 1, Templates.pyTorchJob("mnist"), a100(), podSet("master", 1, "0", "cpu"),
                podSet("worker", 2, "8", "a100"));
        spec.getFlavors().add(cpu);

        RenderedObject job = TemplateRenderer.render(OWNER, spec).get(0);

        assertThat(job.kind()).isEqualTo("PyTorchJob");
        assertThat(job.apiVersion()).isEqualTo("kubeflow.org/v1");
        assertThat(job.plural()).isEqualTo("pytorchjobs");
        assertThat(at(job.body(), "spec")).doesNotContainKey("suspend");
        assertThat(at(job.body(), "spec", "runPolicy")).isEqualTo(Map.of("suspend", false));
        assertThat(at(job.body(), "metadata", "labels")).containsEntry(Labels.ATTEMPT_ID, "att-1").doesNotContainKey(Labels.QUEUE_NAME);
        assertThat(at(job.body(), "spec", "pytorchReplicaSpecs", "Master", "template", "spec", "nodeSelector")).isEqualTo(Map.of("node-role", "cpu"));
        assertThat(at(job.body(), "spec", "pytorchReplicaSpecs", "Worker", "template", "spec", "nodeSelector"))
                .isEqualTo(Map.of("nvidia.com/gpu.product", Fixtures.A100));
        assertThat(at(job.body(), "spec", "pytorchReplicaSpecs", "Worker", "template", "metadata", "labels"))
                .containsEntry(Labels.ATTEMPT_ID, "att-1");
        assertThat(at(spec.getTemplate(), "spec", "runPolicy")).as("the spec's template is not changed")
                .containsEntry("managedBy", "kueue.x-k8s.io/multikueue");
    }

    @Test
    void rayJobRunsUnsuspendedWithoutManagedByWithKubeRaysDefaultSubmitterAndEachPodSetPinned() {
        var cpu = Fixtures.flavor("cpu").label("node-role", "cpu").build();
        RemoteWorkloadSpec spec = spec("att-1", 1, Templates.rayJob("sum"), a100(), podSet("head", 1, "0", "cpu"),
                podSet("gpu", 2, "8", "a100"), podSet("submitter", 1, "0", "cpu"));
        spec.getFlavors().add(cpu);

        RenderedObject job = TemplateRenderer.render(OWNER, spec).get(0);

        assertThat(job.kind()).isEqualTo("RayJob");
        assertThat(job.apiVersion()).isEqualTo("ray.io/v1");
        assertThat(job.plural()).isEqualTo("rayjobs");
        assertThat(at(job.body(), "spec")).containsEntry("suspend", false).doesNotContainKey("managedBy");
        assertThat(at(job.body(), "metadata", "labels")).containsEntry(Labels.ATTEMPT_ID, "att-1").doesNotContainKey(Labels.QUEUE_NAME);
        assertThat(at(job.body(), "spec", "rayClusterSpec", "headGroupSpec", "template", "spec", "nodeSelector"))
                .isEqualTo(Map.of("node-role", "cpu"));
        @SuppressWarnings("unchecked")
        Map<String, Object> workers = (Map<String, Object>) ((List<?>) at(job.body(), "spec", "rayClusterSpec").get("workerGroupSpecs")).get(0);
        assertThat(at(workers, "template", "spec", "nodeSelector")).isEqualTo(Map.of("nvidia.com/gpu.product", Fixtures.A100));
        assertThat(at(workers, "template", "metadata", "labels")).containsEntry(Labels.ATTEMPT_ID, "att-1");
        assertThat(at(job.body(), "spec", "submitterPodTemplate", "spec", "nodeSelector")).as("Kueue's default submitter, pinned too")
                .isEqualTo(Map.of("node-role", "cpu"));
        assertThat(at(job.body(), "spec", "submitterPodTemplate", "metadata", "labels")).containsEntry(Labels.ATTEMPT_ID, "att-1");
        assertThat(at(spec.getTemplate(), "spec")).as("the spec's template is not changed").doesNotContainKey("submitterPodTemplate");
    }

    @Test
    void trainJobGoesWithItsRuntimeUnsuspendedWithoutManagedByAndIsAdmittedAsItsRuntimesJobSet() {
        String runtime = "{\"apiVersion\":\"trainer.kubeflow.org/v1alpha1\",\"kind\":\"ClusterTrainingRuntime\","
                + "\"metadata\":{\"name\":\"torch\"},\"spec\":{\"template\":{\"spec\":{\"replicatedJobs\":[{\"name\":\"node\","
                + "\"template\":{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"node\"}]}}}}}]}}}}";
        Map<String, Object> trainJob = new java.util.LinkedHashMap<>(Map.of("apiVersion", "trainer.kubeflow.org/v1alpha1", "kind", "TrainJob",
                "metadata", new java.util.LinkedHashMap<>(Map.of("name", "tj",
                        "labels", new java.util.LinkedHashMap<>(Map.of("kueue.x-k8s.io/queue-name", "lq")),
                        "annotations", new java.util.LinkedHashMap<>(Map.of(dev.berth.protocol.TrainerApi.RUNTIME_ANNOTATION, runtime)))),
                "spec", new java.util.LinkedHashMap<>(Map.of("suspend", true, "managedBy", "kueue.x-k8s.io/multikueue",
                        "runtimeRef", Map.of("name", "torch"),
                        "trainer", Map.of("numNodes", 2, "resourcesPerNode", Map.of("requests", Map.of("nvidia.com/gpu", "1")))))));
        RemoteWorkloadSpec spec = spec("att-1", 1, trainJob, a100(), podSet("node", 2, "1", "a100"));

        List<TemplatePods.Slot> slots = TemplatePods.of(spec.getTemplate(), spec.getPodSets());
        List<RenderedObject> objects = TemplateRenderer.render(OWNER, spec);

        assertThat(slots).singleElement().satisfies(slot -> {
            assertThat(slot.podSet()).isEqualTo("node");
            assertThat(slot.podTemplate().toString()).as("resourcesPerNode on the node container").contains("nvidia.com/gpu=1");
        });
        assertThat(objects).extracting(RenderedObject::kind).containsExactly("ClusterTrainingRuntime", "TrainJob");
        RenderedObject created = objects.get(0);
        assertThat(created.plural()).isEqualTo("clustertrainingruntimes");
        assertThat(at(created.body(), "metadata")).as("cluster-scoped and not the attempt's").doesNotContainKey("namespace")
                .doesNotContainKey("labels");
        RenderedObject job = objects.get(1);
        assertThat(job.plural()).isEqualTo("trainjobs");
        assertThat(at(job.body(), "spec")).containsEntry("suspend", false).doesNotContainKey("managedBy");
        assertThat(at(job.body(), "metadata", "labels")).containsEntry(Labels.ATTEMPT_ID, "att-1").doesNotContainKey(Labels.QUEUE_NAME);
        assertThat(at(job.body(), "metadata", "annotations")).doesNotContainKey(dev.berth.protocol.TrainerApi.RUNTIME_ANNOTATION);
        @SuppressWarnings("unchecked")
        Map<String, Object> override = (Map<String, Object>) ((List<?>) at(job.body(), "spec").get("podTemplateOverrides")).get(0);
        assertThat(override.get("targetJobs")).isEqualTo(List.of(Map.of("name", "node")));
        assertThat(at(override, "spec", "nodeSelector")).as("the node pods pinned to their flavor through the Trainer")
                .isEqualTo(Map.of("nvidia.com/gpu.product", Fixtures.A100));
        assertThat(at(override, "metadata", "labels")).containsEntry(Labels.ATTEMPT_ID, "att-1");
    }

    @Test
    void leaderWorkerSetRunsAsCreatedWithNoSuspendSwitchItsLeaderAndWorkersPinnedToTheirPodSetsFlavors() {
        var cpu = Fixtures.flavor("cpu").label("node-role", "cpu").build();
        RemoteWorkloadSpec spec = spec("att-1", 1, Templates.leaderWorkerSet("llm"), a100(), podSet("leader", 1, "0", "cpu"),
                podSet("worker", 2, "8", "a100"));
        spec.getFlavors().add(cpu);

        RenderedObject lws = TemplateRenderer.render(OWNER, spec).get(0);

        assertThat(lws.kind()).isEqualTo("LeaderWorkerSet");
        assertThat(lws.apiVersion()).isEqualTo("leaderworkerset.x-k8s.io/v1");
        assertThat(lws.plural()).isEqualTo("leaderworkersets");
        assertThat(at(lws.body(), "spec")).doesNotContainKey("suspend");
        assertThat(at(lws.body(), "metadata", "labels")).containsEntry(Labels.ATTEMPT_ID, "att-1").doesNotContainKey(Labels.QUEUE_NAME);
        assertThat(at(lws.body(), "spec", "leaderWorkerTemplate", "leaderTemplate", "spec", "nodeSelector")).isEqualTo(Map.of("node-role", "cpu"));
        assertThat(at(lws.body(), "spec", "leaderWorkerTemplate", "workerTemplate", "spec", "nodeSelector"))
                .isEqualTo(Map.of("nvidia.com/gpu.product", Fixtures.A100));
        assertThat(at(lws.body(), "spec", "leaderWorkerTemplate", "workerTemplate", "metadata", "labels")).containsEntry(Labels.ATTEMPT_ID, "att-1");
    }

    @Test
    @SuppressWarnings("unchecked")
    void appWrapperRunsUnsuspendedWithoutManagedByEachDeclaredPodSetPinnedThroughItsPath() {
        var cpu = Fixtures.flavor("cpu").label("node-role", "cpu").build();
        RemoteWorkloadSpec spec = spec("att-1", 1, Templates.appWrapper("aw"), a100(), podSet("aw-0", 1, "0", "cpu"),
                podSet("aw-1", 1, "0", "cpu"), podSet("aw-2", 2, "8", "a100"));
        spec.getFlavors().add(cpu);

        RenderedObject appWrapper = TemplateRenderer.render(OWNER, spec).get(0);

        assertThat(appWrapper.kind()).isEqualTo("AppWrapper");
        assertThat(appWrapper.apiVersion()).isEqualTo("workload.codeflare.dev/v1beta2");
        assertThat(appWrapper.plural()).isEqualTo("appwrappers");
        assertThat(at(appWrapper.body(), "spec")).containsEntry("suspend", false).doesNotContainKey("managedBy");
        assertThat(at(appWrapper.body(), "metadata", "labels")).containsEntry(Labels.ATTEMPT_ID, "att-1").doesNotContainKey(Labels.QUEUE_NAME);
        List<Map<String, Object>> components = (List<Map<String, Object>>) at(appWrapper.body(), "spec").get("components");
        assertThat(at(components.get(0), "template", "spec", "nodeSelector")).isEqualTo(Map.of("node-role", "cpu"));
        assertThat(at(components.get(0), "template", "metadata", "labels")).containsEntry(Labels.ATTEMPT_ID, "att-1");
        Map<String, Object> replicas = at(components.get(1), "template", "spec", "pytorchReplicaSpecs");
        assertThat(at(replicas, "Master", "template", "spec", "nodeSelector")).isEqualTo(Map.of("node-role", "cpu"));
        assertThat(at(replicas, "Worker", "template", "spec", "nodeSelector")).isEqualTo(Map.of("nvidia.com/gpu.product", Fixtures.A100));
        assertThat(at(replicas, "Worker", "template", "metadata", "labels")).containsEntry(Labels.ATTEMPT_ID, "att-1");
    }

    @Test
    void podGroupBecomesOnePodEachWithoutKueuesGate() {
        RemoteWorkloadSpec spec = spec("att-1", 1, Templates.podList(2), a100(), podSet("main", 2, "1", "a100"));

        List<RenderedObject> pods = TemplateRenderer.render(OWNER, spec);

        assertThat(pods).extracting(RenderedObject::name).containsExactly("p-0", "p-1");
        assertThat(pods).allSatisfy(p -> {
            assertThat(p.kind()).isEqualTo("Pod");
            assertThat(at(p.body(), "spec")).doesNotContainKey("schedulingGates").doesNotContainKey("suspend");
            assertThat(at(p.body(), "metadata", "labels")).containsEntry(Labels.ATTEMPT_ID, "att-1");
        });
    }

    @Test
    void unsupportedKindsAreRecognised() {
        assertThat(TemplateRenderer.canRender(spec("a", 1, Map.of("kind", "SparkApplication"), a100()))).isFalse();
        assertThat(TemplateRenderer.canRender(spec("a", 1, null, a100()))).isFalse();
    }

    @Test
    void podTolerationsFromTheTemplateCountForAdmission() {
        var template = Templates.job("train", 1, "1");
        at(template, "spec", "template", "spec").put("tolerations", List.of(Map.of("key", "nvidia.com/gpu", "operator", "Exists")));
        var h100 = Fixtures.h100WithoutToleration();

        List<PodDemand> demands = AttemptDemand.of(spec("a", 1, template, h100, podSet("main", 1, "1", "h100")));

        assertThat(demands).singleElement().satisfies(d -> {
            assertThat(d.count()).isEqualTo(1);
            assertThat(d.requests()).containsEntry("nvidia.com/gpu", 1L).containsEntry("pods", 1L);
            assertThat(d.requirement().tolerations()).hasSize(1);
        });
    }
}
