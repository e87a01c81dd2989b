package dev.berth.manager.clusters;

import dev.berth.manager.dispatch.WarmStandbyPlan;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker-cluster clients a follower keeps warm for a failover ({@link WarmStandbyPlan}): built from the
 * stored MultiKueueClusters' kubeconfigs, and each reading its cluster every probe interval (the agent's
 * heartbeat Lease and this manager's RemoteWorkloads), so the connection stays open and the read path is
 * compiled. A follower only ever reads: this class sends no write, renews no lease, and holds no state a
 * leader acts on. A new leader's {@link WorkerClusters} takes a client from here (it then belongs to that
 * manager, which closes it) and polls at once, instead of building one after taking office.
 *
 * <p>Thread-safe: {@link #refresh} runs on the replica's standby thread, {@link #take} on a manager's
 * state thread. A client is handed over only when it was built from the same kubeconfig with the same
 * resilience options as the manager would build it; otherwise the manager builds its own, as without
 * a standby.
 */
public final class StandbyClients implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StandbyClients.class);
    /** How often a held client reads its cluster: often enough that an idle connection is never dropped. */
    public static final Duration DEFAULT_PROBE_EVERY = Duration.ofSeconds(2);
    /** No standby: every manager builds its own clients (a single manager, tests). */
    public static final StandbyClients NONE = new StandbyClients(ResilienceOptions.DEFAULTS, "", Clock.systemUTC(), DEFAULT_PROBE_EVERY);

    private final ResilienceOptions resilience;
    private final String origin;
    private final Clock clock;
    private final Duration probeEvery;
    private final Map<String, Warm> held = new HashMap<>();

    /** A held client: built from source; reachable when its last read succeeded. */
    private static final class Warm {
        final KubeconfigSource source;
        final ClusterClient client;
        volatile Instant lastProbe;
        volatile boolean reachable;
        /** The flavor catalogue the cluster held at the last read; null when unknown. */
        volatile String catalogue;
        /** The copies the last listing showed finished (Succeeded or Failed): final, so never stale for a new leader. */
        volatile List<RemoteWorkload> finished = List.of();

        Warm(KubeconfigSource source, ClusterClient client) {
            this.source = source;
            this.client = client;
        }
    }

    /**
     * @param resilience the leader's resilience options (the clients' time limits derive from them)
     * @param origin     the manager id the leader labels its RemoteWorkloads with
     */
    public StandbyClients(ResilienceOptions resilience, String origin, Clock clock, Duration probeEvery) {
        this.resilience = resilience;
        this.origin = origin;
        this.clock = clock;
        this.probeEvery = probeEvery;
    }

    /**
     * One standby round: closes clients no longer wanted (or every one, while leading), builds the missing
     * ones and reads each cluster that is due; while taking office, leaves every client as it is for adoption. Blocking; call it on a thread of its own, never a Vert.x one.
     *
     * @param wanted every stored MultiKueueCluster whose kubeconfig resolved, by name
     */
    public void refresh(WarmStandbyPlan.Role role, Map<String, KubeconfigSource> wanted) {
        refresh(role, wanted, false);
    }

    /** As above; memberLost: another replica just left, every held client reads its cluster now ({@link WarmStandbyPlan}). */
    public void refresh(WarmStandbyPlan.Role role, Map<String, KubeconfigSource> wanted, boolean memberLost) {
        if (this == NONE) return;
        WarmStandbyPlan.Round<KubeconfigSource> round;
        Map<String, Warm> due = new LinkedHashMap<>();
        synchronized (this) {
            Map<String, WarmStandbyPlan.Held<KubeconfigSource>> view = new HashMap<>();
            held.forEach((name, warm) -> view.put(name, new WarmStandbyPlan.Held<>(warm.source, warm.lastProbe)));
            round = WarmStandbyPlan.round(role, wanted, view, clock.instant(), probeEvery, memberLost);
            for (String name : round.close()) {
                Warm gone = held.remove(name);
                if (gone != null) gone.client.close();
                log.atInfo().addKeyValue("cluster", name).addKeyValue("role", role).log("warm standby client closed");
            }
            for (String name : round.probe()) due.put(name, held.get(name));
        }
        round.build().forEach((name, source) -> build(name, source).ifPresent(warm -> due.put(name, warm)));
        due.forEach(this::probe);
    }

    private Optional<Warm> build(String name, KubeconfigSource source) {
        try {
            Warm warm = new Warm(source, KubeconfigClients.build(source, resilience));
            synchronized (this) {
                Warm previous = held.put(name, warm);
                if (previous != null) previous.client.close();
            }
            log.atInfo().addKeyValue("cluster", name).log("warm standby client built (reads only while this replica follows)");
            return Optional.of(warm);
        } catch (Exception unusable) {
            log.atInfo().addKeyValue("cluster", name).log("warm standby client not built: " + unusable.getClass().getSimpleName());
            return Optional.empty();
        }
    }

    /** Reads only: the agent's Lease, the RemoteWorkloads listing (as a leader's poll does) and the flavor catalogue. */
    private void probe(String name, Warm warm) {
        boolean wasReachable = warm.reachable;
        try {
            var client = warm.client.client();
            client.leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(BerthCrds.AGENT_LEASE).get();
            var listed = client.resources(RemoteWorkload.class).inAnyNamespace().withLabel(Labels.ORIGIN, origin).list();
            warm.finished = finishedOnly(listed.getItems());
            var catalogue = client.configMaps().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(BerthCrds.FLAVOR_CATALOGUE).get();
            warm.catalogue = catalogue == null || catalogue.getData() == null ? null : catalogue.getData().get(BerthCrds.FLAVOR_CATALOGUE_KEY);
            warm.reachable = true;
        } catch (RuntimeException unreachable) {
            warm.reachable = false;
            warm.catalogue = null;
            warm.finished = List.of();
            if (wasReachable) log.atInfo().addKeyValue("cluster", name).log("warm standby read failed: " + unreachable.getMessage());
        } finally {
            warm.lastProbe = clock.instant();
        }
    }

    /**
     * Hands the client kept for this cluster to a new leader's manager, when it was built from this source with
     * the manager's resilience options; it leaves the standby (which builds none while the replica leads).
     * Empty otherwise, and a mismatched client is closed.
     */
    synchronized Optional<Adopted> take(String name, KubeconfigSource source, ResilienceOptions wantedResilience) {
        if (this == NONE) return Optional.empty();
        Warm warm = held.remove(name);
        if (warm == null) return Optional.empty();
        if (!warm.source.equals(source) || !resilience.equals(wantedResilience)) {
            warm.client.close();
            log.atInfo().addKeyValue("cluster", name).log("warm standby client not adopted: built from another kubeconfig or options");
            return Optional.empty();
        }
        return Optional.of(new Adopted(warm.client, warm.catalogue, warm.finished));
    }

    /** The copies a listing shows Succeeded or Failed: a report that is final, whatever its age. */
    static List<RemoteWorkload> finishedOnly(List<RemoteWorkload> listed) {
        if (listed == null) return List.of();
        return listed.stream().filter(remote -> remote.getStatus() != null && remote.getSpec() != null
                && (RemoteWorkloadPhase.SUCCEEDED.equals(remote.getStatus().getPhase())
                || RemoteWorkloadPhase.FAILED.equals(remote.getStatus().getPhase()))).toList();
    }

    /**
     * A client handed to a new leader, with the flavor catalogue its cluster held at the standby's last read (null:
     * unknown). Equal to the leader's own catalogue, the leader's first poll need not write it again before it lists.
     * finishedSeen: the copies the standby's last listing showed finished; the new leader releases their quota at
     * once, before its own first listing answers (a finished report is final, so its age does not matter).
     */
    record Adopted(ClusterClient client, String catalogueSeen, List<RemoteWorkload> finishedSeen) {}

    /** Whether a client for this cluster is held and its last read succeeded (tests, the replica's description). */
    public synchronized boolean holdsConnected(String name) {
        Warm warm = held.get(name);
        return warm != null && warm.reachable;
    }

    /** How many clients are held. */
    public synchronized int held() {
        return held.size();
    }

    @Override
    public synchronized void close() {
        held.values().forEach(warm -> warm.client.close());
        held.clear();
    }
}
