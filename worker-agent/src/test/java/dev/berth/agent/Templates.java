package dev.berth.agent;

import dev.berth.protocol.crd.FlavorDefinition;
import dev.berth.protocol.crd.PodSetPlacement;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Submitted objects as the manager embeds them in a RemoteWorkload's template. */
final class Templates {
    private Templates() {}

    static Map<String, Object> job(String name, int parallelism, String gpus) {
        Map<String, Object> container = new LinkedHashMap<>(Map.of("name", "train", "image", "trainer:1",
                "resources", Map.of("requests", Map.of("nvidia.com/gpu", gpus))));
        Map<String, Object> podSpec = new LinkedHashMap<>();
        podSpec.put("restartPolicy", "Never");
        podSpec.put("containers", new ArrayList<>(List.of(container)));
        podSpec.put("nodeSelector", new LinkedHashMap<>(Map.of("topology.kubernetes.io/zone", "z1")));
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("suspend", true);
        spec.put("parallelism", parallelism);
        spec.put("completions", parallelism);
        spec.put("template", new LinkedHashMap<>(Map.of("metadata", new LinkedHashMap<>(Map.of("labels", new LinkedHashMap<>(Map.of("app", "train")))),
                "spec", podSpec)));
        Map<String, Object> job = new LinkedHashMap<>();
        job.put("apiVersion", "batch/v1");
        job.put("kind", "Job");
        job.put("metadata", new LinkedHashMap<>(Map.of("name", name, "namespace", "team-a", "resourceVersion", "42",
                "labels", new LinkedHashMap<>(Map.of("kueue.x-k8s.io/queue-name", "lq", "app", "train")))));
        job.put("spec", spec);
        job.put("status", Map.of("active", 0));
        return job;
    }

    static Map<String, Object> jobSet(String name) {
        Map<String, Object> driver = replicatedJob("driver");
        Map<String, Object> workers = replicatedJob("workers");
        return new LinkedHashMap<>(Map.of("apiVersion", "jobset.x-k8s.io/v1alpha2", "kind", "JobSet",
                "metadata", new LinkedHashMap<>(Map.of("name", name)),
                "spec", new LinkedHashMap<>(Map.of("suspend", true, "replicatedJobs", new ArrayList<>(List.of(driver, workers))))));
    }

    private static Map<String, Object> replicatedJob(String name) {
        Map<String, Object> podTemplate = new LinkedHashMap<>(Map.of("spec", new LinkedHashMap<>(Map.of("containers",
                new ArrayList<>(List.of(Map.of("name", "c", "image", "i")))))));
        return new LinkedHashMap<>(Map.of("name", name, "replicas", 1,
                "template", new LinkedHashMap<>(Map.of("spec", new LinkedHashMap<>(Map.of("template", podTemplate))))));
    }

    /** A PyTorchJob (kubeflow.org/v1) as the manager holds it: suspended, managed by MultiKueue, a master and two workers. */
    static Map<String, Object> pyTorchJob(String name) {
        Map<String, Object> replicas = new LinkedHashMap<>();
        replicas.put("Master", kubeflowReplica(1));
        replicas.put("Worker", kubeflowReplica(2));
        Map<String, Object> runPolicy = new LinkedHashMap<>(Map.of("suspend", true, "managedBy", "kueue.x-k8s.io/multikueue"));
        return new LinkedHashMap<>(Map.of("apiVersion", "kubeflow.org/v1", "kind", "PyTorchJob",
                "metadata", new LinkedHashMap<>(Map.of("name", name, "labels", new LinkedHashMap<>(Map.of("kueue.x-k8s.io/queue-name", "lq")))),
                "spec", new LinkedHashMap<>(Map.of("runPolicy", runPolicy, "pytorchReplicaSpecs", replicas))));
    }

    /** A RayJob (ray.io/v1) as the manager holds it: suspended, managed by MultiKueue, a head and a worker group of two, no submitter template. */
    static Map<String, Object> rayJob(String name) {
        Map<String, Object> head = new LinkedHashMap<>(Map.of("template", rayPod("ray-head")));
        Map<String, Object> workers = new LinkedHashMap<>(Map.of("groupName", "GPU", "replicas", 2, "template", rayPod("ray-worker")));
        Map<String, Object> cluster = new LinkedHashMap<>(Map.of("headGroupSpec", head, "workerGroupSpecs", new ArrayList<>(List.of(workers))));
        return new LinkedHashMap<>(Map.of("apiVersion", "ray.io/v1", "kind", "RayJob",
                "metadata", new LinkedHashMap<>(Map.of("name", name, "labels", new LinkedHashMap<>(Map.of("kueue.x-k8s.io/queue-name", "lq")))),
                "spec", new LinkedHashMap<>(Map.of("suspend", true, "managedBy", "kueue.x-k8s.io/multikueue", "shutdownAfterJobFinishes", true,
                        "rayClusterSpec", cluster))));
    }

