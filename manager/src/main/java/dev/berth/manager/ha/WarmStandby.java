package dev.berth.manager.ha;

import dev.berth.manager.clusters.KubeconfigSource;
import dev.berth.manager.clusters.StandbyClients;
import dev.berth.manager.server.StoredClusterSources;
import dev.berth.manager.store.ObjectStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a replica's {@link StandbyClients} on a daemon thread of its own: every round, while the replica
 * follows, it reads the stored MultiKueueClusters and keeps one read-only client per cluster warm; while it
 * leads, it holds none (the leader's manager adopted them). A round that fails is logged and the next one
 * tries again.
 */
final class WarmStandby implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WarmStandby.class);

    private final ObjectStore store;
    private final StandbyClients clients;
    private final BooleanSupplier leading;
    private final String replicaId;
    private final ScheduledExecutorService thread;

    WarmStandby(ObjectStore store, StandbyClients clients, BooleanSupplier leading, String replicaId) {
        this.store = store;
        this.clients = clients;
        this.leading = leading;
        this.replicaId = replicaId;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "berth-warm-standby-" + replicaId);
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts the rounds, one every interval; no-op for {@link StandbyClients#NONE}. */
    WarmStandby start(Duration every) {
        if (clients != StandbyClients.NONE) thread.scheduleWithFixedDelay(this::round, 0, every.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    private void round() {
        try {
            boolean leads = leading.getAsBoolean();
            Map<String, KubeconfigSource> wanted = leads ? Map.of() : StoredClusterSources.resolvable(store);
            clients.refresh(leads, wanted);
        } catch (RuntimeException e) {
            log.atInfo().addKeyValue("replica", replicaId).log("warm standby round failed; trying again: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        clients.close();
    }
}
