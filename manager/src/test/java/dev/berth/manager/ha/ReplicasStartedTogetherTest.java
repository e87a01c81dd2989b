package dev.berth.manager.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.controller.ManagerEpoch;
import dev.berth.manager.store.PostgresConfig;
import dev.berth.manager.store.PostgresObjectStore;
import dev.berth.manager.store.PostgresTestDatabase;
import dev.berth.manager.testing.NeedsPostgres;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Replicas started however a deployment starts them (all at the same moment, as a StatefulSet with
 * parallel pod management does, or one before the others can answer) form one cluster and elect
 * exactly one leader: a starting replica does not campaign before its join has settled
 * ({@link JoinGate}), so no replica ever takes a term alone while the others are still joining.
 * One term means the fencing epoch in the store was raised exactly once.
 */
@NeedsPostgres
class ReplicasStartedTogetherTest {
    // Not the ManagerHarness: a ManagerReplica builds and starts its own BerthManager on a clustered (Hazelcast) Vert.x when it leads.
    private static final Duration WAIT = Duration.ofSeconds(60);

    private PostgresConfig database;
    private final String clusterName = "berth-together-" + UUID.randomUUID();
    private final List<ManagerReplica> replicas = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        database = PostgresTestDatabase.freshSchema("ha_together");
    }

    @AfterEach
    void tearDown() {
        replicas.forEach(ManagerReplica::close);
    }

    @Test
    void threeReplicasStartedAtTheSameMomentFormOneClusterWithExactlyOneLeader() throws Exception {
        List<Integer> ports = freePorts(3);
        List<String> members = ports.stream().map(p -> "127.0.0.1:" + p).toList();
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<ManagerReplica>> starting = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ReplicaOptions options = options("r" + i, ports.get(i), members);
            starting.add(CompletableFuture.supplyAsync(() -> {
                awaitQuietly(go);
                return start(options);
            }));
        }
        go.countDown();
        List<ManagerReplica> all = starting.stream().map(CompletableFuture::join).toList();

        await().atMost(WAIT).until(() -> all.stream().allMatch(r -> r.clusterSize() == 3) && leaders(all).size() == 1);
        ManagerReplica leader = leaders(all).get(0);
        // followers check the gate at their next campaign step
        await().atMost(WAIT).until(() -> all.stream().allMatch(ManagerReplica::joinHasSettled));
        assertThat(leader.epoch()).as("one term only: no replica led alone before the others joined").isEqualTo(1);
        assertThat(storedEpoch()).isEqualTo(1);
    }

    @Test
    void aReplicaUpBeforeTheOthersAnswerDoesNotLeadAloneAndTheOnesStartedLaterJoinIt() throws Exception {
        List<Integer> ports = freePorts(2);
        List<String> members = ports.stream().map(p -> "127.0.0.1:" + p).toList();
        ManagerReplica first = start(options("early", ports.get(0), members));
        assertThat(first.clusterSize()).as("the other member does not answer yet").isEqualTo(1);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> !first.isLeader() && !first.joinHasSettled());
        assertThat(storedEpoch()).isZero();

        ManagerReplica second = start(options("late", ports.get(1), members));
        List<ManagerReplica> both = List.of(first, second);
        await().atMost(WAIT).until(() -> first.clusterSize() == 2 && second.clusterSize() == 2 && leaders(both).size() == 1);
        assertThat(leaders(both).get(0).epoch()).isEqualTo(1);
        assertThat(storedEpoch()).isEqualTo(1);
    }

    @Test
    void aMemberThatNeverStartsDelaysLeadershipOnlyUntilTheJoinTimeout() throws Exception {
        List<Integer> ports = freePorts(2);
        List<String> members = ports.stream().map(p -> "127.0.0.1:" + p).toList();
        ManagerReplica alone = start(options("alone", ports.get(0), members).waitingForJoinAtMost(Duration.ofSeconds(2)));
        await().atMost(WAIT).until(alone::isLeader);
        assertThat(alone.clusterSize()).isEqualTo(1);
        assertThat(alone.epoch()).isEqualTo(1);
    }

    private ReplicaOptions options(String id, int port, List<String> members) {
        return ReplicaOptions.loopback(id, 0).inCluster(clusterName, port, members).checkingLeadershipEvery(Duration.ofMillis(200));
    }

    private ManagerReplica start(ReplicaOptions options) {
        PostgresObjectStore store = PostgresObjectStore.open(database, Clock.systemUTC());
        ManagerReplica replica = ManagerReplica.start(options, store, () -> new BerthManager(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS));
        replicas.add(replica);
        return replica;
    }

    private long storedEpoch() {
        try (PostgresObjectStore store = PostgresObjectStore.open(database, Clock.systemUTC())) {
            return ManagerEpoch.current(store);
        }
    }

    private static List<ManagerReplica> leaders(List<ManagerReplica> replicas) {
        return replicas.stream().filter(ManagerReplica::isLeader).toList();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<Integer> freePorts(int count) throws Exception {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) sockets.add(new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1")));
            return sockets.stream().map(ServerSocket::getLocalPort).toList();
        } finally {
            for (ServerSocket socket : sockets) socket.close();
        }
    }
}
