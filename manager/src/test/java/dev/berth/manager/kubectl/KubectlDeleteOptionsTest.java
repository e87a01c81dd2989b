package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl's delete options and label removals lose nothing (issue 13): a server dry run
 * deletes nothing, --cascade decides the fate of the Job's Workload, and a removed label is removed.
 */
@NeedsKubectl
class KubectlDeleteOptionsTest {
    private static final String FLAVOR = """
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: ResourceFlavor
            metadata:
              name: %s
              labels:
            %s
            """;

    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();
    static final Kubectl kubectl = Kubectl.on(harness);
    @TempDir
    static Path home;

    @Test
    void serverDryRunDeleteLeavesTheObject() throws Exception {
        kubectl.run("kubectl create -f " + flavor("dry", "    tier: a")).ok();
        assertThat(kubectl.run("kubectl delete rf dry --dry-run=server").ok().stdout()).contains("deleted (server dry run)");
        assertThat(kubectl.run("kubectl get rf dry -o name").ok().stdout().trim()).isEqualTo("resourceflavor.kueue.x-k8s.io/dry");
    }

    @Test
    void orphanCascadeLeavesTheWorkloadWithoutItsOwner() throws Exception {
        String workload = createJobAndItsWorkload("orphaned");
        kubectl.run("kubectl delete job orphaned -n team-a --cascade=orphan").ok();
        assertThat(kubectl.run("kubectl get job orphaned -n team-a").exitCode()).isNotZero();
        assertThat(kubectl.run("kubectl get workload " + workload + " -n team-a -o jsonpath={.metadata.ownerReferences}").ok().stdout())
                .isEmpty();
        kubectl.run("kubectl delete workload " + workload + " -n team-a").ok();
    }

    @Test
    void backgroundCascadeDeletesTheJobAndItsWorkload() throws Exception {
        String workload = createJobAndItsWorkload("background");
        kubectl.run("kubectl delete job background -n team-a").ok();
        assertGone("job background");
        assertGone("workload " + workload);
    }

    @Test
    void foregroundCascadeDeletesTheJobAndItsWorkload() throws Exception {
        String workload = createJobAndItsWorkload("foreground");
        kubectl.run("kubectl delete job foreground -n team-a --cascade=foreground").ok();
        assertGone("job foreground");
        assertGone("workload " + workload);
    }

    @Test
    void labelWithTrailingDashRemovesTheLabel() throws Exception {
        kubectl.run("kubectl label ns team-a x=y").ok();
        assertThat(kubectl.run("kubectl get ns team-a -o jsonpath={.metadata.labels.x}").ok().stdout()).isEqualTo("y");
        kubectl.run("kubectl label ns team-a x-").ok();
        assertThat(kubectl.run("kubectl get ns team-a -o jsonpath={.metadata.labels}").ok().stdout()).doesNotContain("\"x\"");
    }

    @Test
    void applyAfterRemovingALabelFromTheManifestRemovesIt() throws Exception {
        kubectl.run("kubectl apply -f " + flavor("applied", "    keep: a\n    drop: b")).ok();
        kubectl.run("kubectl apply -f " + flavor("applied", "    keep: a")).ok();
        String labels = kubectl.run("kubectl get rf applied -o jsonpath={.metadata.labels}").ok().stdout();
        assertThat(labels).contains("\"keep\":\"a\"").doesNotContain("drop");
    }

    private static Path flavor(String name, String labels) throws Exception {
        return Files.writeString(home.resolve(name + ".yaml"), FLAVOR.formatted(name, labels));
    }

    /** Creates a queued Job named name in team-a and returns the name of the Workload derived for it. */
    private static String createJobAndItsWorkload(String name) throws Exception {
        String job = Files.readString(Path.of("..", "examples", "jobs", "sample-job.yaml"))
                .replace("generateName: sample-job-", "name: " + name);
        kubectl.run("kubectl create -f " + Files.writeString(home.resolve(name + "-job.yaml"), job)).ok();
        String[] owned = new String[1];
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            String rows = kubectl.run(List.of("get", "workloads", "-n", "team-a", "-o",
                    "jsonpath={range .items[*]}{.metadata.name}={.metadata.ownerReferences[0].name}{\"\\n\"}{end}")).ok().stdout();
            owned[0] = rows.lines().filter(row -> row.endsWith("=" + name)).map(row -> row.substring(0, row.indexOf('='))).findFirst().orElse(null);
            assertThat(owned[0]).as("the Workload of job " + name + " in\n" + rows).isNotNull();
        });
        return owned[0];
    }

    private static void assertGone(String kindAndName) throws Exception {
        Kubectl.Result result = kubectl.run("kubectl get " + kindAndName + " -n team-a");
        assertThat(result.exitCode()).as(kindAndName + " is gone").isNotZero();
        assertThat(result.stderr()).contains("not found");
    }
}
