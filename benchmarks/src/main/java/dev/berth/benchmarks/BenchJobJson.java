package dev.berth.benchmarks;

import dev.berth.protocol.Annotations;
import dev.berth.protocol.Labels;

/**
 * The API throughput benchmark's Job as JSON text: one pod, 100m cpu and 64Mi, suspended, built by
 * string formatting so the client spends its time waiting on the server, not serialising.
 */
final class BenchJobJson {
    private BenchJobJson() {}

    /** Through Berth: with the queue label, as Kueue users submit. */
    static String queued(String name, String namespace, String queue, String runtime) {
        return job(name, namespace, "\"labels\":{\"" + Labels.QUEUE_NAME + "\":\"" + queue + "\"},", runtime);
    }

    /** On a bare cluster: the same Job without the queue label (suspended, so only the API's work is measured). */
    static String bare(String name, String namespace, String runtime) {
        return job(name, namespace, "", runtime);
    }

    private static String job(String name, String namespace, String labels, String runtime) {
        return "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + namespace + "\","
                + labels + "\"annotations\":{}},"
                + "\"spec\":{\"parallelism\":1,\"completions\":1,\"suspend\":true,\"template\":{\"metadata\":{\"annotations\":{\""
                + Annotations.SIMULATED_RUNTIME + "\":\"" + runtime + "\"}},\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{"
                + "\"name\":\"work\",\"image\":\"registry.k8s.io/e2e-test-images/agnhost:2.53\","
                + "\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"64Mi\"}}}]}}}}";
    }
}
