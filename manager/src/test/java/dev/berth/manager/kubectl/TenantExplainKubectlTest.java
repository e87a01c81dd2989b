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
 * {@code kubectl berth explain} as a tenant of team-a (the quickstart's tenant token, the example
 * RBAC) against a secured manager with the example queues: team-a-cq has used its a100 and h100
 * quota and team-b-cq lends only 4 a100. The tenant gets its answer and the verified change that
 * would admit the job, worded without team-b-cq's name; the administrator reading the same workload
 * sees the name.
 */
@NeedsKubectl
class TenantExplainKubectlTest {
    static final Path EXAMPLES = Path.of("..", "examples");
    static final Path BIN = Path.of("..", "bin").toAbsolutePath().normalize();
    static final String ADMIN = "--context=" + QuickstartCredentials.ADMIN_CONTEXT;
    static final String TENANT = "--context=" + QuickstartCredentials.TENANT_CONTEXT;
    static final java.util.regex.Pattern HOLDS_QUOTA = java.util.regex.Pattern.compile("admission\\s+ok");

    /** Secured with the quickstart's credentials; multikueue holds the queues' admission check (else they are inactive). */
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.empty().secured().manifests(EXAMPLES.resolve("queues")).manifests(EXAMPLES.resolve("rbac"))
            .manifests(EXAMPLES.resolve("multikueue"));
    @TempDir
    static Path home;
    static Path kubeconfig;
    static Path kubectlBinary;

    @BeforeAll
    static void start() throws Exception {
        kubectlBinary = Kubectl.find().orElse(null);
        Kubectl.withKubeconfig(home.resolve("unused")); // skips, or fails under CI=true, without kubectl
        kubeconfig = harness.writeKubeconfig(home.resolve("kube").resolve("berth.yaml"));
    }

    @Test
    void theTenantGetsItsAnswerAndNoOtherTeamsName() throws Exception {
        String first = job(ADMIN, 8);
        await().atMost(Duration.ofSeconds(20)).until(() -> explain(first, ADMIN), out -> HOLDS_QUOTA.matcher(out).find());
        String second = job(ADMIN, 8); // a100 is used up, borrowing is not tried first (TryNextFlavor): h100
        await().atMost(Duration.ofSeconds(20)).until(() -> explain(second, ADMIN), out -> HOLDS_QUOTA.matcher(out).find());
        String mine = job(TENANT, 6);

        String tenant = await().atMost(Duration.ofSeconds(20)).until(() -> explain(mine, TENANT), out -> out.contains("would admit it now"));
        assertThat(tenant).startsWith("answer: Waiting for 2 nvidia.com/gpu: team-a-cq has used its a100 and h100 quota (8/8 each)"
                        + " and can borrow only 4 more from gpu-pool; nothing may be preempted.\nwould admit it now:\n")
                .contains("  - Raise the lendingLimit of another ClusterQueue in cohort gpu-pool for a100 nvidia.com/gpu by 2\n")
                .contains("  - Raise the nominalQuota of team-a-cq for h100 nvidia.com/gpu by 2 (8 to 10)\n")
                .as("research is the class team-a may use; at 100 it may preempt team-a's own jobs at 0 (withinClusterQueue LowerPriority)")
                .contains("  - Use WorkloadPriorityClass research (priority 100, now 0): it may preempt\n")
                .doesNotContain("default-cpu nvidia.com/gpu by", "production")
                .doesNotContain("team-b");
        Result otherTeam = run(List.of("kubectl", "berth", "explain", "team-b/any", TENANT));
        assertThat(otherTeam.exitCode()).as("another team's namespace").isNotZero();
        assertThat(otherTeam.output()).contains("Forbidden").contains("workloads/explain");
        assertThat(explain(mine, ADMIN)).as("the administrator reads every name")
                .contains("  - Raise the lendingLimit of team-b-cq for a100 nvidia.com/gpu by 2 (4 to 6)\n");
    }

    /** A one-pod Job in team-a asking for gpus GPUs, created with the given context; returns its name. */
    private static String job(String context, int gpus) throws Exception {
        String manifest = Files.readString(EXAMPLES.resolve("jobs").resolve("sample-job.yaml"))
                .replace("parallelism: 2", "parallelism: 1").replace("completions: 2", "completions: 1")
                .replace("nvidia.com/gpu: 1", "nvidia.com/gpu: " + gpus);
        Path file = Files.createTempFile(home, "job", ".yaml");
        Files.writeString(file, manifest);
        String created = ok("kubectl", "create", "-o", "name", "-f", file.toString(), context);
        return created.trim().substring(created.indexOf('/') + 1);
    }

    private static String explain(String job, String context) throws Exception {
        Result result = run(List.of("kubectl", "berth", "explain", "job/" + job, "-n", "team-a", context));
        return result.exitCode() == 0 ? result.output() : "";
    }

    record Result(int exitCode, String output) {
    }

    private static String ok(String... command) throws Exception {
        Result result = run(List.of(command));
        if (result.exitCode() != 0) fail(String.join(" ", command) + " exited with " + result.exitCode() + ":\n" + result.output());
        return result.output();
    }

    /** Runs a command with bin/ and kubectl on PATH and the quickstart's kubeconfig. */
    private static Result run(List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).directory(home.toFile());
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        builder.environment().put("HOME", home.toString());
        builder.environment().put("PATH", BIN + File.pathSeparator + kubectlBinary.getParent() + File.pathSeparator
                + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        Path out = Files.createTempFile(home, "kubectl", ".txt");
        builder.redirectErrorStream(true).redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process process = builder.start();
        if (!process.waitFor(Kubectl.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(String.join(" ", command) + " did not finish within " + Kubectl.TIMEOUT_SECONDS + "s");
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }
}
