package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.testing.ManagerHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A store written before namespaces were enforced loads whole (issue 13): objects in a namespace never
 * created keep living and the namespace is created for them; a namespace whose termination a crash
 * interrupted is finished, its content with it; the system namespaces exist.
 */
class NamespaceRecoveryTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LOCAL_QUEUES = "kueue.x-k8s.io/localqueues";

    /** Started by each test over the store it wrote before. */
    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().startedByTheTest();

    @Test
    void objectsInANeverCreatedNamespaceSurviveAndGetTheirNamespace() throws Exception {
        MemoryObjectStore store = new MemoryObjectStore();
        store.create(new ObjectKey(LOCAL_QUEUES, "legacy", "lq"), localQueue("legacy"));

        harness.store(store).start();
        harness.manager().onStateThread(() -> null);
        assertThat(store.get(new ObjectKey(LOCAL_QUEUES, "legacy", "lq"))).isPresent();
        ObjectNode namespace = store.get(new ObjectKey("/namespaces", "", "legacy")).orElseThrow().object();
        assertThat(namespace.at("/status/phase").asText()).isEqualTo("Active");
        assertThat(namespace.at("/metadata/labels").get("kubernetes.io/metadata.name").asText()).isEqualTo("legacy");
        for (String system : new String[] {"default", "kube-system", "kube-public", "kube-node-lease", "kueue-system"}) {
            assertThat(store.get(new ObjectKey("/namespaces", "", system))).as(system).isPresent();
        }
    }

    @Test
    void anInterruptedTerminationIsFinishedAtStart() throws Exception {
        MemoryObjectStore store = new MemoryObjectStore();
        store.create(new ObjectKey("/namespaces", "", "doomed"), (ObjectNode) JSON.readTree("""
                {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"doomed","deletionTimestamp":"2026-01-01T00:00:00Z"},
                 "spec":{"finalizers":["kubernetes"]},"status":{"phase":"Terminating"}}"""));
        store.create(new ObjectKey(LOCAL_QUEUES, "doomed", "lq"), localQueue("doomed"));

        harness.store(store).start();
        harness.manager().onStateThread(() -> null);
        assertThat(store.get(new ObjectKey(LOCAL_QUEUES, "doomed", "lq"))).isEmpty();
        assertThat(store.get(new ObjectKey("/namespaces", "", "doomed"))).isEmpty();
    }

    private static ObjectNode localQueue(String namespace) throws Exception {
        return (ObjectNode) JSON.readTree("""
                {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"LocalQueue","metadata":{"name":"lq","namespace":"%s"},
                 "spec":{"clusterQueue":"cq"}}""".formatted(namespace));
    }
}
