package dev.berth.agent;

import dev.berth.protocol.AppWrapperApi;
import dev.berth.protocol.KubeflowJobKind;
import dev.berth.protocol.ServingKind;
import dev.berth.protocol.crd.PodSetPlacement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the pod templates inside a submitted object (batch/v1 Job, JobSet, a Kubeflow PyTorchJob or MPIJob,
 * v1 List of Pods, or one Pod)
 * and the pod set each belongs to. The maps returned are the live maps inside the object, so a
 * caller working on a copy may edit them in place.
 */
public final class TemplatePods {
    /** A pod template (a map with {@code metadata} and {@code spec}) and the name of its pod set. */
    public record Slot(String podSet, Map<String, Object> podTemplate) {}

    private TemplatePods() {}

    public static List<Slot> of(Map<String, Object> object, List<PodSetPlacement> podSets) {
        String kind = String.valueOf(object.get("kind"));
        List<Slot> slots = new ArrayList<>();
        switch (kind) {
            case "Job" -> map(map(object, "spec"), "template")
                    .ifPresent(t -> slots.add(new Slot(podSetFor(podSets, "main", 0), t)));
            case "JobSet" -> {
                List<Object> replicated = list(map(object, "spec").orElse(Map.of()), "replicatedJobs");
                for (int i = 0; i < replicated.size(); i++) {
                    if (!(replicated.get(i) instanceof Map<?, ?> rj)) continue;
                    Map<String, Object> job = cast(rj);
                    Optional<Map<String, Object>> template = map(job, "template").flatMap(t -> map(t, "spec")).flatMap(s -> map(s, "template"));
                    String name = String.valueOf(job.get("name"));
                    int index = i;
                    template.ifPresent(t -> slots.add(new Slot(podSetFor(podSets, name, index), t)));
                }
            }
            case "Pod" -> slots.add(new Slot(podSetFor(podSets, "main", 0), object));
            case "PyTorchJob", "MPIJob" -> {
                KubeflowJobKind kubeflow = KubeflowJobKind.of(kind).orElseThrow();
                Map<String, Object> replicaSpecs = map(map(object, "spec"), kubeflow.replicaSpecsField()).orElse(Map.of());
                int index = 0;
                for (String type : kubeflow.replicaTypes()) {
                    Optional<Map<String, Object>> template = map(replicaSpecs, type).flatMap(r -> map(r, "template"));
                    if (template.isEmpty()) continue;
                    slots.add(new Slot(podSetFor(podSets, KubeflowJobKind.podSetName(type), index++), template.get()));
                }
            }
            case "RayJob", "RayCluster" -> {
                int index = 0;
                for (Map.Entry<String, Map<String, Object>> template : RayTemplates.templates(object)) {
                    slots.add(new Slot(podSetFor(podSets, template.getKey(), index++), template.getValue()));
                }
            }
            case "TrainJob" -> TrainJobTemplates.childJobSet(object).ifPresent(jobSet -> slots.addAll(of(jobSet, podSets)));
            case "Deployment", "StatefulSet" -> map(map(object, "spec"), "template")
                    .ifPresent(t -> slots.add(new Slot(podSetFor(podSets, ServingKind.MAIN_POD_SET, 0), t)));
            case "LeaderWorkerSet" -> {
                Optional<Map<String, Object>> lwt = map(map(object, "spec"), "leaderWorkerTemplate");
                Optional<Map<String, Object>> leader = map(lwt, "leaderTemplate");
                leader.ifPresent(t -> slots.add(new Slot(podSetFor(podSets, ServingKind.LEADER_POD_SET, 0), t)));
                String workers = leader.isPresent() ? ServingKind.WORKER_POD_SET : ServingKind.MAIN_POD_SET;
                map(lwt, "workerTemplate").ifPresent(t -> slots.add(new Slot(podSetFor(podSets, workers, slots.size()), t)));
            }
            case "AppWrapper" -> {
                String name = String.valueOf(map(object, "metadata").orElse(Map.of()).get("name"));
                int index = 0;
                for (Map<String, Object> component : AppWrapperApi.components(object)) {
                    for (Object declared : list(component, "podSets")) {
                        if (!(declared instanceof Map<?, ?> podSet)) continue;
                        String podSetName = podSetFor(podSets, AppWrapperApi.podSetName(name, index), index);
                        index++;
                        AppWrapperApi.at(component, String.valueOf(podSet.get("path"))).ifPresent(t -> slots.add(new Slot(podSetName, t)));
                    }
                }
            }
            case "List" -> {
                List<Object> items = list(object, "items");
                int podIndex = 0;
                for (Object item : items) {
                    if (item instanceof Map<?, ?> m && "Pod".equals(m.get("kind"))) {
                        slots.add(new Slot(podSetByPosition(podSets, podIndex++), cast(m)));
                    }
                }
            }
            default -> { }
        }
        return slots;
    }

    public static boolean isSupported(Map<String, Object> object) {
        return object != null && (List.of("Job", "JobSet", "Pod", "List").contains(String.valueOf(object.get("kind")))
                || KubeflowJobKind.of(String.valueOf(object.get("kind"))).isPresent()
                || dev.berth.protocol.RayApi.of(String.valueOf(object.get("kind"))).isPresent()
                || dev.berth.protocol.TrainerApi.TRAIN_JOB.equals(object.get("kind"))
                || ServingKind.of(String.valueOf(object.get("kind"))).isPresent()
                || AppWrapperApi.KIND.equals(object.get("kind")));
    }

    private static String podSetFor(List<PodSetPlacement> podSets, String name, int index) {
        if (podSets.size() == 1) return podSets.get(0).getName();
        for (PodSetPlacement p : podSets) if (name.equals(p.getName())) return name;
        return index < podSets.size() ? podSets.get(index).getName() : name;
    }

    private static String podSetByPosition(List<PodSetPlacement> podSets, int podIndex) {
        int seen = 0;
        for (PodSetPlacement p : podSets) {
            seen += p.getCount();
            if (podIndex < seen) return p.getName();
        }
        return podSets.isEmpty() ? "main" : podSets.get(podSets.size() - 1).getName();
    }

    static Optional<Map<String, Object>> map(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        return value instanceof Map<?, ?> m ? Optional.of(cast(m)) : Optional.empty();
    }

    static Optional<Map<String, Object>> map(Optional<Map<String, Object>> parent, String key) {
        return parent.flatMap(p -> map(p, key));
    }

    static Map<String, Object> mapOrCreate(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        if (value instanceof Map<?, ?> m) return cast(m);
        Map<String, Object> created = new LinkedHashMap<>();
        parent.put(key, created);
        return created;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        return value instanceof List<?> l ? (List<Object>) l : List.of();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }
}
