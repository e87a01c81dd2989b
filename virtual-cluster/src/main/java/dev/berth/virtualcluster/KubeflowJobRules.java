package dev.berth.virtualcluster;

import dev.berth.protocol.KubeflowJobKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a Kubeflow training operator decides for one job, as plain data in and out: which replica pods
 * should exist (named {@code <job>-<type>-<index>}, an MPIJob's launcher {@code <job>-launcher}), and
 * the job's status from its pods' phases. Conditions as the operators write them: Created at once,
 * Running once a pod runs, Succeeded when every pod of the completing replica type succeeded (the
 * PyTorchJob's master, the MPIJob's launcher; every pod when there is no such replica), Failed as soon
 * as a pod failed; Running turns False when the job finishes. A suspended job has no pods and a
 * Suspended condition. {@code replicaStatuses} counts active, succeeded and failed pods per type.
 */
final class KubeflowJobRules {
    /** One pod the job should have. */
    record WantedPod(String name, String replicaType, int index) {}

    /** The decision: the pods to create (missing ones), and the status to write. */
    record Decision(List<WantedPod> create, boolean deleteActive, Map<String, Object> status, boolean finished) {}

    private KubeflowJobRules() {}

    static List<WantedPod> wantedPods(KubeflowJobKind kind, String jobName, Map<String, Object> spec) {
        List<WantedPod> wanted = new ArrayList<>();
        Map<String, Object> replicaSpecs = map(spec.get(kind.replicaSpecsField()));
        for (String type : kind.replicaTypes()) {
            if (!(replicaSpecs.get(type) instanceof Map<?, ?> replica)) continue;
            int replicas = replica.get("replicas") instanceof Number n ? n.intValue() : 1;
            for (int index = 0; index < replicas; index++) wanted.add(new WantedPod(podName(kind, jobName, type, index), type, index));
        }
        return wanted;
    }

    static String podName(KubeflowJobKind kind, String jobName, String type, int index) {
        String part = KubeflowJobKind.podSetName(type);
        return kind.equals(KubeflowJobKind.MPI_JOB) && type.equals(kind.completingReplicaType()) ? jobName + "-" + part
                : jobName + "-" + part + "-" + index;
    }

    /**
     * @param phases the phase of each existing pod of the job, by pod name
     */
    static Decision decide(KubeflowJobKind kind, String jobName, Map<String, Object> spec, Map<String, Object> oldStatus,
                           Map<String, String> phases, String now) {
        Map<String, Object> status = new LinkedHashMap<>(oldStatus);
        List<Map<String, Object>> conditions = new ArrayList<>();
        for (Object c : list(oldStatus.get("conditions"))) conditions.add(new LinkedHashMap<>(map(c)));
        status.put("conditions", conditions);
        String prefix = kind.kind();
        set(conditions, "Created", "True", prefix + "Created", kind.kind() + " " + jobName + " is created.", now);
        List<WantedPod> wanted = wantedPods(kind, jobName, spec);
        boolean suspended = Boolean.TRUE.equals(map(spec.get("runPolicy")).get("suspend"));
        Map<String, Object> replicaStatuses = new LinkedHashMap<>();
        int running = 0;
        int failed = 0;
        int completingTotal = 0;
        int completingSucceeded = 0;
        int allSucceeded = 0;
        List<WantedPod> create = new ArrayList<>();
        for (WantedPod pod : wanted) {
            String phase = phases.get(pod.name());
            Map<String, Object> counts = map(replicaStatuses.computeIfAbsent(pod.replicaType(), t -> new LinkedHashMap<>(
                    Map.of("active", 0, "succeeded", 0, "failed", 0))));
            if (phase == null) {
                if (!suspended) create.add(pod);
                continue;
            }
            boolean completing = pod.replicaType().equals(kind.completingReplicaType());
            switch (phase) {
                case PodPhases.SUCCEEDED -> {
                    increment(counts, "succeeded");
                    allSucceeded++;
                    if (completing) completingSucceeded++;
                }
                case PodPhases.FAILED -> {
                    increment(counts, "failed");
                    failed++;
                }
                default -> {
                    increment(counts, "active");
                    if (PodPhases.RUNNING.equals(phase)) running++;
                }
            }
        }
        for (WantedPod pod : wanted) if (pod.replicaType().equals(kind.completingReplicaType())) completingTotal++;
        status.put("replicaStatuses", replicaStatuses);
        boolean finished = false;
        if (failed > 0) {
            set(conditions, "Running", "False", prefix + "Failed", kind.kind() + " " + jobName + " is failed.", now);
            set(conditions, "Failed", "True", prefix + "Failed", kind.kind() + " " + jobName + " is failed because " + failed
                    + " pod(s) failed.", now);
            finished = true;
        } else if (completingTotal > 0 ? completingSucceeded == completingTotal : !wanted.isEmpty() && allSucceeded == wanted.size()) {
            set(conditions, "Running", "False", prefix + "Succeeded", kind.kind() + " " + jobName + " is successfully completed.", now);
            set(conditions, "Succeeded", "True", prefix + "Succeeded", kind.kind() + " " + jobName + " is successfully completed.", now);
            finished = true;
        } else if (suspended) {
            set(conditions, "Running", "False", prefix + "Suspended", kind.kind() + " " + jobName + " is suspended.", now);
            set(conditions, "Suspended", "True", prefix + "Suspended", kind.kind() + " " + jobName + " is suspended.", now);
        } else {
            if (conditions.stream().anyMatch(c -> "Suspended".equals(c.get("type")))) {
                set(conditions, "Suspended", "False", prefix + "Resumed", kind.kind() + " " + jobName + " is resumed.", now);
            }
            status.putIfAbsent("startTime", now);
            if (running > 0) set(conditions, "Running", "True", prefix + "Running", kind.kind() + " " + jobName + " is running.", now);
        }
        if (finished) status.putIfAbsent("completionTime", now);
        return new Decision(finished ? List.of() : create, suspended || finished && cleansRunningPods(kind, spec), status, finished);
    }

    private static boolean cleansRunningPods(KubeflowJobKind kind, Map<String, Object> spec) {
        Object policy = map(spec.get("runPolicy")).get("cleanPodPolicy");
        if (policy == null) return kind.cleansRunningPods();
        return "Running".equals(policy) || "All".equals(policy);
    }

    /**
     * Sets a condition as the operators' setCondition does: a True condition of a new status is appended
     * (the State column shows the last one); turning one False flips it in place; a False one that never
     * was True is not written.
     */
    private static void set(List<Map<String, Object>> conditions, String type, String status, String reason, String message, String now) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", type);
        condition.put("status", status);
        condition.put("reason", reason);
        condition.put("message", message);
        condition.put("lastUpdateTime", now);
        condition.put("lastTransitionTime", now);
        for (int i = 0; i < conditions.size(); i++) {
            if (!type.equals(conditions.get(i).get("type"))) continue;
            if (status.equals(conditions.get(i).get("status"))) return;
            if ("False".equals(status)) {
                conditions.set(i, condition);
                return;
            }
            conditions.remove(i);
            break;
        }
        if ("True".equals(status)) conditions.add(condition);
    }

    private static void increment(Map<String, Object> counts, String key) {
        counts.put(key, ((Number) counts.get(key)).intValue() + 1);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    static List<?> list(Object value) {
        return value instanceof List<?> l ? l : List.of();
    }
}
