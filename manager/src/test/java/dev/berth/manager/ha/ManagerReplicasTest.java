package dev.berth.manager.ha;

import static dev.berth.manager.testing.ManagerClient.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.controller.DispatchOptions;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.controller.ManagerEpoch;
import dev.berth.manager.store.FencedWriteException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.PostgresConfig;
import dev.berth.manager.store.PostgresObjectStore;
import dev.berth.manager.store.PostgresTestDatabase;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.MockWorkerCluster;
import dev.berth.manager.testing.NeedsPostgres;
import dev.berth.protocol.ManagerReplicas;
import dev.berth.protocol.crd.RemoteWorkload;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Manager replicas in one JVM, each a Hazelcast member with its own clustered Vert.x and its own
 * connection to one PostgreSQL schema, dispatching to a mock worker cluster the test plays the agent of.
 */
@NeedsPostgres
class ManagerReplicasTest {
    // Not the ManagerHarness: a ManagerReplica builds and starts its own BerthManager on a clustered (Hazelcast) Vert.x when it leads.
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final Duration WAIT = Duration.ofSeconds(40);

    private PostgresConfig database;
    private MockWorkerCluster worker;
    private final String clusterName = "berth-test-" + UUID.randomUUID();
    private final List<ManagerReplica> replicas = new ArrayList<>();
    /** One client per replica's address, so each keeps its connections. */
    private final Map<String, ManagerClient> clients = new ConcurrentHashMap<>();

    @BeforeEach
    void setUp() throws Exception {
        database = PostgresTestDatabase.freshSchema("ha_replicas");
        worker = MockWorkerCluster.start("worker").heartbeat(8).beatEvery(Duration.ofSeconds(2));
    }

    @AfterEach
    void tearDown() {
        replicas.forEach(ManagerReplica::close);
        if (worker != null) worker.close();
    }

    @Test
    void oneLeaderFollowersForwardWritesFailoverKeepsEveryAcknowledgedSubmissionAndARestartReadoptsRunningWork() throws Exception {
        List<ManagerReplica> first = startReplicas("a", "b");
        ManagerReplica a = first.get(0);
        ManagerReplica b = first.get(1);
        await().atMost(WAIT).until(() -> leaders(first).size() == 1);
        ManagerReplica leader = leaders(first).get(0);
        ManagerReplica follower = leader == a ? b : a;

        // writes through the follower are forwarded to the leader and acknowledged with the leader's answer
        setUpQueues(follower);
        HttpResponse<String> created = submitJob(follower, "first");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(created.headers().allValues(ManagerReplicas.SERVED_BY_HEADER)).contains(leader.replicaId(), follower.replicaId());
        // each replica answers its own readiness, the shared store's round trip included
        HttpResponse<String> followerReady = send(follower, "GET", "/readyz?verbose", null);
        assertThat(followerReady.headers().allValues(ManagerReplicas.SERVED_BY_HEADER)).containsExactly(follower.replicaId());
        assertThat(followerReady.body()).contains("[+]store-readiness ok", "readyz check passed");
        assertThat(send(leader, "GET", "/readyz?verbose", null).body()).contains("[+]store ok", "[+]store-readiness ok");
        HttpResponse<String> duplicate = submitJob(follower, "first");
        assertThat(duplicate.statusCode()).isEqualTo(409);
        assertThat(JSON.readTree(duplicate.body()).path("reason").asText()).isEqualTo("AlreadyExists");

        RemoteWorkload running = await().atMost(WAIT).until(() -> single(worker.attempts()), r -> r != null);
        assertThat(running.getSpec().getFencingEpoch()).isEqualTo(leader.epoch());
        worker.reportRunning(running, 1);
        await().atMost(WAIT).until(() -> "True".equals(condition(workloadOf(follower, "first"), "Admitted")));

        // the leader dies: the other replica leads with a higher epoch, keeps the submission, re-adopts the attempt
        long oldEpoch = leader.epoch();
        leader.kill();
        replicas.remove(leader);
        await().atMost(WAIT).until(follower::isLeader);
        assertThat(follower.epoch()).isGreaterThan(oldEpoch);
        assertThat(workloadOf(follower, "first")).isNotNull();
        await().atMost(WAIT).until(() -> single(worker.attempts()).getSpec().getFencingEpoch() == follower.epoch());
        assertThat(single(worker.attempts()).getSpec().getAttemptId()).isEqualTo(running.getSpec().getAttemptId());

        // and admits and dispatches new submissions
        assertThat(submitJob(follower, "second").statusCode()).isEqualTo(201);
        await().atMost(WAIT).until(() -> worker.attempts().size() == 2);
        Map<String, String> attemptsBefore = attemptIds();

        // all replicas restart: the state is intact and running attempts are re-adopted, not restarted
        follower.close();
        replicas.remove(follower);
        List<ManagerReplica> second = startReplicas("c", "d");
        await().atMost(WAIT).until(() -> leaders(second).size() == 1);
        ManagerReplica newLeader = leaders(second).get(0);
        assertThat(newLeader.epoch()).isGreaterThan(oldEpoch + 1);
        for (ManagerReplica replica : second) {
            assertThat(condition(workloadOf(replica, "first"), "Admitted")).isEqualTo("True");
            assertThat(workloadOf(replica, "second")).isNotNull();
        }
        await().atMost(WAIT).until(() -> worker.attempts().stream().allMatch(r -> r.getSpec().getFencingEpoch() == newLeader.epoch()));
        assertThat(attemptIds()).isEqualTo(attemptsBefore);
    }

