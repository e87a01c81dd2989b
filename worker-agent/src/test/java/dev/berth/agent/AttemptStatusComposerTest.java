package dev.berth.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.crd.RemoteWorkloadPhase;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import dev.berth.protocol.crd.RemoteWorkloadStatus.PodProblem;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AttemptStatusComposerTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:01:00Z");

    static Pod pod(String name, String phase) {
        return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus().withPhase(phase).endStatus().build();
    }

    static Pod unschedulable(String name) {
        return new PodBuilder(pod(name, "Pending")).editStatus().addNewCondition().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").withMessage("0/3 nodes are available: 3 Insufficient nvidia.com/gpu.").endCondition().endStatus().build();
    }

    static Pod crashing(String name) {
        return new PodBuilder(pod(name, "Running")).editStatus().addNewContainerStatus().withName("train").withNewState().withNewWaiting()
                .withReason("CrashLoopBackOff").withMessage("back-off 10s").endWaiting().endState().endContainerStatus().endStatus().build();
    }

    static Pod failedWithExit(String name) {
        return new PodBuilder(pod(name, "Failed")).editStatus().addNewContainerStatus().withName("train").withNewState().withNewTerminated()
                .withExitCode(3).endTerminated().endState().endContainerStatus().endStatus().build();
    }

    static Map<String, Object> job(Map<String, Object> status) {
        return Map.of("kind", "Job", "spec", Map.of("completions", 2), "status", status);
    }

    static Map<String, Object> kubeflow(String kind, String lastCondition, String status) {
        return Map.of("kind", kind, "status", Map.of("conditions", List.of(Map.of("type", "Created", "status", "True"),
                Map.of("type", lastCondition, "status", status))));
    }

    static Stream<Arguments> cases() {
        Map<String, Object> complete = Map.of("succeeded", 2, "conditions", List.of(Map.of("type", "Complete", "status", "True")));
        return Stream.of(
                Arguments.of("job created, no pods yet", List.of(job(Map.of())), List.of(), RemoteWorkloadPhase.ADMITTED, 0, 0),
                Arguments.of("a running pod", List.of(job(Map.of("active", 1))), List.of(pod("a", "Running"), pod("b", "Pending")), RemoteWorkloadPhase.RUNNING, 1, 0),
                Arguments.of("job Complete condition", List.of(job(complete)), List.of(pod("a", "Succeeded"), pod("b", "Succeeded")), RemoteWorkloadPhase.SUCCEEDED, 0, 2),
                Arguments.of("succeeded count reaches completions", List.of(job(Map.of("succeeded", 2))), List.of(), RemoteWorkloadPhase.SUCCEEDED, 0, 0),
                Arguments.of("job Failed condition", List.of(job(Map.of("conditions", List.of(Map.of("type", "Failed", "status", "True"))))),
                        List.of(failedWithExit("a")), RemoteWorkloadPhase.FAILED, 0, 0),
                Arguments.of("jobset Completed", List.of(Map.of("kind", "JobSet", "status", Map.of("conditions", List.of(Map.of("type", "Completed", "status", "True"))))),
                        List.of(), RemoteWorkloadPhase.SUCCEEDED, 0, 0),
                Arguments.of("pytorchjob running while its master runs, though a worker finished",
                        List.of(kubeflow("PyTorchJob", "Running", "True")), List.of(pod("m", "Running"), pod("w", "Succeeded")),
                        RemoteWorkloadPhase.RUNNING, 1, 1),
                Arguments.of("pytorchjob Succeeded condition", List.of(kubeflow("PyTorchJob", "Succeeded", "True")),
                        List.of(pod("m", "Succeeded"), pod("w", "Running")), RemoteWorkloadPhase.SUCCEEDED, 1, 1),
                Arguments.of("mpijob Failed condition", List.of(kubeflow("MPIJob", "Failed", "True")),
                        List.of(failedWithExit("launcher")), RemoteWorkloadPhase.FAILED, 0, 0),
                Arguments.of("trainjob Complete condition", List.of(kubeflow("TrainJob", "Complete", "True")),
                        List.of(pod("node-0", "Succeeded"), pod("node-1", "Succeeded")), RemoteWorkloadPhase.SUCCEEDED, 0, 2),
                Arguments.of("trainjob Failed condition", List.of(kubeflow("TrainJob", "Failed", "True")),
                        List.of(failedWithExit("node-0")), RemoteWorkloadPhase.FAILED, 0, 0),
                Arguments.of("trainjob running: its JobSet's jobs ended but no Complete yet", List.of(kubeflow("TrainJob", "Created", "True")),
                        List.of(pod("node-0", "Succeeded"), pod("node-1", "Running")), RemoteWorkloadPhase.RUNNING, 1, 1),
                Arguments.of("rayjob running while its submitter runs", List.of(ray("RayJob", "Running", "RUNNING"), ray("RayCluster", null, null)),
                        List.of(pod("head", "Running"), pod("submitter", "Running")), RemoteWorkloadPhase.RUNNING, 2, 0),
                Arguments.of("the RemoteWorkload's own object decides, not a labelled child listed before it (KubeRay's RayCluster)",
                        List.of(ownedBy(ray("RayCluster", null, null), "RayJob"), ownedBy(ray("RayJob", "Complete", "SUCCEEDED"), "RemoteWorkload")),
                        List.of(pod("submitter", "Succeeded")), RemoteWorkloadPhase.SUCCEEDED, 0, 1),
                Arguments.of("rayjob Complete with SUCCEEDED", List.of(ray("RayJob", "Complete", "SUCCEEDED")),
                        List.of(pod("submitter", "Succeeded")), RemoteWorkloadPhase.SUCCEEDED, 0, 1),
                Arguments.of("rayjob Failed deployment", List.of(ray("RayJob", "Failed", "FAILED")),
                        List.of(failedWithExit("submitter")), RemoteWorkloadPhase.FAILED, 0, 0),
                Arguments.of("raycluster never finishes, even with every pod ended", List.of(ray("RayCluster", null, null)),
                        List.of(pod("head", "Succeeded")), RemoteWorkloadPhase.ADMITTED, 0, 1),
                Arguments.of("a deployment serves on, never finished, though a replaced pod ended",
                        List.of(Map.of("kind", "Deployment", "status", Map.of("readyReplicas", 2))),
                        List.of(pod("a", "Running"), pod("b", "Running"), pod("c", "Succeeded")), RemoteWorkloadPhase.RUNNING, 2, 1),
                Arguments.of("a leaderworkerset whose pods all ended is still not finished",
                        List.of(Map.of("kind", "LeaderWorkerSet", "status", Map.of())),
                        List.of(pod("a", "Succeeded")), RemoteWorkloadPhase.ADMITTED, 0, 1),
                Arguments.of("appwrapper Running while its pods run", List.of(appWrapper("Running", "True")),
                        List.of(pod("a", "Running"), pod("b", "Succeeded")), RemoteWorkloadPhase.RUNNING, 1, 1),
                Arguments.of("appwrapper Succeeded phase", List.of(appWrapper("Succeeded", "True")),
                        List.of(pod("a", "Succeeded")), RemoteWorkloadPhase.SUCCEEDED, 0, 1),
                Arguments.of("appwrapper Failed but still deleting its resources is not finished (Kueue's AppWrapper.Finished)",
                        List.of(appWrapper("Failed", "True")), List.of(failedWithExit("a")), RemoteWorkloadPhase.ADMITTED, 0, 0),
                Arguments.of("appwrapper Failed once its resources are gone", List.of(appWrapper("Failed", "False")),
                        List.of(failedWithExit("a")), RemoteWorkloadPhase.FAILED, 0, 0),
                Arguments.of("pod group all succeeded", List.of(), List.of(pod("a", "Succeeded"), pod("b", "Succeeded")), RemoteWorkloadPhase.SUCCEEDED, 0, 2),
                Arguments.of("pod group one failed", List.of(), List.of(pod("a", "Succeeded"), failedWithExit("b")), RemoteWorkloadPhase.FAILED, 0, 1));
    }

    private static Map<String, Object> ownedBy(Map<String, Object> object, String ownerKind) {
        Map<String, Object> owned = new java.util.LinkedHashMap<>(object);
        owned.put("metadata", Map.of("ownerReferences", List.of(Map.of("kind", ownerKind, "controller", true))));
        return owned;
    }

    private static Map<String, Object> appWrapper(String phase, String resourcesDeployed) {
        return Map.of("kind", "AppWrapper", "status", Map.of("phase", phase,
                "conditions", List.of(Map.of("type", "ResourcesDeployed", "status", resourcesDeployed))));
    }

    private static Map<String, Object> ray(String kind, String deployment, String jobStatus) {
        Map<String, Object> status = new java.util.LinkedHashMap<>();
        if (deployment != null) status.put("jobDeploymentStatus", deployment);
        if (jobStatus != null) status.put("jobStatus", jobStatus);
        if (kind.equals("RayCluster")) status.put("state", "ready");
        return Map.of("kind", kind, "status", status);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void phaseFollowsTheCreatedObjectAndItsPods(String behaviour, List<Map<String, Object>> objects, List<Pod> pods,
                                                String phase, int running, int succeeded) {
        RemoteWorkloadStatus previous = new RemoteWorkloadStatus();
        previous.setPhase(RemoteWorkloadPhase.ADMITTED);
        previous.setAdmittedTime("2026-01-01T00:00:00Z");

        RemoteWorkloadStatus status = AttemptStatusComposer.compose(previous, "att-1", objects, pods, NOW);

        assertThat(status.getPhase()).isEqualTo(phase);
        assertThat(status.getAttemptId()).isEqualTo("att-1");
        assertThat(status.getAdmittedTime()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(status.getPodsRunning()).isEqualTo(running);
        assertThat(status.getPodsSucceeded()).isEqualTo(succeeded);
        assertThat(status.getCompletionTime()).isEqualTo(RemoteWorkloadPhase.isFinal(phase) ? NOW.toString() : null);
    }

    @org.junit.jupiter.api.Test
    void problemsNameUnschedulablePodsAndFailingContainers() {
        RemoteWorkloadStatus previous = new RemoteWorkloadStatus();
        Map<String, Object> job = job(Map.of("active", 2));

        RemoteWorkloadStatus status = AttemptStatusComposer.compose(previous, "att-1", List.of(job),
                List.of(unschedulable("a"), crashing("b"), failedWithExit("c")), NOW);

        assertThat(status.getPodProblems()).usingRecursiveFieldByFieldElementComparator().containsExactly(
                new PodProblem("a", null, "Unschedulable", "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."),
                new PodProblem("b", "train", "CrashLoopBackOff", "back-off 10s"),
                new PodProblem("c", "train", "Error", "exit code 3"));
        assertThat(status.getObjectStatus()).isEqualTo(Map.of("active", 2));
        assertThat(status.getPodsPending()).isEqualTo(1);
        assertThat(status.getStartTime()).isEqualTo(NOW.toString());
    }

    @org.junit.jupiter.api.Test
    void plainPodsReportEachPodsOwnStatusByName() {
        Map<String, Object> running = Map.of("phase", "Running", "podIP", "10.0.0.7");
        List<Map<String, Object>> pods = List.of(
                Map.of("kind", "Pod", "metadata", Map.of("name", "p-1"), "status", running),
                Map.of("kind", "Pod", "metadata", Map.of("name", "p-0"), "status", Map.of("phase", "Pending")));

        RemoteWorkloadStatus status = AttemptStatusComposer.compose(new RemoteWorkloadStatus(), "att-1", pods,
                List.of(pod("p-1", "Running"), pod("p-0", "Pending")), NOW);

        assertThat(status.getPodStatuses()).isEqualTo(Map.of("p-1", running, "p-0", Map.of("phase", "Pending")));
        assertThat(status.getObjectStatus()).isNull();
    }

    @org.junit.jupiter.api.Test
    void everyLaterReportKeepsTheProvisioningRequestTheAttemptWasAdmittedOn() {
        dev.berth.protocol.crd.ProvisioningProgress provisioned = new dev.berth.protocol.crd.ProvisioningProgress();
        provisioned.setRequestName("job-grow-scale-up-2");
        provisioned.setAttempt(2);
        RemoteWorkloadStatus previous = new RemoteWorkloadStatus();
        previous.setPhase(RemoteWorkloadPhase.ADMITTED);
        previous.setProvisioning(provisioned);

        RemoteWorkloadStatus pending = AttemptStatusComposer.compose(previous, "att-1", List.of(job(Map.of("active", 2))),
                List.of(pod("a", "Pending")), NOW);
        RemoteWorkloadStatus running = AttemptStatusComposer.compose(pending, "att-1", List.of(job(Map.of("active", 2))),
                List.of(pod("a", "Running")), NOW);

        // the manager reads a report without a request as "admitted without one" (Kueue's "not needed")
        assertThat(pending.getPhase()).isEqualTo(RemoteWorkloadPhase.ADMITTED);
        assertThat(pending.getProvisioning()).isSameAs(provisioned);
        assertThat(running.getPhase()).isEqualTo(RemoteWorkloadPhase.RUNNING);
        assertThat(running.getProvisioning()).isSameAs(provisioned);
    }
}
