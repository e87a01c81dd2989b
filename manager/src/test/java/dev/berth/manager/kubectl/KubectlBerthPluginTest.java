package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.security.QuickstartCredentials;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped kubectl plugin, run as a user runs it: {@code kubectl berth ...} with bin/ on PATH,
 * against a secured manager (TLS, bearer tokens) reached only through a KUBECONFIG list whose first
 * file makes a dead server the current context, so every command must honour the merged kubeconfig
 * and --context. bin/berth explain is checked the same way, from a directory that is not the checkout.
 */
@NeedsKubectl
class KubectlBerthPluginTest {
    static final Path EXAMPLES = Path.of("..", "examples");
    static final Path BIN = Path.of("..", "bin").toAbsolutePath().normalize();
    static final String ADMIN = "--context=" + QuickstartCredentials.ADMIN_CONTEXT;

    /** Secured with the quickstart's credentials; multikueue holds the queues' admission check (else they are inactive). */
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.empty().secured().manifests(EXAMPLES.resolve("queues")).manifests(EXAMPLES.resolve("rbac"))
            .manifests(EXAMPLES.resolve("multikueue")).manifests(Path.of("src", "test", "resources", "clients", "plugin"));
    @TempDir
    static Path home;
    static Kubectl kubectl;
    static String kubeconfigList;
    static Path kubectlBinary;