    @Test
    void aNewLeaderStampsItsEpochOnRunningAttemptsAtOnceAndTheDeposedLeadersStoreWritesAreRefused() throws Exception {
        // leases renew every 100 s: only the stamping on winning can bring the new epoch to the agent within WAIT
        List<ManagerReplica> both = startReplicas(Duration.ofSeconds(300), "a", "b");
        await().atMost(WAIT).until(() -> leaders(both).size() == 1);
        ManagerReplica leader = leaders(both).get(0);
        ManagerReplica follower = both.get(0) == leader ? both.get(1) : both.get(0);
        setUpQueues(follower);
        assertThat(submitJob(follower, "long").statusCode()).isEqualTo(201);
        RemoteWorkload running = await().atMost(WAIT).until(() -> single(worker.attempts()), r -> r != null);
        worker.reportRunning(running, 1);
        long deposedEpoch = leader.epoch();

        leader.kill();
        replicas.remove(leader);
        await().atMost(WAIT).until(follower::isLeader);
        await().atMost(WAIT).until(() -> single(worker.attempts()).getSpec().getFencingEpoch() == follower.epoch());
        assertThat(single(worker.attempts()).getSpec().getAttemptId()).isEqualTo(running.getSpec().getAttemptId());

        // the deposed leader (as if it still ran behind a partition) cannot write to the shared store; the new one can
        try (PostgresObjectStore store = PostgresObjectStore.open(database, Clock.systemUTC())) {
            ObjectKey key = new ObjectKey("configmaps", "team-a", "written-by-a-deposed-leader");
            ObjectNode object = JSON.createObjectNode();
            object.putObject("metadata").put("name", key.name()).put("namespace", key.namespace());
            ObjectStore deposed = store.fenced(ManagerEpoch.fence(deposedEpoch));
            assertThatThrownBy(() -> deposed.create(key, object)).isInstanceOf(FencedWriteException.class);
            assertThat(store.get(key)).isEmpty();
            assertThat(store.fenced(ManagerEpoch.fence(follower.epoch())).create(key, object).key()).isEqualTo(key);
        }
    }

    // ---- replicas ---------------------------------------------------------------------------------

    private List<ManagerReplica> startReplicas(String... ids) throws Exception {
        return startReplicas(Duration.ofSeconds(3), ids);
    }

