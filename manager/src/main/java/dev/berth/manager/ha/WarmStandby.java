package dev.berth.manager.ha;

import dev.berth.manager.DaemonThreads;
import dev.berth.manager.clusters.KubeconfigSource;
import dev.berth.manager.clusters.StandbyClients;
import dev.berth.manager.controller.StoredClusterSources;
import dev.berth.manager.store.ObjectStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import dev.berth.manager.dispatch.WarmStandbyPlan.Role;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a replica's {@link StandbyClients} on a daemon thread of its own: every round, while the replica
 * follows, it reads the stored MultiKueueClusters and keeps one read-only client per cluster warm; while it
 * takes office it leaves them for its new manager to adopt; while it leads, it holds none (the leader's manager adopted them). A round that fails is logged and the next one
 * tries again.
 */
final class WarmStandby implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WarmStandby.class);

    /** How often a follower rehearses taking office (it only keeps code compiled), the first time once it has settled. */
    static final Duration REHEARSE_EVERY = Duration.ofSeconds(60);
    /** Not in the busy first seconds of a replica (JVM start, Hazelcast join, a first election): CPU then is scarce. */
    static final Duration FIRST_REHEARSAL_AFTER = Duration.ofSeconds(10);

    private final ObjectStore store;
    private final StandbyClients clients;
    private final Runnable rehearsal;
    private long rehearsedAt = System.nanoTime() - REHEARSE_EVERY.toNanos() + FIRST_REHEARSAL_AFTER.toNanos();
    private final Supplier<Role> role;
    private final String replicaId;
    private final ScheduledExecutorService thread;
    private final boolean idle;

    WarmStandby(ObjectStore store, StandbyWork work, Supplier<Role> role, String replicaId) {
        this.store = store;
        this.clients = work.clients();
        this.rehearsal = work.rehearsal();
        this.idle = work.idle();
        this.role = role;
        this.replicaId = replicaId;
        this.thread = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("berth-warm-standby-" + replicaId));
    }

    /** Starts the rounds, one every interval; no-op for {@link StandbyWork#NONE}. */
    WarmStandby start(Duration every) {
        if (!idle) thread.scheduleWithFixedDelay(this::round, 0, every.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /**
     * Another replica left the cluster (maybe the leader): read every held cluster now, on the standby's thread, so that
     * a takeover that follows adopts a listing made after the death. Reads only, as every round.
     */
    void memberLost() {
        if (idle) return;
        try {
            thread.execute(() -> round(true));
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // the replica is closing
        }
    }

    private void round() {
        round(false);
    }

    private void round(boolean memberLost) {
        try {
            Role now = role.get();
            Map<String, KubeconfigSource> wanted = now == Role.FOLLOWING ? StoredClusterSources.resolvable(store) : Map.of();
            clients.refresh(now, wanted, memberLost);
            if (now == Role.FOLLOWING && System.nanoTime() - rehearsedAt > REHEARSE_EVERY.toNanos()) rehearse();
        } catch (RuntimeException e) {
            log.atInfo().addKeyValue("replica", replicaId).log("warm standby round failed; trying again: " + e.getMessage());
        }
    }

    private void rehearse() {
        long started = System.nanoTime();
        rehearsal.run();
        rehearsedAt = System.nanoTime();
        log.atInfo().addKeyValue("replica", replicaId).addKeyValue("tookMillis", (rehearsedAt - started) / 1_000_000)
                .log("takeover rehearsed on this follower (read-only recovery into a throwaway controller)");
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
