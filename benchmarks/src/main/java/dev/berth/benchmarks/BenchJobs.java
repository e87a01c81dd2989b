package dev.berth.benchmarks;

import dev.berth.protocol.Annotations;
import dev.berth.protocol.Labels;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.Map;

/**
 * The one-pod CPU Job both paths run: through Berth (suspended, with the queue label, as Kueue users
 * submit) and directly on a worker cluster (unsuspended, no queue), otherwise identical.
 */
final class BenchJobs {
    private BenchJobs() {}

    static Job forBerth(String name, String runtime) {
        Job job = build(name, DispatchQueues.NAMESPACE, runtime, true);
        job.getMetadata().setLabels(Map.of(Labels.QUEUE_NAME, DispatchQueues.LOCAL_QUEUE));
        return job;
    }

    static Job direct(String name, String namespace, String runtime) {
        return build(name, namespace, runtime, false);
    }

    private static Job build(String name, String namespace, String runtime, boolean suspend) {
        return new JobBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .withNewSpec().withParallelism(1).withCompletions(1).withSuspend(suspend)
                .withNewTemplate()
                .withNewMetadata().withAnnotations(Map.of(Annotations.SIMULATED_RUNTIME, runtime)).endMetadata()
                .withNewSpec().withRestartPolicy("Never")
                .addNewContainer().withName("work").withImage("registry.k8s.io/e2e-test-images/agnhost:2.53")
                .withNewResources().withRequests(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("64Mi"))).endResources()
                .endContainer()
                .endSpec().endTemplate().endSpec().build();
    }
}