    private static Map<String, Object> rayPod(String container) {
        return new LinkedHashMap<>(Map.of("spec", new LinkedHashMap<>(Map.of("containers",
                new ArrayList<>(List.of(Map.of("name", container, "image", "rayproject/ray:2.41.0")))))));
    }

    /** A LeaderWorkerSet (leaderworkerset.x-k8s.io/v1) as the manager holds it: one group of a leader and two workers. */
    static Map<String, Object> leaderWorkerSet(String name) {
        Map<String, Object> lwt = new LinkedHashMap<>();
        lwt.put("size", 3);
        lwt.put("leaderTemplate", kubeflowReplica(1).get("template"));
        lwt.put("workerTemplate", kubeflowReplica(1).get("template"));
        return new LinkedHashMap<>(Map.of("apiVersion", "leaderworkerset.x-k8s.io/v1", "kind", "LeaderWorkerSet",
                "metadata", new LinkedHashMap<>(Map.of("name", name, "labels", new LinkedHashMap<>(Map.of("kueue.x-k8s.io/queue-name", "lq")))),
                "spec", new LinkedHashMap<>(Map.of("replicas", 1, "leaderWorkerTemplate", lwt))));
    }

    /**
     * An AppWrapper (workload.codeflare.dev/v1beta2) as the manager holds it: suspended, managed by MultiKueue, wrapping a Pod
     * (pod set path {@code template}) and a PyTorchJob (Master, Worker), its pod sets declared.
     */
    static Map<String, Object> appWrapper(String name) {
        Map<String, Object> pod = new LinkedHashMap<>(Map.of("apiVersion", "v1", "kind", "Pod", "metadata", new LinkedHashMap<>(Map.of("name", "sidecar")),
                "spec", new LinkedHashMap<>(Map.of("containers", new ArrayList<>(List.of(Map.of("name", "c", "image", "i")))))));
        Map<String, Object> podComponent = new LinkedHashMap<>(Map.of("template", pod,
                "podSets", new ArrayList<>(List.of(Map.of("replicas", 1, "path", "template")))));
        Map<String, Object> pyTorch = pyTorchJob("wrapped");
        ((Map<?, ?>) pyTorch.get("spec")).remove("runPolicy");
        Map<String, Object> pyTorchComponent = new LinkedHashMap<>(Map.of("template", pyTorch, "podSets", new ArrayList<>(List.of(
                Map.of("replicas", 1, "path", "template.spec.pytorchReplicaSpecs.Master.template"),
                Map.of("replicas", 2, "path", "template.spec.pytorchReplicaSpecs.Worker.template")))));
        return new LinkedHashMap<>(Map.of("apiVersion", "workload.codeflare.dev/v1beta2", "kind", "AppWrapper",
                "metadata", new LinkedHashMap<>(Map.of("name", name, "labels", new LinkedHashMap<>(Map.of("kueue.x-k8s.io/queue-name", "lq")))),
                "spec", new LinkedHashMap<>(Map.of("suspend", true, "managedBy", "kueue.x-k8s.io/multikueue",
                        "components", new ArrayList<>(List.of(podComponent, pyTorchComponent))))));
    }

    private static Map<String, Object> kubeflowReplica(int replicas) {
        Map<String, Object> podTemplate = new LinkedHashMap<>(Map.of("spec", new LinkedHashMap<>(Map.of("containers",
                new ArrayList<>(List.of(Map.of("name", "pytorch", "image", "i")))))));
        return new LinkedHashMap<>(Map.of("replicas", replicas, "template", podTemplate));
    }

    static Map<String, Object> podList(int pods) {
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < pods; i++) {
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put("containers", new ArrayList<>(List.of(Map.of("name", "c", "image", "i"))));
            spec.put("schedulingGates", new ArrayList<>(List.of(Map.of("name", "kueue.x-k8s.io/admission"))));
            items.add(new LinkedHashMap<>(Map.of("apiVersion", "v1", "kind", "Pod",
                    "metadata", new LinkedHashMap<>(Map.of("name", "p-" + i)), "spec", spec)));
        }
        return new LinkedHashMap<>(Map.of("apiVersion", "v1", "kind", "List", "items", items));
    }

    static RemoteWorkloadSpec spec(String attemptId, long epoch, Map<String, Object> template, FlavorDefinition flavor, PodSetPlacement... podSets) {
        RemoteWorkloadSpec spec = new RemoteWorkloadSpec();
        spec.setOrigin("berth-manager");
        spec.setWorkloadName("job-train");
        spec.setAttemptId(attemptId);
        spec.setFencingEpoch(epoch);
        spec.setPodSets(new ArrayList<>(List.of(podSets)));
        spec.setFlavors(new ArrayList<>(List.of(flavor)));
        spec.setTemplate(template);
        return spec;
    }

    static PodSetPlacement podSet(String name, int count, String gpus, String flavor) {
        return new PodSetPlacement(name, count, Map.of("nvidia.com/gpu", gpus), Map.of("nvidia.com/gpu", flavor));
    }
}