    @BeforeAll
    static void start() throws Exception {
        kubectlBinary = Kubectl.find().orElse(null);
        Kubectl.withKubeconfig(home.resolve("unused")); // skips, or fails under CI=true, without kubectl
        Path berth = harness.writeKubeconfig(home.resolve("kube").resolve("berth.yaml"));
        Path elsewhere = home.resolve("kube").resolve("elsewhere.yaml");
        Files.writeString(elsewhere, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: elsewhere
                  cluster: {server: "https://127.0.0.1:1"}
                users:
                - name: nobody
                  user: {token: not-a-token}
                contexts:
                - name: elsewhere
                  context: {cluster: elsewhere, user: nobody}
                current-context: elsewhere
                """);
        kubeconfigList = elsewhere + File.pathSeparator + berth;
        kubectl = Kubectl.withKubeconfig(berth);
    }

    @Test
    void theDefaultContextOfTheMergedKubeconfigIsTheDeadOne() throws Exception {
        Result dead = run(List.of("kubectl", "berth", "clusters"));
        assertThat(dead.exitCode()).as(dead.output()).isNotZero();
        assertThat(dead.output()).contains("127.0.0.1:1");
    }

    @Test
    void clustersCordonDrainAndUncordonThroughAnnotations() throws Exception {
        assertThat(ok("kubectl", "berth", "clusters", ADMIN)).containsPattern("NAME\\s+CONNECTED\\s+HEALTH")
                .containsPattern("gpu-east\\s+false").containsPattern("gpu-west\\s+false");

        ok("kubectl", "berth", "cordon", "gpu-east", ADMIN);
        ok("kubectl", "berth", "drain", "gpu-west", ADMIN);
        assertThat(annotations("gpu-east")).isEqualTo("true/");
        assertThat(annotations("gpu-west")).isEqualTo("true/true");
        assertThat(ok("kubectl", "berth", "clusters", ADMIN)).containsPattern("gpu-east\\s.*\\scordoned\\s")
                .containsPattern("gpu-west\\s.*\\sdraining\\s");

        ok("kubectl", "berth", "uncordon", "gpu-east", ADMIN);
        ok("kubectl", "berth", "uncordon", "gpu-west", ADMIN);
        assertThat(annotations("gpu-east")).isEqualTo("/");
        assertThat(annotations("gpu-west")).isEqualTo("/");
    }

    @Test
    void capacityShowsQuotaAgainstTheFleetPerFlavor() throws Exception {
        String table = ok("kubectl", "berth", "capacity", ADMIN);
        assertThat(table).containsPattern("FLAVOR\\s+RESOURCE\\s+QUOTA\\s+IN-USE\\s+ALLOCATABLE\\s+FREE\\s+CLUSTERS\\s+OVERCOMMITTED\\s+IDLE")
                .as("no worker cluster is connected: every flavor's quota is more than the fleet has")
                .containsPattern("nvidia.com/gpu\\s+\\d+\\s+\\d+\\s+0\\s+0\\s+0\\s+true\\s+0");
        assertThat(ok("kubectl", "berth", "capacity", "-o", "json", ADMIN)).contains("\"kind\":\"QuotaCapacityList\"");
    }

    @Test
    void pendingAndExplainSayWhyAWorkloadWaits() throws Exception {
        String job = createTeamBJob(1000); // more GPUs than team-b-cq and its cohort hold: it waits for quota
        String workload = await().atMost(Duration.ofSeconds(20)).until(() -> ownedWorkload(job), s -> !s.isBlank());
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(ok("kubectl", "berth", "pending", "clusterqueue", "team-b-cq", ADMIN)).contains("POS-CQ").contains(workload));
        assertThat(ok("kubectl", "berth", "pending", "localqueue", "team-b-queue", "-n", "team-b", ADMIN)).contains(workload);
        String byJob = ok("kubectl", "berth", "explain", "job/" + job, "-n", "team-b", ADMIN);
        assertThat(byJob).startsWith("answer: ").contains("admission", "blocked", "nvidia.com/gpu");
        assertThat(ok("kubectl", "berth", "explain", workload, "--namespace=team-b", ADMIN)).isEqualTo(byJob);
        assertThat(ok("kubectl", "berth", "explain", "team-b/" + workload, "-o", "json", ADMIN)).contains("\"layers\"");
    }

    @Test
    void stopAndResumeSetTheStopPolicyAsKueuectlDoes() throws Exception {
        ok("kubectl", "berth", "stop", "clusterqueue", "team-a-cq", "--keep-already-running", ADMIN);
        assertThat(field("clusterqueue team-a-cq", "{.spec.stopPolicy}")).isEqualTo("Hold");
        ok("kubectl", "berth", "stop", "cq", "team-a-cq", ADMIN);
        assertThat(field("clusterqueue team-a-cq", "{.spec.stopPolicy}")).isEqualTo("HoldAndDrain");
        ok("kubectl", "berth", "resume", "clusterqueue", "team-a-cq", ADMIN);
        assertThat(field("clusterqueue team-a-cq", "{.spec.stopPolicy}")).isEqualTo("None");
        ok("kubectl", "berth", "stop", "localqueue", "team-a-queue", "-n", "team-a", ADMIN);
        assertThat(field("localqueue team-a-queue -n team-a", "{.spec.stopPolicy}")).isEqualTo("HoldAndDrain");
        ok("kubectl", "berth", "resume", "lq", "team-a-queue", "-n", "team-a", ADMIN);
        assertThat(field("localqueue team-a-queue -n team-a", "{.spec.stopPolicy}")).isEqualTo("None");
    }

    @Test
    void createAndListLocalQueuesAsKueuectlDoes() throws Exception {
        ok("kubectl", "berth", "create", "localqueue", "extra-queue", "-c", "team-a-cq", "-n", "team-a", ADMIN);
        assertThat(field("localqueue extra-queue -n team-a", "{.spec.clusterQueue}")).isEqualTo("team-a-cq");
        assertThat(ok("kubectl", "berth", "list", "localqueue", "-A", ADMIN)).containsPattern("team-a\\s+extra-queue\\s+team-a-cq");
        assertThat(ok("kubectl", "berth", "list", "clusterqueue", ADMIN)).contains("team-a-cq", "team-b-cq");
    }

    @Test
    void everyCommandHasHelp() throws Exception {
        assertThat(ok("kubectl", "berth", "--help")).contains("explain", "pending", "stop", "resume", "clusters", "cordon", "drain");
        for (String command : List.of("explain", "pending", "stop", "resume", "list", "create", "clusters", "capacity", "cordon", "drain", "uncordon")) {
            assertThat(ok("kubectl", "berth", command, "--help")).as(command).startsWith("Usage: kubectl berth " + command);
        }
    }

    @Test
    void berthExplainHonoursKubeconfigAndContextFromAnyDirectory() throws Exception {
        kubectl.run("kubectl create -f " + EXAMPLES.resolve("jobs").resolve("sample-job.yaml").toAbsolutePath()).ok();
        String workload = await().atMost(Duration.ofSeconds(20)).until(() -> kubectl.run(
                "kubectl get workloads -n team-a -o jsonpath={.items[0].metadata.name}").ok().stdout(), s -> !s.isBlank());
        String printed = ok(BIN.resolve("berth").toString(), "explain", "team-a/" + workload, ADMIN);
        assertThat(printed).startsWith("answer: ").contains("admission");
    }

    /** The sample job in team-b, each pod asking for gpus GPUs; returns the Job's name. */
    private static String createTeamBJob(int gpus) throws Exception {
        String manifest = Files.readString(EXAMPLES.resolve("jobs").resolve("sample-job.yaml"))
                .replace("namespace: team-a", "namespace: team-b").replace("team-a-queue", "team-b-queue")
                .replace("nvidia.com/gpu: 1", "nvidia.com/gpu: " + gpus);
        Path file = Files.createTempFile(home, "job", ".yaml");
        Files.writeString(file, manifest);
        String created = kubectl.run("kubectl create -o name -f " + file).ok().stdout().trim();
        return created.substring(created.indexOf('/') + 1);
    }

    private static String ownedWorkload(String job) throws Exception {
        return kubectl.run(List.of("get", "workloads", "-n", "team-b", "-o", "go-template={{range .items}}{{$w := .metadata.name}}"
                + "{{range .metadata.ownerReferences}}{{if eq .name \"" + job + "\"}}{{$w}}{{end}}{{end}}{{end}}")).ok().stdout().trim();
    }

    private static String annotations(String cluster) throws Exception {
        return field("multikueuecluster " + cluster,
                "{.metadata.annotations.berth\\.dev/cordon}/{.metadata.annotations.berth\\.dev/drain}");
    }

    private static String field(String object, String jsonpath) throws Exception {
        return kubectl.run("kubectl get " + object + " -o jsonpath=" + jsonpath).ok().stdout().trim();
    }

    record Result(int exitCode, String output) {
    }

    private static String ok(String... command) throws Exception {
        Result result = run(List.of(command));
        if (result.exitCode() != 0) fail(String.join(" ", command) + " exited with " + result.exitCode() + ":\n" + result.output());
        return result.output();
    }

    /** Runs a command from a directory outside the checkout, with bin/ and kubectl on PATH and the two-file KUBECONFIG. */
    private static Result run(List<String> command) throws Exception {
        Path workdir = Files.createDirectories(home.resolve("elsewhere-dir"));
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).directory(workdir.toFile());
        builder.environment().put("KUBECONFIG", kubeconfigList);
        builder.environment().put("HOME", home.toString());
        builder.environment().put("PATH", BIN + File.pathSeparator + kubectlBinary.getParent() + File.pathSeparator
                + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        Path out = Files.createTempFile(home, "plugin", ".txt");
        builder.redirectErrorStream(true).redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process process = builder.start();
        if (!process.waitFor(Kubectl.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(String.join(" ", command) + " did not finish within " + Kubectl.TIMEOUT_SECONDS + "s");
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }
}
