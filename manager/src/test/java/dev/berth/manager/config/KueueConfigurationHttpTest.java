package dev.berth.manager.config;

import static dev.berth.manager.testing.ManagerClient.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MutableClock;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manager started from a Kueue Configuration file, as {@code bin/berth manager --config FILE}
 * starts it, over real HTTP on loopback: the file's settings change what the manager decides.
 */
class KueueConfigurationHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final String HEADER = "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n";

    @TempDir
    Path dir;
    /** Each test starts it with the manager its Configuration file describes. */
    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().fileStore().startedByTheTest();
    private ManagerClient client;

    private void start(String configuration, Clock clock) throws Exception {
        Path file = dir.resolve("controller_manager_config.yaml");
        Files.writeString(file, HEADER + configuration);
        ManagerSettings settings = KueueConfigurationFile.settings(file, ManagerSettings.Flags.NONE);
        harness.clock(clock).builtBy(settings::newManager).start();
        client = harness.client();
    }

    @Test
    void integrationsWithoutBatchJobLeaveAQueuedJobAloneWhileAQueuedPodGetsItsWorkload() throws Exception {
        start("integrations:\n  frameworks: [pod]\n", Clock.systemUTC());
        queues("late", "cq", null, "4");
        created("/apis/batch/v1/namespaces/late/jobs", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: job\n  namespace: late\n"
                + "  labels:\n    kueue.x-k8s.io/queue-name: lq\nspec:\n  template:\n    spec:\n" + containers("1") + "      restartPolicy: Never\n");
        created("/api/v1/namespaces/late/pods", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod\n  namespace: late\n"
                + "  labels:\n    kueue.x-k8s.io/queue-name: lq\nspec:\n  restartPolicy: Never\n" + containers("1").replace("      ", "  "));

        JsonNode workloads = await().atMost(Duration.ofSeconds(10)).until(() -> get(KUEUE + "/namespaces/late/workloads").path("items"),
                items -> items.size() > 0);
        assertThat(workloads).hasSize(1);
        assertThat(workloads.get(0).path("metadata").path("ownerReferences").get(0).path("kind").asText()).isEqualTo("Pod");
        JsonNode job = get("/apis/batch/v1/namespaces/late/jobs/job");
        assertThat(job.path("spec").path("suspend").asBoolean(false)).as("Kueue does not suspend a job it does not manage").isFalse();
    }

    @Test
    void manageJobsWithoutQueueNameAndExcludedResourcesFromTheFileChangeWhatIsManagedAndCounted() throws Exception {
        start("""
                manageJobsWithoutQueueName: true
                resources:
                  excludeResourcePrefixes: [example.com/]
                """, Clock.systemUTC());
        queues("late", "cq", null, "4");
        created("/apis/batch/v1/namespaces/late/jobs", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: unlabelled\n  namespace: late\n"
                + "spec:\n  template:\n    spec:\n" + containers("1") + "      restartPolicy: Never\n");
        JsonNode unlabelled = get("/apis/batch/v1/namespaces/late/jobs/unlabelled");
        assertThat(unlabelled.path("spec").path("suspend").asBoolean(false)).as("managed without a queue name: suspended").isTrue();
        created("/apis/batch/v1/namespaces/late/jobs", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: dongle\n  namespace: late\n"
                + "  labels:\n    kueue.x-k8s.io/queue-name: lq\nspec:\n  template:\n    spec:\n"
                + "      containers:\n      - name: main\n        image: busybox\n        resources:\n          requests:\n"
                + "            cpu: \"1\"\n            example.com/dongle: \"1\"\n      restartPolicy: Never\n");
        JsonNode admitted = await().atMost(Duration.ofSeconds(10)).until(() -> get(KUEUE + "/namespaces/late/workloads").path("items"),
                items -> items.findValuesAsText("name").stream().anyMatch(n -> n.contains("dongle"))
                        && java.util.stream.StreamSupport.stream(items.spliterator(), false)
                        .anyMatch(w -> w.path("metadata").path("name").asText().contains("dongle") && "True".equals(condition(w, "QuotaReserved"))));
        assertThat(admitted).as("a Workload for the unlabelled Job, and the dongle Job admitted without quota for example.com/dongle")
                .hasSize(2);
    }

    @Test
    void kueuesOwnSampleConfigurationStartsAServingManager() throws Exception {
        String sample = Files.readString(Path.of(getClass().getResource("/kueue/controller_manager_config.yaml").toURI()));
        start(sample.substring(sample.indexOf("health:")), Clock.systemUTC());
        assertThat(status("/apis/kueue.x-k8s.io/v1beta2")).isEqualTo(200);
    }

    @Test
    void fairSharingFromTheFileGivesTheFreedCpuToTheQueueWithTheLowerShare() throws Exception {
        start("fairSharing:\n  preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]\n", Clock.systemUTC());
        assertThat(contestWinner()).isEqualTo("team-b");
    }

    @Test
    void withoutFairSharingTheFreedCpuGoesToTheOlderWorkload() throws Exception {
        start("integrations:\n  frameworks: [batch/job]\n", Clock.systemUTC());
        assertThat(contestWinner()).isEqualTo("team-a");
    }

    @Test
    void afterDeactivatedByKueueDeletesARejectedWorkloadAndItsJobOnceTheRetentionHasPassed() throws Exception {
        MutableClock clock = new MutableClock(Instant.now());
        start("objectRetentionPolicies:\n  workloads:\n    afterDeactivatedByKueue: 10m\n", clock);
        created(KUEUE + "/admissionchecks", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: AdmissionCheck\nmetadata:\n  name: prov\n"
                + "spec:\n  controllerName: example.com/prov\n");
        queues("late", "cq", "prov", "4");
        created("/apis/batch/v1/namespaces/late/jobs", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: job\n  namespace: late\n"
                + "  labels:\n    kueue.x-k8s.io/queue-name: lq\nspec:\n  template:\n    spec:\n" + containers("1") + "      restartPolicy: Never\n");
        JsonNode reserved = await().atMost(Duration.ofSeconds(10)).until(() -> get(KUEUE + "/namespaces/late/workloads").path("items"),
                items -> items.size() == 1 && "True".equals(condition(items.get(0), "QuotaReserved")));
        String name = reserved.get(0).path("metadata").path("name").asText();
        HttpResponse<String> rejected = send("PATCH", KUEUE + "/namespaces/late/workloads/" + name + "/status", "application/merge-patch+json",
                "{\"status\":{\"admissionChecks\":[{\"name\":\"prov\",\"state\":\"Rejected\",\"message\":\"no\",\"lastTransitionTime\":\""
                        + clock.instant() + "\"}]}}");
        assertThat(rejected.statusCode()).as(rejected.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> get(KUEUE + "/namespaces/late/workloads/" + name),
                w -> !w.path("spec").path("active").asBoolean(true) && "True".equals(condition(w, "Evicted")));

        clock.advance(Duration.ofMinutes(9));
        await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> true); // a housekeeping pass runs
        assertThat(status(KUEUE + "/namespaces/late/workloads/" + name)).as("kept within the retention").isEqualTo(200);

        clock.advance(Duration.ofMinutes(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> status(KUEUE + "/namespaces/late/workloads/" + name) == 404);
        assertThat(status("/apis/batch/v1/namespaces/late/jobs/job")).as("Kueue deletes the job").isEqualTo(404);
    }

    /**
     * A lender lends 4 cpu; team-a runs 2, team-b runs 1, a blocker holds the last one; each team then
     * queues one more 1-cpu workload, team-a's first. The blocker is deleted: who gets the cpu?
     */
    private String contestWinner() throws Exception {
        queues("lender", "lender", null, "4");
        queues("team-a", "team-a", null, "0");
        queues("team-b", "team-b", null, "0");
        for (String workload : new String[] {"lender/blocker", "team-a/a1", "team-a/a2", "team-b/b1"}) running(workload);
        submit("team-a/next");
        submit("team-b/next");
        await().atMost(Duration.ofSeconds(10)).until(() -> condition(get(KUEUE + "/namespaces/team-b/workloads/next"), "QuotaReserved") != null);
        assertThat(send("DELETE", KUEUE + "/namespaces/lender/workloads/blocker", null, null).statusCode()).isEqualTo(200);
        return await().atMost(Duration.ofSeconds(10)).until(() -> {
            for (String team : new String[] {"team-a", "team-b"}) {
                if ("True".equals(condition(get(KUEUE + "/namespaces/" + team + "/workloads/next"), "QuotaReserved"))) return team;
            }
            return null;
        }, winner -> winner != null);
    }

    private void running(String workload) throws Exception {
        submit(workload);
        String[] parts = workload.split("/");
        await().atMost(Duration.ofSeconds(10)).until(() -> condition(get(KUEUE + "/namespaces/" + parts[0] + "/workloads/" + parts[1]),
                "QuotaReserved"), "True"::equals);
    }

    private void submit(String workload) throws Exception {
        String[] parts = workload.split("/");
        created(KUEUE + "/namespaces/" + parts[0] + "/workloads", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n"
                + "  name: " + parts[1] + "\n  namespace: " + parts[0] + "\nspec:\n  queueName: lq\n  podSets:\n  - name: main\n    count: 1\n"
                + "    template:\n      spec:\n        restartPolicy: Never\n" + containers("1").replaceAll("(?m)^(?=.)", "  "));
    }

    /** A namespace, a ClusterQueue in cohort pool (with the admission check, if any) and a LocalQueue lq. */
    private void queues(String namespace, String clusterQueue, String check, String cpu) throws Exception {
        created("/api/v1/namespaces", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + namespace + "\n");
        if (status(KUEUE + "/resourceflavors/default") == 404) {
            created(KUEUE + "/resourceflavors", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: default\n");
        }
        created(KUEUE + "/clusterqueues", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: " + clusterQueue
                + "\nspec:\n  cohortName: pool\n  namespaceSelector: {}\n"
                + (check == null ? "" : "  admissionChecksStrategy:\n    admissionChecks:\n    - name: " + check + "\n")
                + "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: default\n      resources:\n"
                + "      - name: cpu\n        nominalQuota: " + cpu + "\n");
        created(KUEUE + "/namespaces/" + namespace + "/localqueues", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n"
                + "  name: lq\n  namespace: " + namespace + "\nspec:\n  clusterQueue: " + clusterQueue + "\n");
    }

    private static String containers(String cpu) {
        return "      containers:\n      - name: main\n        image: busybox\n        resources:\n          requests:\n            cpu: " + cpu + "\n";
    }

    private void created(String path, String yaml) throws Exception {
        HttpResponse<String> response = send("POST", path, "application/yaml", yaml);
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(201);
    }

    private JsonNode get(String path) throws Exception {
        return JSON.readTree(send("GET", path, null, null).body());
    }

    private int status(String path) throws Exception {
        return send("GET", path, null, null).statusCode();
    }

    private HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        return client.exchange(method, path, contentType == null ? Map.of() : Map.of("Content-Type", contentType),
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    }
}
