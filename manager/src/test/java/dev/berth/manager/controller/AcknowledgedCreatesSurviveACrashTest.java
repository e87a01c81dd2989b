package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.store.FileObjectStore;
import dev.berth.manager.store.StoredObject;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Acknowledged means durable" under group commit: 16 clients create queued Jobs concurrently over
 * loopback HTTP while crash images of the store's directory are taken, each exactly what a kill -9 at
 * that moment leaves on disk (the files as they are; a torn tail is dropped when opened). Every Job
 * answered 201 before an image was taken, and its Workload, is in that image.
 */
class AcknowledgedCreatesSurviveACrashTest {
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final int CLIENTS = 16;
    private static final int CREATES_PER_CLIENT = 15;

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().fileStore();
    @TempDir
    Path images;
    private ManagerClient http;
    private Path data;

    @Test
    void everyJobAnswered201BeforeACrashIsInWhatTheCrashLeavesWithItsWorkload() throws Exception {
        data = harness.dataDir().resolve("store");
        http = ManagerClient.http1(harness.baseUrl(), Duration.ofSeconds(5), Duration.ofSeconds(30));
        created(send("/api/v1/namespaces", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n"));
        created(send(KUEUE + "/resourceflavors", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: f\n"));
        created(send(KUEUE + "/clusterqueues", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: cq\nspec:\n"
                + "  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
                + "    - name: f\n      resources:\n      - name: cpu\n        nominalQuota: 20\n"));
        created(send(KUEUE + "/namespaces/team/localqueues", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n"
                + "  name: lq\n  namespace: team\nspec:\n  clusterQueue: cq\n"));

        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            int client = c;
            running.add(clients.submit(() -> {
                for (int i = 0; i < CREATES_PER_CLIENT; i++) {
                    String name = "job-" + client + "-" + i;
                    if (send("/apis/batch/v1/namespaces/team/jobs", job(name)).statusCode() == 201) acknowledged.add(name);
                }
                return null;
            }));
        }
        List<CrashImage> crashes = new ArrayList<>();
        // a crash every 40 acknowledged creates, while the clients go on
        for (int next = 40; next < CLIENTS * CREATES_PER_CLIENT; next += 40) {
            int due = next;
            await().atMost(Duration.ofSeconds(60)).until(() -> acknowledged.size() >= due || running.stream().allMatch(Future::isDone));
            if (running.stream().allMatch(Future::isDone)) break;
            crashes.add(crashImage(acknowledged, crashes.size()));
        }
        for (Future<?> client : running) client.get(60, TimeUnit.SECONDS);
        clients.shutdown();
        crashes.add(crashImage(acknowledged, crashes.size()));

        assertThat(acknowledged).hasSize(CLIENTS * CREATES_PER_CLIENT);
        assertThat(crashes).hasSizeGreaterThan(1);
        for (CrashImage crash : crashes) {
            try (FileObjectStore reopened = FileObjectStore.open(crash.directory(), Clock.systemUTC())) {
                Set<String> jobs = names(reopened.list(Resources.JOBS.resource(), "team"));
                Set<String> workloadOwners = new HashSet<>();
                for (StoredObject workload : reopened.list(Resources.WORKLOADS.resource(), "team")) {
                    workloadOwners.add(workload.object().at("/metadata/ownerReferences/0/name").asText());
                }
                assertThat(jobs).as("Jobs in crash image %s", crash.directory()).containsAll(crash.acknowledgedBefore());
                assertThat(workloadOwners).as("Workloads in crash image %s", crash.directory()).containsAll(crash.acknowledgedBefore());
            }
        }
    }

    private record CrashImage(Path directory, Set<String> acknowledgedBefore) { }

    /** The names acknowledged so far, then the store's files as a kill -9 now would leave them. */
    private CrashImage crashImage(Set<String> acknowledged, int index) throws Exception {
        Set<String> before = Set.copyOf(acknowledged);
        Path image = Files.createDirectories(images.resolve("crash-" + index));
        for (String file : List.of("snapshot.dat", "journal.log")) {
            Path source = data.resolve(file);
            if (Files.exists(source)) Files.copy(source, image.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        return new CrashImage(image, before);
    }

    private static Set<String> names(List<StoredObject> objects) {
        Set<String> names = new HashSet<>();
        for (StoredObject object : objects) names.add(object.key().name());
        return names;
    }

    private static String job(String name) {
        return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name + "\n  namespace: team\n  labels:\n"
                + "    kueue.x-k8s.io/queue-name: lq\nspec:\n  suspend: true\n  template:\n    spec:\n      restartPolicy: Never\n"
                + "      containers:\n      - name: c\n        image: busybox\n        resources:\n          requests:\n            cpu: 100m\n";
    }

    private static void created(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }

    private HttpResponse<String> send(String path, String yaml) {
        return http.send("POST", path, ManagerClient.YAML_TYPE, yaml);
    }
}
