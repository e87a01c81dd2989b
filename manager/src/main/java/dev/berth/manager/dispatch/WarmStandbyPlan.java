package dev.berth.manager.dispatch;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One round of a replica's warm standby of worker-cluster clients. While a replica follows it holds one
 * client per stored MultiKueueCluster, built from that cluster's current kubeconfig, and reads (never
 * writes) each cluster once per probe interval, so that a failover finds the client built, its connection
 * open and its read path warm: the new leader adopts the client and polls at once. A client whose
 * kubeconfig changed, or whose cluster is no longer stored, is closed (and built again from the new
 * kubeconfig). While the replica takes office it keeps them as they are, for its new manager to adopt;
 * while it leads it holds none: its manager owns the clients it adopted.
 *
 * <p>Pure: kubeconfig sources are compared with {@code equals}, and time comes in as {@code now}.
 *
 * @param <S> what a client is built from (a kubeconfig source)
 */
public final class WarmStandbyPlan {
    private WarmStandbyPlan() {}

    /** Where the replica stands in the election. */
    public enum Role {
        FOLLOWING,
        /** Won the election, building its manager: the held clients wait to be adopted, untouched. */
        TAKING_OFFICE,
        LEADING
    }

    /** A client the standby holds: what it was built from, and when it last read its cluster (null: never). */
    public record Held<S>(S source, Instant lastProbe) {}

    /**
     * What to do this round: close these clients, build these (each probed right after), probe these held ones.
     * Closes come first, so a cluster whose kubeconfig changed is in both {@code close} and {@code build}.
     */
    public record Round<S>(List<String> close, Map<String, S> build, List<String> probe) {
        public boolean idle() {
            return close.isEmpty() && build.isEmpty() && probe.isEmpty();
        }
    }

    /**
     * @param role       FOLLOWING builds and probes; TAKING_OFFICE changes nothing; LEADING closes every held client
     * @param wanted     every stored cluster whose kubeconfig resolved, by name
     * @param held       the clients the standby holds, by cluster name
     * @param probeEvery how often a held client reads its cluster
     */
    public static <S> Round<S> round(Role role, Map<String, S> wanted, Map<String, Held<S>> held, Instant now,
                                     Duration probeEvery) {
        return round(role, wanted, held, now, probeEvery, false);
    }

    /**
     * As above; with {@code memberLost} (another replica just left the cluster: the leader may be gone) a follower reads
     * every held cluster now, whenever it last did, so that if it wins the election its new manager adopts a listing
     * taken after the leader's death, with the copies that finished while nobody led.
     */
    public static <S> Round<S> round(Role role, Map<String, S> wanted, Map<String, Held<S>> held, Instant now,
                                     Duration probeEvery, boolean memberLost) {
        if (role == Role.TAKING_OFFICE) return new Round<>(List.of(), Map.of(), List.of());
        boolean leading = role == Role.LEADING;
        List<String> close = new ArrayList<>();
        Map<String, S> build = new LinkedHashMap<>();
        List<String> probe = new ArrayList<>();
        for (Map.Entry<String, Held<S>> entry : held.entrySet()) {
            S source = leading ? null : wanted.get(entry.getKey());
            if (source == null || !Objects.equals(source, entry.getValue().source())) close.add(entry.getKey());
        }
        if (leading) return new Round<>(List.copyOf(close), Map.of(), List.of());
        for (Map.Entry<String, S> entry : wanted.entrySet()) {
            Held<S> current = held.get(entry.getKey());
            if (current == null || close.contains(entry.getKey())) {
                build.put(entry.getKey(), entry.getValue());
            } else if (memberLost || current.lastProbe() == null || !now.isBefore(current.lastProbe().plus(probeEvery))) {
                probe.add(entry.getKey());
            }
        }
        return new Round<>(List.copyOf(close), Map.copyOf(build), List.copyOf(probe));
    }
}
