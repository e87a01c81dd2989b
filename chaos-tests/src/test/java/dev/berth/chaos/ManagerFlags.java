package dev.berth.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The manager flags the drills that wait on later features run with, in one place so that the
 * integrator adjusts them here when the features merge with other names. {@code BerthMain} rejects an
 * unknown flag, so a drill enabled before its feature exists fails at start-up, loudly.
 */
final class ManagerFlags {
    /**
     * Drill-speed failover ({@code DispatchConfig.NAMES}): a site is Unreachable after 4 s without contact
     * or AgentLost after 4 s without a heartbeat (the agents beat every second), and evicted 10 s later;
     * an open breaker probes again after 3 s. The manager refuses a lease that a renewal's whole retry budget
     * (retry-attempts x call-timeout plus backoff) and the renewal interval (a third of the lease)
     * do not fit in: here 2 x 1.5 s + 0.2 s + 2 s < 6 s. {@code ManagerFlagsTest} checks it.
     */
    static final List<String> FAILOVER = List.of("--worker-lost-timeout", "10s", "--lease-duration", "6s", "--lease-margin", "1s",
            "--contact-grace", "4s", "--agent-lost-after", "4s", "--heartbeat-late-after", "3s", "--heartbeat-stale-after", "4s",
            "--call-timeout", "1500ms", "--retry-attempts", "2", "--retry-backoff", "200ms", "--breaker-open-for", "3s");

    /**
     * Issue 20 rule 1 at drill speed: a copy its worker has not started after 8 s is withdrawn and placed
     * elsewhere (the manager's default is 5 minutes).
     */
    static final List<String> START_TIMEOUT = List.of("--dispatch-start-timeout", "8s");

    static final int CLUSTER_PORT = 5701;

    private ManagerFlags() {}

    /**
     * High availability (issue 5; the flags of the ha workstream's {@code LaunchSettings}): replica
     * {@code index} of {@code count}, a Hazelcast member on its network alias joining the others by
     * theirs, over one shared PostgreSQL store. The store's JDBC URL, reachable from the containers,
     * comes from the system property {@code chaos.pgUrl} (user {@code chaos.pgUser}, password
     * {@code chaos.pgPassword}); a drill with replicas fails at once without it.
     */
    static List<String> replica(int index, int count) {
        String pgUrl = System.getProperty("chaos.pgUrl");
        if (pgUrl == null || pgUrl.isBlank()) {
            throw new IllegalStateException("manager replicas share a PostgreSQL store: run with -Dchaos.pgUrl=jdbc:postgresql://HOST:5432/DB"
                    + " reachable from the drill's containers");
        }
        return replica(index, count, pgUrl);
    }

    /** As {@link #replica(int, int)}, over the given store (the drill's own {@link ChaosPostgres} when no chaos.pgUrl is set). */
    static List<String> replica(int index, int count, String pgUrl) {
        String members = String.join(",", IntStream.range(0, count).mapToObj(i -> alias(i) + ":" + CLUSTER_PORT).toList());
        return new ArrayList<>(List.of("--store", "postgres", "--pg-url", pgUrl,
                "--pg-user", System.getProperty("chaos.pgUser", "berth"),
                "--replica-id", alias(index), "--cluster-members", members,
                "--cluster-host", alias(index), "--cluster-port", Integer.toString(CLUSTER_PORT),
                "--advertise-url", "http://" + alias(index) + ":" + ManagerReplica.API_PORT));
    }

    /** The PostgreSQL password for replicas, passed as BERTH_PG_PASSWORD (the ha workstream's variable for tests and drills). */
    static String pgPassword() {
        return System.getProperty("chaos.pgPassword", "");
    }

    static String alias(int index) {
        return "manager-" + index;
    }
}
