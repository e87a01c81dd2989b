package dev.berth.manager.testing;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The worker clusters of an end-to-end test, each a {@link MockWorkerCluster}, closed after the test (or
 * after the class, on a static field):
 * <pre>
 * &#64;RegisterExtension
 * final MockWorkerClusters workers = new MockWorkerClusters();
 * ... workers.start("roomy").heartbeat(8).connect(harness.client());
 * ... workers.get("roomy").attempt()
 * </pre>
 */
public final class MockWorkerClusters implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {
    private final Map<String, MockWorkerCluster> clusters = new LinkedHashMap<>();
    private boolean forTheClass;

    public synchronized MockWorkerCluster start(String name) {
        return start(name, new KubernetesCrudDispatcher());
    }

    /** A cluster whose API server is dispatcher (a CRUD dispatcher that delays or fails some calls). */
    public synchronized MockWorkerCluster start(String name, KubernetesCrudDispatcher dispatcher) {
        if (clusters.containsKey(name)) throw new IllegalStateException("cluster " + name + " is already started");
        MockWorkerCluster cluster = MockWorkerCluster.start(name, dispatcher);
        clusters.put(name, cluster);
        return cluster;
    }

    public synchronized MockWorkerCluster get(String name) {
        MockWorkerCluster cluster = clusters.get(name);
        if (cluster == null) throw new NoSuchElementException("no worker cluster " + name + " was started");
        return cluster;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        forTheClass = true;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!forTheClass) close();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    public synchronized void close() {
        clusters.values().forEach(MockWorkerCluster::close);
        clusters.clear();
    }
}
