package dev.berth.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.NeedsKubectl;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/berth quickstart} as a user runs it, in a child process: what its console shows, where its JSON
 * log goes, and that Ctrl-C (SIGTERM to the whole process group) stops it, clusters and all, within a bound.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@NeedsKubectl
class QuickstartProcessTest {
    @TempDir
    static Path home;
    static Process quickstart;
    static Path console;

    @BeforeAll
    static void startQuickstart() throws IOException {
        console = home.resolve("console.txt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        quickstart = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Quickstart.class.getName(),
                "--port", "0", "--home", home.resolve("berth").toString())
                .directory(new File(".."))   // the repository root, where examples/ is
                .redirectErrorStream(true).redirectOutput(console.toFile()).start();
        await().atMost(Duration.ofMinutes(5)).until(() -> Files.readString(console).contains("Stop with Ctrl-C"));
    }

    @AfterAll
    static void killLeftovers() {
        if (quickstart == null) return;
        quickstart.descendants().forEach(ProcessHandle::destroyForcibly);
        quickstart.destroyForcibly();
    }

    @Test
    @Order(1)
    void consoleShowsTheBannerAndReadableEventLinesWhileTheJsonLogGoesToItsFile() throws Exception {
        Path kubeconfig = home.resolve("berth").resolve("kubeconfig");
        Process create = new ProcessBuilder("kubectl", "--kubeconfig", kubeconfig.toString(), "--context", "berth-team-a",
                "create", "-f", "examples/jobs/sample-job.yaml").directory(new File("..")).redirectErrorStream(true).start();
        assertThat(create.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(create.getInputStream().readAllBytes())).contains("created");

        await().atMost(Duration.ofMinutes(2)).until(() -> Files.readString(console).lines()
                .anyMatch(line -> line.matches("\\d\\d:\\d\\d:\\d\\d  admitted +workload=team-a/job-sample-job-.*")));
        List<String> lines = Files.readAllLines(console);
        assertThat(lines).contains("Berth is running.");
        assertThat(lines).anyMatch(line -> line.matches("\\d\\d:\\d\\d:\\d\\d  cluster connected +cluster=a100-ondemand"));
        assertThat(lines).as("no JSON on the console by default").noneMatch(line -> line.startsWith("{"));
        assertThat(String.join("\n", lines)).doesNotContain("'{}'");

        Path logFile = home.resolve("berth").resolve("logs").resolve("berth.log");
        List<String> json = Files.readAllLines(logFile);
        assertThat(json).isNotEmpty().allMatch(line -> line.startsWith("{\"timestamp\":"));
        assertThat(json).anyMatch(line -> line.contains("\"message\":\"workload admitted")
                && line.contains("{\"workload\":\"team-a\\/job-sample-job-")); // JSON writes / as \/
    }

    /** The README's rack gang: Kueue's required-rack annotation, queued to the quickstart's TAS queue (examples/topology). */
    @Test
    @Order(1)
    void theReadmesRackGangLandsOnOneRackOfTheH100ClusterAndTheWorkloadSaysWhere() throws Exception {
        Path kubeconfig = home.resolve("berth").resolve("kubeconfig");
        assertThat(kubectl(kubeconfig.toString(), "--context", "berth-team-a", "create", "-f", "examples/jobs/rack-gang-job.yaml"))
                .contains("created");

        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.JsonNode workload = await().atMost(Duration.ofMinutes(3)).until(() -> {
            for (var item : json.readTree(kubectl(kubeconfig.toString(), "--context", "berth-team-a", "get", "workloads", "-n", "team-a",
                    "-o", "json")).path("items")) {
                if (item.path("metadata").path("name").asText().startsWith("job-rack-gang-")) return item;
            }
            return null;
        }, w -> w != null && w.path("status").path("admission").path("podSetAssignments").path(0).path("topologyAssignment").isObject());
        assertThat(workload.path("status").path("clusterName").asText()).isEqualTo("h100");
        var assignment = workload.path("status").path("admission").path("podSetAssignments").path(0).path("topologyAssignment");
        var hostnames = assignment.path("slices").path(0).path("valuesPerLevel").path(0);
        java.util.Set<String> nodes = new java.util.HashSet<>();
        if (hostnames.has("universal")) nodes.add(hostnames.path("universal").asText());
        hostnames.path("individual").path("roots").forEach(root -> nodes.add(root.asText()));
        assertThat(nodes).as(assignment.toString()).isNotEmpty();

        Matcher h100 = Pattern.compile("cluster: +h100 +\\(API \\S+, kubeconfig (\\S+)\\)").matcher(Files.readString(console));
        assertThat(h100.find()).isTrue();
        var racks = new java.util.HashSet<String>();
        try (var cluster = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                .withConfig(io.fabric8.kubernetes.client.Config.fromKubeconfig(Files.readString(Path.of(h100.group(1))))).build()) {
            for (var node : cluster.nodes().list().getItems()) {
                if (nodes.contains(node.getMetadata().getName())) {
                    racks.add(String.valueOf(node.getMetadata().getLabels().get("cloud.provider.com/topology-rack")));
                }
            }
        }
        assertThat(racks).as("the racks of " + nodes).hasSize(1).doesNotContain("null");
    }

    private static String kubectl(String kubeconfig, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(new File("..")).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return output;
    }

    @Test
    @Order(1)
    void theBannersDashboardLinkSignsInOnceAndShowsNoToken() throws Exception {
        String banner = Files.readString(console);
        Matcher link = Pattern.compile("dashboard: +(https://127\\.0\\.0\\.1:\\d+/dashboard/sign-in\\?code=\\S+)")
                .matcher(banner);
        assertThat(link.find()).as(banner).isTrue();
        for (String line : Files.readAllLines(home.resolve("berth").resolve("security").resolve("tokens.csv"))) {
            if (!line.startsWith("#") && line.contains(",")) assertThat(banner).doesNotContain(line.substring(0, line.indexOf(',')));
        }
        String base = link.group(1).substring(0, link.group(1).indexOf("/dashboard/"));
        ManagerClient browser = ManagerClient.trusting(base,
                Files.readString(home.resolve("berth").resolve("security").resolve("tls.crt")));
        String open = link.group(1).substring(base.length());
        HttpResponse<String> first = browser.send("GET", open, null, null);
        assertThat(first.statusCode()).isEqualTo(303);
        assertThat(first.headers().firstValue("set-cookie")).isPresent();
        assertThat(browser.send("GET", open, null, null).statusCode()).isEqualTo(401);
    }

    @Test
    @Order(2)
    void ctrlCStopsEverythingWithinABound() throws Exception {
        List<ProcessHandle> clusters = quickstart.descendants().toList();
        assertThat(clusters).as("the virtual clusters' processes").hasSize(Quickstart.CLUSTERS.size());
        // Ctrl-C signals the whole process group: the clusters go at the same moment as the quickstart.
        clusters.forEach(ProcessHandle::destroy);
        quickstart.destroy();

        assertThat(quickstart.waitFor(10, TimeUnit.SECONDS)).as("the quickstart exited").isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> clusters.stream().noneMatch(ProcessHandle::isAlive));
        assertThat(Files.readString(console)).doesNotContain("did not stop cleanly").doesNotContain("did not stop in time");
    }
}
