package dev.berth.agent;

import dev.berth.protocol.RayApi;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pod templates of a RayCluster or RayJob, in Kueue's pod set order: the head, each worker group (its
 * groupName in lower case), and a RayJob's submitter. A RayJob in K8sJobMode without a submitterPodTemplate
 * is given KubeRay's default submitter (the head's image, 500m CPU and 200Mi requested) before it is
 * rendered, as Kueue's RunWithPodSetsInfo does, so that the submitter pod is pinned to its flavor too.
 */
final class RayTemplates {
    private RayTemplates() {}

    /** Adds the default submitter template where KubeRay would use one. */
    static void defaultSubmitter(Map<String, Object> rayJob) {
        if (!RayApi.RAY_JOB.equals(rayJob.get("kind"))) return;
        Map<String, Object> spec = TemplatePods.mapOrCreate(rayJob, "spec");
        Object mode = spec.getOrDefault("submissionMode", RayApi.K8S_JOB_MODE);
        if (!RayApi.K8S_JOB_MODE.equals(mode) || spec.get("submitterPodTemplate") instanceof Map<?, ?>) return;
        Map<String, Object> container = new LinkedHashMap<>();
        container.put("name", "ray-job-submitter");
        TemplatePods.map(TemplatePods.map(spec, "rayClusterSpec"), "headGroupSpec").flatMap(h -> TemplatePods.map(h, "template"))
                .flatMap(t -> TemplatePods.map(t, "spec")).map(s -> TemplatePods.list(s, "containers"))
                .filter(c -> !c.isEmpty() && c.get(0) instanceof Map<?, ?>)
                .map(c -> ((Map<?, ?>) c.get(0)).get("image")).ifPresent(image -> container.put("image", image));
        container.put("resources", Map.of("requests", Map.of("cpu", "500m", "memory", "200Mi"), "limits", Map.of("cpu", "1", "memory", "1Gi")));
        Map<String, Object> podSpec = new LinkedHashMap<>();
        podSpec.put("containers", new ArrayList<>(List.of(container)));
        podSpec.put("restartPolicy", "Never");
        Map<String, Object> template = new LinkedHashMap<>();
        template.put("spec", podSpec);
        spec.put("submitterPodTemplate", template);
    }

    /** The named pod templates, in pod set order. */
    static List<Map.Entry<String, Map<String, Object>>> templates(Map<String, Object> object) {
        boolean job = RayApi.RAY_JOB.equals(object.get("kind"));
        Map<String, Object> spec = TemplatePods.map(object, "spec").orElse(Map.of());
        Map<String, Object> cluster = job ? TemplatePods.map(spec, "rayClusterSpec").orElse(Map.of()) : spec;
        List<Map.Entry<String, Map<String, Object>>> templates = new ArrayList<>();
        TemplatePods.map(cluster, "headGroupSpec").flatMap(h -> TemplatePods.map(h, "template"))
                .ifPresent(t -> templates.add(Map.entry(RayApi.HEAD_POD_SET, t)));
        for (Object group : TemplatePods.list(cluster, "workerGroupSpecs")) {
            if (!(group instanceof Map<?, ?> g)) continue;
            Map<String, Object> workerGroup = TemplatePods.cast(g);
            Optional<Map<String, Object>> template = TemplatePods.map(workerGroup, "template");
            String name = RayApi.workerPodSetName(String.valueOf(workerGroup.get("groupName")));
            template.ifPresent(t -> templates.add(Map.entry(name, t)));
        }
        if (job) TemplatePods.map(spec, "submitterPodTemplate").ifPresent(t -> templates.add(Map.entry(RayApi.SUBMITTER_POD_SET, t)));
        return templates;
    }
}
