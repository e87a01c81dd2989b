package dev.berth.manager.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.testing.ManagerClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A following replica shuts down gracefully: its /readyz fails at once while it still forwards writes to the leader for
 * the shutdown delay (the leader stays ready), then the watch it was forwarding ends instead of holding the drain, and
 * the replica is gone within the delay plus a few seconds. A leading replica's manager answers /readyz in every form
 * (one check, an exclusion, verbose) as not ready once the replica begins to stop.
 */
class ReplicaGracefulShutdownTest {
    // Not the ManagerHarness: a ManagerReplica builds and starts its own BerthManager on a clustered (Hazelcast) Vert.x when it leads.
    private static final String NAMESPACES = "/api/v1/namespaces";

    @Test
    void aFollowerStopsBeingReadyKeepsForwardingThroughTheDelayAndEndsItsForwardedWatch() throws Exception {
        String cluster = "berth-graceful-" + UUID.randomUUID();
        int leaderPort = freePort();
        int followerPort = freePort();
        List<String> members = List.of("127.0.0.1:" + leaderPort, "127.0.0.1:" + followerPort);
        MemoryObjectStore store = new MemoryObjectStore();
        ManagerReplica leader = ManagerReplica.start(options("a", cluster, leaderPort, members), store,
                () -> new BerthManager(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS).leavingStoreOpen());
        ManagerReplica follower = null;
        try {
            await().atMost(Duration.ofSeconds(30)).until(leader::isLeader);
            follower = ManagerReplica.start(options("b", cluster, followerPort, members), store,
                    () -> new BerthManager(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS).leavingStoreOpen())
                    .shutdownDelay(Duration.ofSeconds(6));
            ManagerClient viaFollower = ManagerClient.http1("http://127.0.0.1:" + follower.port(), Duration.ofSeconds(5), Duration.ofSeconds(30));
            ManagerClient viaLeader = ManagerClient.http1("http://127.0.0.1:" + leader.port(), Duration.ofSeconds(5), Duration.ofSeconds(30));
            await().atMost(Duration.ofSeconds(30)).until(() -> create(viaFollower, "before") == 201);

            AtomicReference<String> watchEnd = new AtomicReference<>();
            HttpResponse<InputStream> watch = viaFollower.sendRaw("GET", NAMESPACES + "?watch=true&resourceVersion=0",
                    HttpRequest.BodyPublishers.noBody(), request -> { }, HttpResponse.BodyHandlers.ofInputStream());
            assertThat(watch.statusCode()).isEqualTo(200);
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(watch.body(), StandardCharsets.UTF_8))) {
                    while (in.readLine() != null) {
                        // the events do not matter here, only how the stream ends
                    }
                    watchEnd.set("ended");
                } catch (IOException cut) {
                    watchEnd.set("cut");
                }
            }, "forwarded-watch");
            reader.setDaemon(true);
            reader.start();

            ManagerReplica stopping = follower;
            Thread closing = new Thread(stopping::close, "closing-follower");
            closing.start();
            await().atMost(Duration.ofSeconds(5)).until(() -> status(viaFollower, "/readyz") == 500);
            assertThat(viaFollower.exchange("GET", "/readyz", Map.of(), HttpRequest.BodyPublishers.noBody()).body())
                    .contains("[-]shutdown failed");
            assertStoppingReadiness(viaFollower, "store-readiness");
            assertThat(status(viaLeader, "/readyz")).as("the leader is not shutting down").isEqualTo(200);
            assertThat(status(viaFollower, "/./readyz")).as("the stopping replica's answer passes the guard: a path not in"
                    + " canonical form is refused").isEqualTo(400);
            assertThat(create(viaFollower, "during-the-delay")).as("writes are forwarded through the delay").isEqualTo(201);
            assertThat(watchEnd.get()).as("the forwarded watch is served through the delay").isNull();

            // the drain's bound is 20 s: a forwarded watch left open would hold the follower's shutdown that long
            await().atMost(Duration.ofSeconds(12)).until(() -> watchEnd.get() != null && !closing.isAlive());
            assertThat(watchEnd.get()).as("the forwarded watch ends between two events, not by a reset").isEqualTo("ended");
            follower = null;
            assertThat(store.list("/namespaces", null)).extracting(object -> object.key().name()).contains("before", "during-the-delay");
        } finally {
            if (follower != null) follower.close();
            leader.close();
        }
    }

    @Test
    void aLeaderStopsBeingReadyThroughItsManagersOwnChecksAndKeepsServingThroughTheDelay() throws Exception {
        String cluster = "berth-graceful-" + UUID.randomUUID();
        int port = freePort();
        MemoryObjectStore store = new MemoryObjectStore();
        ManagerReplica leader = ManagerReplica.start(options("a", cluster, port, List.of("127.0.0.1:" + port)), store,
                () -> new BerthManager(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS).leavingStoreOpen())
                .shutdownDelay(Duration.ofSeconds(4));
        Thread closing = new Thread(leader::close, "closing-leader");
        try {
            await().atMost(Duration.ofSeconds(30)).until(leader::isLeader);
            ManagerClient viaLeader = ManagerClient.http1("http://127.0.0.1:" + leader.port(), Duration.ofSeconds(5), Duration.ofSeconds(30));
            assertThat(status(viaLeader, "/readyz/shutdown")).isEqualTo(200);
            closing.start();
            await().atMost(Duration.ofSeconds(3)).until(() -> status(viaLeader, "/readyz") == 500);
            // the leading manager answers with all of its checks, its store's among them, not the replica's front alone
            assertStoppingReadiness(viaLeader, "store");
            assertThat(create(viaLeader, "during-the-delay")).as("the leader serves writes through the delay").isEqualTo(201);
            await().atMost(Duration.ofSeconds(12)).until(() -> !closing.isAlive());
            assertThat(store.list("/namespaces", null)).extracting(object -> object.key().name()).contains("during-the-delay");
        } finally {
            if (closing.getState() == Thread.State.NEW) leader.close();
            else closing.join(30_000);
        }
    }

    /** kube-apiserver's forms of /readyz on a replica that stops: the one check, its exclusion, and the verbose list. */
    private static void assertStoppingReadiness(ManagerClient client, String otherCheck) {
        assertThat(status(client, "/readyz/shutdown")).as("/readyz/shutdown on a stopping replica").isEqualTo(500);
        assertThat(status(client, "/readyz?exclude=shutdown")).as("every other check still passes").isEqualTo(200);
        assertThat(status(client, "/livez")).as("a stopping replica is still live").isEqualTo(200);
        assertThat(client.exchange("GET", "/readyz?verbose", Map.of(), HttpRequest.BodyPublishers.noBody()).body())
                .contains("[-]shutdown failed", "[+]" + otherCheck + " ok", "readyz check failed");
    }

    private static ReplicaOptions options(String id, String cluster, int port, List<String> members) {
        return ReplicaOptions.loopback(id, 0).inCluster(cluster, port, members)
                .checkingLeadershipEvery(Duration.ofMillis(200)).waitingForJoinAtMost(Duration.ZERO);
    }

    private static int create(ManagerClient client, String namespace) {
        return client.exchange("POST", NAMESPACES, Map.of("Content-Type", ManagerClient.JSON_TYPE), HttpRequest.BodyPublishers.ofString(
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + namespace + "\"}}")).statusCode();
    }

    private static int status(ManagerClient client, String path) {
        return client.exchange("GET", path, Map.of(), HttpRequest.BodyPublishers.noBody()).statusCode();
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
