package dev.berth.manager.clusters;

import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.Labels;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import dev.berth.manager.dispatch.BreakerState;
import io.vertx.core.Future;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Every remote call the manager makes to one worker cluster. Each runs off the state thread, on the
 * cluster's own bulkhead threads, through its circuit breaker, time limiter and retry
 * ({@link ClusterResilience}), and answers with a Future completed on some other thread: callers hop
 * back to the state thread before touching manager state. A hung cluster therefore delays only its
 * own calls. It remembers when a call last succeeded and the latest failure, for the health policy.
 * Not final only so that the dispatch scenario tests can stand a fake worker cluster behind it.
 */
public class ClusterCalls implements AutoCloseable {
    private final String cluster;
    private final KubernetesClient client;
    private final AutoCloseable connection;
    private final ClusterResilience resilience;
    private final Clock clock;
    private volatile Instant lastSuccess;
    private volatile String lastError;
    /**
     * Runs a send once the manager's writes made so far are durable (the store's {@code whenDurable}): every
     * call that changes the cluster (create, renew, commit, delete, fence, catalogue) goes through it, so what a
     * worker is told never runs ahead of the record a new leader recovers from, even inside a journal group.
     */
    private volatile java.util.function.Consumer<Runnable> sendGate = Runnable::run;
    /** Namespaces this client has seen exist on the cluster; forgotten when a create there says it is gone. */
    private final java.util.Set<String> namespacesSeen = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Changing calls in flight at most as many as the bulkhead has threads; the rest wait their turn (reads keep its queue). */
    private final PacedSends sends;

    ClusterCalls(String cluster, ClusterClient client, ResilienceOptions options, Clock clock) {
        this(cluster, client.client(), client, options, clock);
    }

    ClusterCalls(String cluster, KubernetesClient client, AutoCloseable connection, ResilienceOptions options, Clock clock) {
        this.cluster = cluster;
        this.client = client;
        this.connection = connection;
        this.resilience = new ClusterResilience(cluster, options);
        this.clock = clock;
        this.sends = new PacedSends(options.maxConcurrentCalls());
    }

    /** The breaker's state now. */
    public BreakerState breakerState() {
        return resilience.breakerState();
    }

    /** When a call last succeeded; null when none has. */
    public Instant lastSuccess() {
        return lastSuccess;
    }

    /** The latest call's failure, or null when the latest call succeeded. */
    public String lastError() {
        return lastError;
    }

    /** The cluster answered that the object the call was about is not there (404). */
    public static boolean isNotFound(Throwable error) {
        return ClusterResilience.unwrap(error) instanceof KubernetesClientException k && k.getCode() == 404;
    }

    /**
     * The cluster answered the call with a client error (4xx other than 429): the request was refused, so
     * a create that failed so did not happen. Any other failure (a timeout, a lost connection, a 5xx, an
     * open breaker after an earlier try) leaves it unknown whether the call took effect.
     */
    public static boolean isAnswer(Throwable error) {
        return ClusterResilience.isAnswer(error);
    }

    ClusterResilience resilience() {
        return resilience;
    }

    public String cluster() {
        return cluster;
    }

