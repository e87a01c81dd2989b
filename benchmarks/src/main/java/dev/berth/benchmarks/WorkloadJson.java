package dev.berth.benchmarks;

import java.time.Instant;

/**
 * The bodies the API benchmarks send: a {@code kueue.x-k8s.io/v1beta2} Workload with one pod set
 * {@code main} of one pod requesting cpu, a bare {@code spec.priority} and {@code spec.queueName};
 * and the JSON patch of its {@code /status} that appends a {@code Finished} condition, as Kueue's
 * perf runner marks a workload finished through its API server.
 */
final class WorkloadJson {
    static final String JSON_PATCH = "application/json-patch+json";

    private WorkloadJson() {}

    static String workload(String namespace, String name, String queue, int priority, long cpuMillis) {
        return """
                {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload",\
                "metadata":{"name":"%s","namespace":"%s"},\
                "spec":{"queueName":"%s","priority":%d,"podSets":[{"name":"main","count":1,\
                "template":{"spec":{"restartPolicy":"Never","containers":[{"name":"main","image":"registry.k8s.io/pause:3.9",\
                "resources":{"requests":{"cpu":"%dm"}}}]}}}]}}""".formatted(name, namespace, queue, priority, cpuMillis);
    }

    /** Appends Finished=True (reason Succeeded); the workload has conditions once admitted. */
    static String finishedPatch(Instant now) {
        return """
                [{"op":"add","path":"/status/conditions/-","value":{"type":"Finished","status":"True",\
                "reason":"Succeeded","message":"Job finished successfully","lastTransitionTime":"%s"}}]"""
                .formatted(now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
    }

    static String collectionPath(String namespace) {
        return "/apis/kueue.x-k8s.io/v1beta2/namespaces/" + namespace + "/workloads";
    }

    static String statusPath(String namespace, String name) {
        return collectionPath(namespace) + "/" + name + "/status";
    }
}
