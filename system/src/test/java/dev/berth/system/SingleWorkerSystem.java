package dev.berth.system;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.virtualcluster.PodInterval;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What each job kind's end-to-end test runs on (a JUnit extension, registered as a static field, that starts
 * before the class's tests and stops after them): a manager loaded with the example queues and MultiKueue
 * check, one virtual A100 cluster ({@value #CLUSTER}) whose MultiKueueCluster is Active, and the real
 * kubectl pointed at the manager. Its helpers read what the worker holds: a kind's copies in the
 * {@value #NAMESPACE} namespace and the pods the virtual cluster has run.
 */
final class SingleWorkerSystem implements BeforeAllCallback, AfterAllCallback {
    static final Duration PATIENCE = Duration.ofSeconds(90);
    static final String CLUSTER = "a100-ondemand";
    static final String NAMESPACE = "team-a";

    private final String testName;
    private BerthSystem system;
    private ManagerHttp api;
    private KubectlCli kubectl;

    /** @param testName names the temporary directory the system keeps its files in */
    SingleWorkerSystem(String testName) {
        this.testName = testName;
    }

    /** Starts it in a new temporary directory, and waits for the worker to be Active. */
    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Path dir = Files.createTempDirectory("berth-" + testName + "-test");
        system = BerthSystem.start(dir, List.of(new WorkerClusterSpec(CLUSTER, "a100:2x8,cpu:2", false)),
                new MemoryObjectStore(), SchedulerOptions.DEFAULTS, "127.0.0.1", 0,
                List.of(Path.of("..", "examples", "queues"), Path.of("..", "examples", "multikueue")));
        api = new ManagerHttp(system.apiUrl());
        kubectl = KubectlCli.against(system.apiUrl(), dir.resolve("kubectl-home"));
        await().atMost(PATIENCE).until(() -> "True".equals(api.get("/apis/kueue.x-k8s.io/v1beta2/multikueueclusters/" + CLUSTER)
                .path("status").path("conditions").path(0).path("status").asText()));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (system != null) system.close();
    }

    BerthSystem system() {
        return system;
    }

    /** The manager's API, with the admin's credentials. */
    ManagerHttp api() {
        return api;
    }

    /** The real kubectl, against the manager. */
    KubectlCli kubectl() {
        return kubectl;
    }

    /** The worker's copies of a kind in the test namespace. */
    List<GenericKubernetesResource> remoteCopies(String apiVersion, String kind) {
        return system.worker(CLUSTER).client().genericKubernetesResources(apiVersion, kind).inNamespace(NAMESPACE).list().getItems();
    }

    /** Waits for the worker's copy of the named object, and returns it. */
    GenericKubernetesResource awaitRemote(String apiVersion, String kind, String name) {
        return await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50))
                .until(() -> remoteCopy(apiVersion, kind, name), Optional::isPresent).orElseThrow();
    }

    private Optional<GenericKubernetesResource> remoteCopy(String apiVersion, String kind, String name) {
        return remoteCopies(apiVersion, kind).stream().filter(r -> name.equals(r.getMetadata().getName())).findFirst();
    }

    /** Every pod the virtual cluster has run (or runs) that matches. */
    List<PodInterval> podsRecorded(Predicate<PodInterval> matching) {
        return system.worker(CLUSTER).cluster().podLifetimes().stream().filter(matching).toList();
    }

    /** The pods the virtual cluster has run that carry this label value. */
    List<PodInterval> podsLabelled(String label, String value) {
        return podsRecorded(p -> value.equals(p.labels().get(label)));
    }

    /** A Workload's pod sets, name to count, in its order. */
    static Map<String, Integer> podSets(JsonNode workload) {
        Map<String, Integer> podSets = new LinkedHashMap<>();
        for (JsonNode podSet : workload.path("spec").path("podSets")) podSets.put(podSet.path("name").asText(), podSet.path("count").asInt());
        return podSets;
    }

    /** A worker copy's spec, as fabric8 read it. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> spec(GenericKubernetesResource remote) {
        return (Map<String, Object>) remote.getAdditionalProperties().get("spec");
    }
}
