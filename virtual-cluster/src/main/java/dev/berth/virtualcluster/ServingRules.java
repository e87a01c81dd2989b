package dev.berth.virtualcluster;

import dev.berth.protocol.ServingKind;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the serving controllers (Deployment, StatefulSet, LeaderWorkerSet) want, decided without a client:
 * the pods of {@code spec.replicas} with each controller's names and labels, which existing pods to remove
 * (scaled away or terminated: a serving pod that ends is replaced), and the status the object shows.
 * <ul>
 * <li>StatefulSet: {@code <name>-<ordinal>}, labels statefulset.kubernetes.io/pod-name and apps.kubernetes.io/pod-index.</li>
 * <li>Deployment: {@code <name>-<template hash>-<suffix>}, label pod-template-hash (the pods are the Deployment's own;
 *     the ReplicaSet in between is not simulated).</li>
 * <li>LeaderWorkerSet: leader {@code <name>-<group>}, workers {@code <name>-<group>-<worker>}, labels
 *     leaderworkerset.sigs.k8s.io/name, group-index, worker-index; the leader's template is leaderTemplate when given.</li>
 * </ul>
 * Serving pods never finish: the status counts ready pods (ready groups for a LeaderWorkerSet).
 */
final class ServingRules {
    private ServingRules() {}

    /** A pod to exist: its name, its extra labels, and the template it is made from. */
    record WantedPod(String name, Map<String, String> labels, Map<String, Object> template) {}

    record Decision(List<WantedPod> create, List<String> delete, Map<String, Object> status) {}

    /**
     * @param phases the phases of the pods the object owns now, by name
     * @param ready the names of its pods that are Ready
     */
    static Decision decide(ServingKind kind, String name, long generation, Map<String, Object> spec,
                           Map<String, String> phases, Set<String> ready) {
        List<WantedPod> wanted = wanted(kind, name, spec);
        Set<String> wantedNames = new java.util.HashSet<>();
        wanted.forEach(p -> wantedNames.add(p.name()));
        List<String> delete = new ArrayList<>();
        phases.forEach((pod, phase) -> {
            if (!wantedNames.contains(pod) || PodPhases.SUCCEEDED.equals(phase) || PodPhases.FAILED.equals(phase)) delete.add(pod);
        });
        delete.sort(null);
        List<WantedPod> create = wanted.stream().filter(p -> !phases.containsKey(p.name())).toList();
        return new Decision(create, delete, status(kind, generation, spec, wanted, ready));
    }

    static List<WantedPod> wanted(ServingKind kind, String name, Map<String, Object> spec) {
        int replicas = replicas(spec);
        List<WantedPod> pods = new ArrayList<>();
        if (kind.equals(ServingKind.LEADER_WORKER_SET)) {
            Map<String, Object> lwt = KubeflowJobRules.map(spec.get("leaderWorkerTemplate"));
            Map<String, Object> workerTemplate = KubeflowJobRules.map(lwt.get("workerTemplate"));
            Map<String, Object> leaderTemplate = lwt.get("leaderTemplate") instanceof Map<?, ?> ? KubeflowJobRules.map(lwt.get("leaderTemplate")) : workerTemplate;
            int size = intOf(lwt.get("size"), 1);
            for (int group = 0; group < replicas; group++) {
                pods.add(new WantedPod(name + "-" + group, lwsLabels(name, group, 0), leaderTemplate));
                for (int worker = 1; worker < size; worker++) {
                    pods.add(new WantedPod(name + "-" + group + "-" + worker, lwsLabels(name, group, worker), workerTemplate));
                }
            }
            return pods;
        }
        Map<String, Object> template = KubeflowJobRules.map(spec.get("template"));
        if (kind.equals(ServingKind.STATEFUL_SET)) {
            for (int ordinal = 0; ordinal < replicas; ordinal++) {
                Map<String, String> labels = new LinkedHashMap<>();
                labels.put(ServingKind.STS_POD_NAME_LABEL, name + "-" + ordinal);
                labels.put(ServingKind.POD_INDEX_LABEL, Integer.toString(ordinal));
                pods.add(new WantedPod(name + "-" + ordinal, labels, template));
            }
            return pods;
        }
        String hash = hash(template.toString(), 10);
        for (int index = 0; index < replicas; index++) {
            pods.add(new WantedPod(name + "-" + hash + "-" + hash(hash + index, 5), Map.of(ServingKind.POD_TEMPLATE_HASH_LABEL, hash), template));
        }
        return pods;
    }

    private static Map<String, Object> status(ServingKind kind, long generation, Map<String, Object> spec,
                                              List<WantedPod> wanted, Set<String> ready) {
        int replicas = replicas(spec);
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("observedGeneration", generation);
        if (kind.equals(ServingKind.LEADER_WORKER_SET)) {
            int size = intOf(KubeflowJobRules.map(spec.get("leaderWorkerTemplate")).get("size"), 1);
            int readyGroups = 0;
            for (int group = 0; group < replicas; group++) {
                boolean all = true;
                for (int i = group * size; i < (group + 1) * size; i++) all &= ready.contains(wanted.get(i).name());
                if (all) readyGroups++;
            }
            status.put("replicas", replicas);
            status.put("readyReplicas", readyGroups);
            status.put("updatedReplicas", replicas);
            status.put("conditions", List.of(condition("Available", readyGroups == replicas ? "True" : "False",
                    readyGroups == replicas ? "AllGroupsReady" : "GroupsProgressing")));
            return status;
        }
        int readyPods = (int) wanted.stream().filter(p -> ready.contains(p.name())).count();
        status.put("replicas", replicas);
        status.put("readyReplicas", readyPods);
        status.put("updatedReplicas", replicas);
        status.put("availableReplicas", readyPods);
        if (kind.equals(ServingKind.STATEFUL_SET)) {
            status.put("currentReplicas", replicas);
        } else {
            status.put("conditions", List.of(
                    condition("Available", readyPods >= replicas ? "True" : "False", readyPods >= replicas ? "MinimumReplicasAvailable" : "MinimumReplicasUnavailable"),
                    condition("Progressing", "True", "NewReplicaSetAvailable")));
        }
        return status;
    }

    private static Map<String, Object> condition(String type, String status, String reason) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("type", type);
        c.put("status", status);
        c.put("reason", reason);
        return c;
    }

    private static Map<String, String> lwsLabels(String name, int group, int worker) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(ServingKind.LWS_NAME_LABEL, name);
        labels.put(ServingKind.LWS_GROUP_INDEX_LABEL, Integer.toString(group));
        labels.put(ServingKind.LWS_WORKER_INDEX_LABEL, Integer.toString(worker));
        return labels;
    }

    static int replicas(Map<String, Object> spec) {
        return intOf(spec.get("replicas"), 1);
    }

    private static int intOf(Object value, int fallback) {
        return value instanceof Number n ? n.intValue() : fallback;
    }

    private static String hash(String text, int length) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            StringBuilder out = new StringBuilder();
            String alphabet = "bcdfghjklmnpqrstvwxz2456789"; // the API server's name-suffix alphabet
            for (int i = 0; out.length() < length; i++) out.append(alphabet.charAt(Math.floorMod(digest[i], alphabet.length())));
            return out.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
