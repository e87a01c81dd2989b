package dev.berth.benchmarks;

import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.ha.ManagerReplica;
import dev.berth.manager.ha.ReplicaOptions;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.store.PostgresConfig;
import dev.berth.manager.store.PostgresObjectStore;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Leader failover of manager replicas on loopback over PostgreSQL: kill the leader (its Hazelcast
 * member terminates without a graceful leave, as in a crash) and measure until the survivor (1) leads,
 * with its controller rebuilt from the store and its dispatcher running, and (2) acknowledges a write
 * (201). A fresh replica then joins, and the next round kills the new leader.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.berth.benchmarks.LeaderFailoverBenchmark [rounds]</pre>
 * PostgreSQL from BERTH_PG_URL / BERTH_PG_USER / BERTH_PG_PASSWORD (defaults: the berth_test database of .ci/run).
 */
public final class LeaderFailoverBenchmark {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private LeaderFailoverBenchmark() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        PostgresConfig database = new PostgresConfig(env("BERTH_PG_URL", "jdbc:postgresql://127.0.0.1:5432/berth_test"),
                env("BERTH_PG_USER", "berth"), env("BERTH_PG_PASSWORD", "berth"), "bench_failover", 4);
        String cluster = "bench-" + UUID.randomUUID();
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < rounds + 2; i++) ports.add(freePort());
        List<String> members = ports.stream().map(p -> "127.0.0.1:" + p).toList();
        List<ManagerReplica> alive = new ArrayList<>();
        alive.add(start("r0", ports.get(0), members, cluster, database));
        alive.add(start("r1", ports.get(1), members, cluster, database));
        waitFor(() -> alive.stream().anyMatch(ManagerReplica::isLeader), Duration.ofSeconds(60));
        List<long[]> results = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            ManagerReplica leader = alive.stream().filter(ManagerReplica::isLeader).findFirst().orElseThrow();
            ManagerReplica survivor = alive.stream().filter(r -> r != leader).findFirst().orElseThrow();
            long killed = System.nanoTime();
            leader.kill();
            alive.remove(leader);
            waitFor(survivor::isLeader, Duration.ofSeconds(60));
            long leading = System.nanoTime();
            String flavor = "round-" + round;
            waitFor(() -> created(survivor, flavor), Duration.ofSeconds(60));
            long acknowledged = System.nanoTime();
            results.add(new long[] {(leading - killed) / 1_000_000, (acknowledged - killed) / 1_000_000});
            System.out.printf("round %d: leader %s killed; %s leads after %d ms, acknowledges a write after %d ms (epoch %d)%n",
                    round, leader.replicaId(), survivor.replicaId(), results.get(round)[0], results.get(round)[1], survivor.epoch());
            alive.add(start("r" + (round + 2), ports.get(round + 2), members, cluster, database));
        }
        alive.forEach(ManagerReplica::close);
        long[] leads = results.stream().mapToLong(r -> r[0]).sorted().toArray();
        long[] acks = results.stream().mapToLong(r -> r[1]).sorted().toArray();
        System.out.printf("leads after: median %d ms, max %d ms; acknowledges after: median %d ms, max %d ms (%d rounds)%n",
                leads[leads.length / 2], leads[leads.length - 1], acks[acks.length / 2], acks[acks.length - 1], rounds);
        System.exit(0);
    }

    private static ManagerReplica start(String id, int port, List<String> members, String cluster, PostgresConfig database) {
        // the member list names the replicas started later, one per round: do not wait for them to join
        ReplicaOptions options = ReplicaOptions.loopback(id, 0).inCluster(cluster, port, members)
                .checkingLeadershipEvery(Duration.ofMillis(500)).waitingForJoinAtMost(Duration.ZERO);
        PostgresObjectStore store = PostgresObjectStore.open(database, Clock.systemUTC());
        return ManagerReplica.start(options, store, () -> new BerthManager(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS));
    }

    private static boolean created(ManagerReplica via, String name) {
        String body = "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"" + name + "\"}}";
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(via.url() + "/apis/kueue.x-k8s.io/v1beta2/resourceflavors"))
                    .header("Content-Type", "application/json").timeout(Duration.ofSeconds(5))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 201 || response.statusCode() == 409;
        } catch (Exception e) {
            return false;
        }
    }

    private interface Check {
        boolean ok() throws Exception;
    }

    private static void waitFor(Check check, Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!check.ok()) {
            if (System.nanoTime() > deadline) throw new IllegalStateException("not reached within " + limit);
            Thread.sleep(20);
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