    /** Writes the flavor catalogue ConfigMap berth-system/berth-flavors. */
    public Future<Void> writeFlavorCatalogue(String flavorsJson) {
        return send(() -> {
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

    /**
     * Creates an attempt, creating its namespace first when missing. Idempotent for retries: when the
     * same attempt already exists (a retried create whose first answer was lost), that is success.
     */
    public Future<RemoteWorkload> create(RemoteWorkload attempt) {
        return send(() -> {
            String namespace = attempt.getMetadata().getNamespace();
            ensureNamespace(namespace);
            try {
                return client.resources(RemoteWorkload.class).inNamespace(namespace).resource(attempt).create();
            } catch (KubernetesClientException e) {
                // 404: the namespace is gone; 403: it is terminating. Check it again on the next create.
                if (e.getCode() == 404 || e.getCode() == 403) namespacesSeen.remove(namespace);
                if (e.getCode() != 409) throw e;
                RemoteWorkload existing = client.resources(RemoteWorkload.class).inNamespace(namespace)
                        .withName(attempt.getMetadata().getName()).get();
                if (existing != null && existing.getSpec() != null
                        && attempt.getSpec().getAttemptId().equals(existing.getSpec().getAttemptId())) return existing;
                throw e;
            }
        });
    }

    /**
     * Renews an attempt's lease and raises its fencing epoch when it is older. Usually one request: a JSON Patch that
     * holds only while the copy's epoch is already ours ({@link AttemptPatches}); otherwise (an older epoch to raise,
     * a newer one, no epoch) the copy is read and patched as before.
     */
    public Future<Void> renew(String namespace, String name, String renewTime, long epoch) {
        return send(() -> {
            var copy = client.resources(RemoteWorkload.class).inNamespace(namespace).withName(name);
            if (AttemptPatches.applied(client, namespace, name, AttemptPatches.renewalAtEpoch(renewTime, epoch))) return null;
            copy.edit(attempt -> {
                attempt.getSpec().setLeaseRenewTime(renewTime);
                if (attempt.getSpec().getFencingEpoch() < epoch) attempt.getSpec().setFencingEpoch(epoch);
                return attempt;
            });
            return null;
        });
    }

    /**
     * Commits a reserved copy (two-phase dispatch): sets spec.reservation false, renews its lease and raises
     * its fencing epoch, only when the copy is still this attempt's and its epoch is not newer than ours.
     * Refused with 409 otherwise (another attempt there, or a newer leader stamped it); 404 when it is gone.
     * Usually one request, as {@link #renew}: a JSON Patch that holds only for this attempt at our epoch.
     */
    public Future<Void> commit(String namespace, String name, String attemptId, String renewTime, long epoch) {
        return send(() -> {
            var copy = client.resources(RemoteWorkload.class).inNamespace(namespace).withName(name);
            if (AttemptPatches.applied(client, namespace, name, AttemptPatches.commitAtEpoch(attemptId, renewTime, epoch))) return null;
            copy.edit(attempt -> {
                if (!attemptId.equals(attempt.getSpec().getAttemptId()) || attempt.getSpec().getFencingEpoch() > epoch) {
                    throw new KubernetesClientException("copy is no longer attempt " + attemptId + " at epoch " + epoch + " or older", 409, null);
                }
                attempt.getSpec().setReservation(false);
                attempt.getSpec().setLeaseRenewTime(renewTime);
                attempt.getSpec().setFencingEpoch(epoch);
                return attempt;
            });
            return null;
        });
    }

    /** Deletes an attempt; an attempt already gone is fine. */
    public Future<Void> delete(String namespace, String name) {
        return send(() -> {
            client.resources(RemoteWorkload.class).inNamespace(namespace).withName(name).delete();
            return null;
        });
    }

    /**
     * Fences an old attempt on a cluster whose agent is lost but whose API answers: deletes its
     * RemoteWorkload (when it is still that attempt's), the Jobs and JobSets the agent created for it
     * (background propagation, so the cluster's garbage collector takes their pods too) and its pods
     * explicitly (no garbage collector may run), found by the agent's attempt label. Answers how many
     * pods of the attempt were still live (not Succeeded or Failed; a pod being terminated counts)
     * when listed after the deletions. Idempotent: called again until none is left.
     */
    public Future<Integer> fenceAttempt(String namespace, String name, String attemptId) {
        return send(() -> new AttemptFencing(client, namespace, attemptId).deleteAndCountLive(name));
    }

    /** Creates the namespace unless this client saw it already: one read per namespace, not one per create. */
    private void ensureNamespace(String namespace) {
        if (namespacesSeen.contains(namespace)) return;
        if (client.namespaces().withName(namespace).get() == null) {
            try {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) throw e;
            }
        }
        namespacesSeen.add(namespace);
    }

    /** Sends through the gate from now on (before any call is made). */
    void sendGate(java.util.function.Consumer<Runnable> gate) {
        this.sendGate = gate;
    }

    /** A call that changes the cluster: made once the gate lets it (the manager's records durable). */
    private <T> Future<T> send(Callable<T> work) {
        io.vertx.core.Promise<T> answered = io.vertx.core.Promise.promise();
        sendGate.accept(() -> sends.send(() -> call(work)).onComplete(answered));
        return answered.future();
    }

    private <T> Future<T> call(Callable<T> work) {
        return Future.fromCompletionStage(resilience.call(work)).andThen(done -> {
            Throwable cause = done.succeeded() ? null : ClusterResilience.unwrap(done.cause());
            if (cause == null || ClusterResilience.isAnswer(cause)) {
                lastSuccess = clock.instant();
                lastError = null;
            } else if (!ClusterResilience.isGuardRefusal(cause)) {
                lastError = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
            }
        }).recover(error -> Future.failedFuture(ClusterResilience.unwrap(error)));
    }

    @Override
    public void close() {
        resilience.close();
        try {
            connection.close();
        } catch (Exception ignored) {
            // best effort: the cluster is being forgotten
        }
    }
}