    private List<ManagerReplica> startReplicas(Duration lease, String... ids) throws Exception {
        List<Integer> ports = new ArrayList<>();
        for (String ignored : ids) ports.add(freePort());
        List<String> members = ports.stream().map(p -> "127.0.0.1:" + p).toList();
        List<ManagerReplica> started = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            ReplicaOptions options = ReplicaOptions.loopback(ids[i], 0)
                    .inCluster(clusterName, ports.get(i), members)
                    .checkingLeadershipEvery(Duration.ofMillis(500));
            PostgresObjectStore store = PostgresObjectStore.open(database, Clock.systemUTC());
            ManagerReplica replica = ManagerReplica.start(options, store, () -> new BerthManager(store, Clock.systemUTC(),
                    SchedulerOptions.DEFAULTS, new DispatchOptions("test-manager", lease, Duration.ofMillis(200),
                    PlacementOptions.DEFAULTS, dev.berth.manager.dispatch.FailoverOptions.DEFAULTS,
                    // a renewal's whole retry budget must fit in the lease
                    new dev.berth.manager.clusters.ResilienceOptions(Duration.ofMillis(800), 2, Duration.ofMillis(100), 50f, 10,
                            Duration.ofSeconds(10), 8))));
            replicas.add(replica);
            started.add(replica);
        }
        return started;
    }

    private static List<ManagerReplica> leaders(List<ManagerReplica> replicas) {
        return replicas.stream().filter(ManagerReplica::isLeader).toList();
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    // ---- the worker cluster ------------------------------------------------------------------------

    private static RemoteWorkload single(List<RemoteWorkload> attempts) {
        return attempts.size() == 1 ? attempts.get(0) : null;
    }

    private Map<String, String> attemptIds() {
        return worker.attempts().stream()
                .collect(Collectors.toMap(r -> r.getSpec().getWorkloadName(), r -> r.getSpec().getAttemptId()));
    }

    // ---- the user ------------------------------------------------------------------------------------

    private void setUpQueues(ManagerReplica via) throws Exception {
        apply(via, "/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"}}");
        apply(via, KUEUE + "/resourceflavors", "{\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"a100\"},"
                + "\"spec\":{\"nodeLabels\":{\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-40GB\"}}}");
        apply(via, KUEUE + "/multikueueconfigs", "{\"kind\":\"MultiKueueConfig\",\"metadata\":{\"name\":\"workers\"},"
                + "\"spec\":{\"clusters\":[\"worker\"]}}");
        apply(via, KUEUE + "/admissionchecks", "{\"kind\":\"AdmissionCheck\",\"metadata\":{\"name\":\"dispatch\"},"
                + "\"spec\":{\"controllerName\":\"kueue.x-k8s.io/multikueue\",\"parameters\":{\"apiGroup\":\"kueue.x-k8s.io\","
                + "\"kind\":\"MultiKueueConfig\",\"name\":\"workers\"}}}");
        apply(via, KUEUE + "/clusterqueues", "{\"kind\":\"ClusterQueue\",\"metadata\":{\"name\":\"cq\"},\"spec\":{"
                + "\"namespaceSelector\":{},\"admissionChecksStrategy\":{\"admissionChecks\":[{\"name\":\"dispatch\"}]},"
                + "\"resourceGroups\":[{\"coveredResources\":[\"cpu\",\"nvidia.com/gpu\"],\"flavors\":[{\"name\":\"a100\","
                + "\"resources\":[{\"name\":\"cpu\",\"nominalQuota\":64},{\"name\":\"nvidia.com/gpu\",\"nominalQuota\":64}]}]}]}}");
        apply(via, KUEUE + "/namespaces/team-a/localqueues", "{\"kind\":\"LocalQueue\",\"metadata\":{\"name\":\"lq\"},\"spec\":{\"clusterQueue\":\"cq\"}}");
        apply(via, KUEUE + "/multikueueclusters", "{\"kind\":\"MultiKueueCluster\",\"metadata\":{\"name\":\"worker\"},\"spec\":{"
                + "\"clusterSource\":{\"kubeConfig\":{\"locationType\":\"Path\",\"location\":\"" + worker.kubeconfig() + "\"}}}}");
        await().atMost(WAIT).until(() -> "True".equals(condition(get(via, KUEUE + "/multikueueclusters/worker"), "Active")));
    }

    private void apply(ManagerReplica via, String path, String body) throws Exception {
        String withVersion = body.contains("apiVersion") ? body : "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\"," + body.substring(1);
        HttpResponse<String> response = send(via, "POST", path, withVersion);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }

    private HttpResponse<String> submitJob(ManagerReplica via, String name) throws Exception {
        String job = "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"team-a\","
                + "\"labels\":{\"kueue.x-k8s.io/queue-name\":\"lq\"}},\"spec\":{\"parallelism\":1,\"completions\":1,"
                + "\"suspend\":true,\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"x\","
                + "\"resources\":{\"requests\":{\"cpu\":\"1\",\"nvidia.com/gpu\":\"1\"}}}]}}}}";
        return send(via, "POST", "/apis/batch/v1/namespaces/team-a/jobs", job);
    }

    /** The workload derived from a job, read from the given replica. */
    private JsonNode workloadOf(ManagerReplica via, String jobName) throws Exception {
        for (JsonNode workload : get(via, KUEUE + "/namespaces/team-a/workloads").path("items")) {
            for (JsonNode owner : workload.path("metadata").path("ownerReferences")) {
                if (owner.path("name").asText().equals(jobName)) return workload;
            }
        }
        return null;
    }

    private JsonNode get(ManagerReplica via, String path) throws Exception {
        return JSON.readTree(send(via, "GET", path, null).body());
    }

    private HttpResponse<String> send(ManagerReplica via, String method, String path, String body) throws Exception {
        ManagerClient client = clients.computeIfAbsent(via.url(), url -> new ManagerClient(url, Duration.ofSeconds(5), Duration.ofSeconds(15)));
        return client.send(method, path, ManagerClient.JSON_TYPE, body);
    }
}
