package dev.berth.manager.clusters;

import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.Labels;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Every remote call the manager makes to one worker cluster. Each runs off the state thread (on a
 * Vert.x worker) and answers with a Future; nothing here touches manager state. This is the seam
 * where circuit breakers, retries and time limits go.
 */
public final class ClusterCalls implements AutoCloseable {
    private final String cluster;
    private final KubernetesClient client;
    private final Vertx vertx;

    ClusterCalls(String cluster, KubernetesClient client, Vertx vertx) {
        this.cluster = cluster;
        this.client = client;
        this.vertx = vertx;
    }

    public String cluster() {
        return cluster;
    }

    /** Writes the flavor catalogue ConfigMap berth-system/berth-flavors. */
    public Future<Void> writeFlavorCatalogue(String flavorsJson) {
        return call(() -> {
            ensureNamespace(BerthCrds.SYSTEM_NAMESPACE);
            client.configMaps().inNamespace(BerthCrds.SYSTEM_NAMESPACE).resource(new ConfigMapBuilder()
                    .withNewMetadata().withName(BerthCrds.FLAVOR_CATALOGUE).withNamespace(BerthCrds.SYSTEM_NAMESPACE).endMetadata()
                    .withData(Map.of(BerthCrds.FLAVOR_CATALOGUE_KEY, flavorsJson)).build()).createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
            return null;
        });
    }

    /** The agent's heartbeat Lease, or null when the agent never wrote one. */
    public Future<Lease> readAgentLease() {
        return call(() -> client.leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(BerthCrds.AGENT_LEASE).get());
    }

    /** Every RemoteWorkload this manager created, in all namespaces. */
    public Future<List<RemoteWorkload>> listAttempts(String origin) {
        return call(() -> client.resources(RemoteWorkload.class).inAnyNamespace().withLabel(Labels.ORIGIN, origin).list().getItems());
    }

    /** Creates an attempt, creating its namespace first when missing. */
    public Future<RemoteWorkload> create(RemoteWorkload attempt) {
        return call(() -> {
            ensureNamespace(attempt.getMetadata().getNamespace());
            return client.resources(RemoteWorkload.class).inNamespace(attempt.getMetadata().getNamespace()).resource(attempt).create();
        });
    }

    /** Renews an attempt's lease and raises its fencing epoch when it is older. */
    public Future<Void> renew(String namespace, String name, String renewTime, long epoch) {
        return call(() -> {
            client.resources(RemoteWorkload.class).inNamespace(namespace).withName(name).edit(attempt -> {
                attempt.getSpec().setLeaseRenewTime(renewTime);
                if (attempt.getSpec().getFencingEpoch() < epoch) attempt.getSpec().setFencingEpoch(epoch);
                return attempt;
            });
            return null;
        });
    }

    /** Deletes an attempt; an attempt already gone is fine. */
    public Future<Void> delete(String namespace, String name) {
        return call(() -> {
            client.resources(RemoteWorkload.class).inNamespace(namespace).withName(name).delete();
            return null;
        });
    }

    private void ensureNamespace(String namespace) {
        if (client.namespaces().withName(namespace).get() != null) return;
        try {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) throw e;
        }
    }

    private <T> Future<T> call(Callable<T> work) {
        return vertx.executeBlocking(work, false);
    }

    @Override
    public void close() {
        client.close();
    }
}
