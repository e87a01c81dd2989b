package dev.berth.benchmarks;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches the pods of every worker cluster and records, per Job name (the pod's {@code job-name}
 * label), the {@link System#nanoTime()} at which one of its pods was first seen Running and first
 * seen Succeeded. Running counts once the kubelet has set the phase, which is what "the job runs"
 * means on a real cluster too.
 */
final class PodProgress implements AutoCloseable {
    private static final String JOB_NAME_LABEL = "job-name";

    private final Map<String, CompletableFuture<Long>> running = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Long>> succeeded = new ConcurrentHashMap<>();
    private final List<Watch> watches = new ArrayList<>();

    PodProgress(List<KubernetesClient> clusters) {
        for (KubernetesClient client : clusters) {
            watches.add(client.pods().inAnyNamespace().watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, Pod pod) {
                    observed(pod);
                }

                @Override
                public void onClose(WatcherException cause) {
                    if (cause != null) System.err.println("pod watch closed: " + cause.getMessage());
                }
            }));
        }
    }

    private void observed(Pod pod) {
        long now = System.nanoTime();
        Map<String, String> labels = pod.getMetadata().getLabels();
        String job = labels == null ? null : labels.get(JOB_NAME_LABEL);
        if (job == null || pod.getStatus() == null) return;
        String phase = pod.getStatus().getPhase();
        if ("Running".equals(phase) || "Succeeded".equals(phase)) running(job).complete(now);
        if ("Succeeded".equals(phase)) succeeded(job).complete(now);
    }

    /** Completes with the nanoTime at which a pod of {@code job} was first seen Running (or already done). */
    CompletableFuture<Long> running(String job) {
        return running.computeIfAbsent(job, j -> new CompletableFuture<>());
    }

    CompletableFuture<Long> succeeded(String job) {
        return succeeded.computeIfAbsent(job, j -> new CompletableFuture<>());
    }

    @Override
    public void close() {
        watches.forEach(Watch::close);
    }
}
