package dev.berth.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.NeedsKubectl;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
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
        HttpClient browser = HttpClient.newBuilder().sslContext(ManagerClient.sslContextTrusting(
                Files.readString(home.resolve("berth").resolve("security").resolve("tls.crt")))).build();
        HttpRequest open = HttpRequest.newBuilder(URI.create(link.group(1))).GET().build();
        HttpResponse<String> first = browser.send(open, HttpResponse.BodyHandlers.ofString());
        assertThat(first.statusCode()).isEqualTo(303);
        assertThat(first.headers().firstValue("set-cookie")).isPresent();
        assertThat(browser.send(open, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
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
