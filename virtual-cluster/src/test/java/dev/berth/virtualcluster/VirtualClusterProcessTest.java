package dev.berth.virtualcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.berth.protocol.Annotations;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/** A real virtual cluster process, driven through its kubeconfig like the agent will drive it. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VirtualClusterProcessTest {
    private static final String A100 = "NVIDIA-A100-SXM4-40GB";
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    static VirtualClusterProcess cluster;
    static KubernetesClient client;

    @BeforeAll
    static void startCluster() {
        cluster = VirtualClusterProcess.start("a100-ondemand", "a100:3x8,cpu:1", dir, false);
        Config config = Config.fromKubeconfig(cluster.kubeconfig().toFile());
        config.setRequestRetryBackoffLimit(0);
        client = new KubernetesClientBuilder().withConfig(config).build();
    }

    @AfterAll
    static void stopCluster() {
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void gpuNodesCarryGpuOperatorLabelsTaintAndAllocatable() {
        List<Node> nodes = client.nodes().list().getItems();
        assertThat(nodes).hasSize(4);
        Node gpu = client.nodes().withName("a100-ondemand-a100-0").get();
        assertThat(gpu.getMetadata().getLabels())
            .containsEntry(Labels.GPU_PRODUCT, A100)
            .containsEntry("nvidia.com/gpu.count", "8")
            .containsEntry("node.kubernetes.io/instance-type", "p4d.24xlarge")
            .doesNotContainKey("node-lifecycle");
        assertThat(gpu.getSpec().getTaints()).singleElement().satisfies(t -> {
            assertThat(t.getKey()).isEqualTo("nvidia.com/gpu");
            assertThat(t.getValue()).isEqualTo("present");
            assertThat(t.getEffect()).isEqualTo("NoSchedule");
        });
        assertThat(gpu.getStatus().getAllocatable()).containsEntry("nvidia.com/gpu", new Quantity("8"))
            .containsEntry("cpu", new Quantity("96")).containsEntry("memory", new Quantity("1Ti"))
            .containsEntry("pods", new Quantity("110"));
        Node cpu = client.nodes().withName("a100-ondemand-cpu-0").get();
        assertThat(cpu.getMetadata().getLabels()).doesNotContainKey(Labels.GPU_PRODUCT);
        assertThat(cpu.getSpec().getTaints()).isNullOrEmpty();
        assertThat(cpu.getStatus().getAllocatable()).containsEntry("cpu", new Quantity("32"))
            .doesNotContainKey("nvidia.com/gpu");
        assertThat(client.namespaces().withName("berth-system").get()).isNotNull();
    }

    @Test
    @Order(2)
    void gpuJobRunsItsPodsToCompletion() {
        client.batch().v1().jobs().inNamespace("default").resource(gpuJob("train", 4, "PT0.5S", null)
            .editSpec().withParallelism(2).withCompletions(3).endSpec().build()).create();

        await().atMost(PATIENCE).untilAsserted(() -> {
            Job job = client.batch().v1().jobs().inNamespace("default").withName("train").get();
            assertThat(job.getStatus()).isNotNull();
            assertThat(job.getStatus().getConditions()).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo("Complete");
                assertThat(c.getStatus()).isEqualTo("True");
            });
            assertThat(job.getStatus().getSucceeded()).isEqualTo(3);
            assertThat(job.getStatus().getCompletionTime()).isNotNull();
        });
        // kube 1.32's Job status: SuccessCriteriaMet before Complete, both CompletionsReached, and every counter
        Job done = client.batch().v1().jobs().inNamespace("default").withName("train").get();
        assertThat(done.getStatus().getConditions()).extracting(c -> c.getType() + "/" + c.getReason())
            .containsExactly("SuccessCriteriaMet/CompletionsReached", "Complete/CompletionsReached");
        assertThat(done.getStatus().getConditions()).allSatisfy(c -> assertThat(c.getLastTransitionTime()).isNotNull());
        assertThat(done.getStatus().getStartTime()).isNotNull();
        assertThat(done.getStatus().getActive()).isZero();
        assertThat(done.getStatus().getReady()).isZero();
        assertThat(done.getStatus().getFailed()).isZero();
        assertThat(done.getStatus().getTerminating()).isZero();
        assertThat(done.getStatus().getUncountedTerminatedPods()).isNotNull();
        List<Pod> pods = client.pods().inNamespace("default").withLabel("job-name", "train").list().getItems();
        assertThat(pods).hasSize(3).allSatisfy(pod -> {
            assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
            assertThat(pod.getSpec().getNodeName()).startsWith("a100-ondemand-a100-");
            assertThat(pod.getMetadata().getLabels()).containsEntry("batch.kubernetes.io/job-name", "train")
                .containsEntry(Labels.WORKLOAD_NAME, "default/train");
            assertThat(pod.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getKind()).isEqualTo("Job"));
            assertThat(pod.getStatus().getContainerStatuses()).singleElement().satisfies(s -> {
                assertThat(s.getState().getTerminated().getExitCode()).isZero();
                assertThat(s.getState().getTerminated().getReason()).isEqualTo("Completed");
            });
        });
    }

    @Test
    @Order(3)
    void jobAskingForMoreGpusThanAnyNodeHasStaysPendingAndSaysWhy() {
        client.batch().v1().jobs().inNamespace("default").resource(gpuJob("huge", 16, "PT0.5S", null).build()).create();

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<Pod> pods = client.pods().inNamespace("default").withLabel("job-name", "huge").list().getItems();
            assertThat(pods).singleElement().satisfies(pod -> {
                assertThat(pod.getStatus()).isNotNull();
                assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
                assertThat(pod.getSpec().getNodeName()).isNull();
                assertThat(pod.getStatus().getConditions()).anySatisfy(scheduled -> {
                    assertThat(scheduled.getType()).isEqualTo("PodScheduled");
                    assertThat(scheduled.getStatus()).isEqualTo("False");
                    assertThat(scheduled.getReason()).isEqualTo("Unschedulable");
                    assertThat(scheduled.getMessage()).isEqualTo("0/4 nodes are available: "
                        + "1 node(s) didn't match Pod's node affinity/selector, 3 Insufficient nvidia.com/gpu.");
                });
            });
        });
        client.batch().v1().jobs().inNamespace("default").withName("huge").delete();
        await().atMost(PATIENCE).until(() ->
            client.pods().inNamespace("default").withLabel("job-name", "huge").list().getItems().isEmpty());
    }

    @Test
    @Order(4)
    void podWithExitCodeOneFailsAndTheJobFailsPastItsBackoffLimit() {
        client.batch().v1().jobs().inNamespace("default").resource(gpuJob("crash", 1, "PT0.5S", "1")
            .editSpec().withBackoffLimit(0).endSpec().build()).create();

        await().atMost(PATIENCE).untilAsserted(() -> {
            Job job = client.batch().v1().jobs().inNamespace("default").withName("crash").get();
            assertThat(job.getStatus()).isNotNull();
            assertThat(job.getStatus().getConditions()).anySatisfy(c -> assertThat(c.getType()).isEqualTo("Failed"));
            assertThat(job.getStatus().getFailed()).isEqualTo(1);
        });
        Job failed = client.batch().v1().jobs().inNamespace("default").withName("crash").get();
        assertThat(failed.getStatus().getConditions()).extracting(c -> c.getType() + "/" + c.getReason())
            .containsExactly("FailureTarget/BackoffLimitExceeded", "Failed/BackoffLimitExceeded");
        Pod pod = client.pods().inNamespace("default").withLabel("job-name", "crash").list().getItems().get(0);
        assertThat(pod.getStatus().getPhase()).isEqualTo("Failed");
        assertThat(pod.getStatus().getContainerStatuses().get(0).getState().getTerminated().getExitCode()).isEqualTo(1);
        assertThat(pod.getStatus().getContainerStatuses().get(0).getState().getTerminated().getReason()).isEqualTo("Error");
    }

    @Test
    @Order(5)
    void remoteWorkloadStatusIsWrittenThroughTheStatusSubresource() {
        RemoteWorkload workload = new RemoteWorkload();
        workload.getMetadata().setName("wl-1");
        workload.getMetadata().setNamespace("default");
        RemoteWorkloadSpec spec = new RemoteWorkloadSpec();
        spec.setWorkloadName("wl-1");
        spec.setAttemptId("attempt-1");
        workload.setSpec(spec);
        client.resources(RemoteWorkload.class).inNamespace("default").resource(workload).create();

        RemoteWorkload stored = client.resources(RemoteWorkload.class).inNamespace("default").withName("wl-1").get();
        RemoteWorkloadStatus status = new RemoteWorkloadStatus();
        status.setPhase("Running");
        status.setAttemptId("attempt-1");
        status.setPodsRunning(2);
        status.setObjectStatus(Map.of("active", 2));
        stored.setStatus(status);
        client.resources(RemoteWorkload.class).inNamespace("default").resource(stored).updateStatus();

        RemoteWorkload read = client.resources(RemoteWorkload.class).inNamespace("default").withName("wl-1").get();
        assertThat(read.getStatus().getPhase()).isEqualTo("Running");
        assertThat(read.getStatus().getPodsRunning()).isEqualTo(2);
        assertThat(read.getStatus().getObjectStatus()).containsEntry("active", 2);
        assertThat(read.getSpec().getAttemptId()).isEqualTo("attempt-1");
    }

    @Test
    @Order(6)
    void podLifetimeRecordHasAStartAndAnEndForEveryFinishedPod() {
        await().atMost(PATIENCE).untilAsserted(() -> {
            List<PodInterval> train = cluster.podLifetimes().stream()
                .filter(i -> "default/train".equals(i.workload())).toList();
            assertThat(train).hasSize(3).allSatisfy(i -> {
                assertThat(i.cluster()).isEqualTo("a100-ondemand");
                assertThat(i.ended()).isTrue();
                assertThat(i.endPhase()).isEqualTo("Succeeded");
                assertThat(i.endMillis()).isGreaterThanOrEqualTo(i.startMillis() + 500);
                assertThat(i.node()).startsWith("a100-ondemand-a100-");
                assertThat(i.labels()).containsEntry("job-name", "train");
            });
        });
    }

    @Test
    @Order(7)
    void jobSetRunsOneJobPerReplicaAndCompletes() {
        Map<String, Object> podSpec = Map.of(
            "restartPolicy", "Never",
            "containers", List.of(Map.of("name", "main", "image", "trainer:1",
                "resources", Map.of("requests", Map.of("cpu", "1")))));
        Map<String, Object> jobTemplate = Map.of("spec", Map.of("parallelism", 1, "completions", 1,
            "template", Map.of("metadata", Map.of("annotations", Map.of(Annotations.SIMULATED_RUNTIME, "PT0.5S")),
                "spec", podSpec)));
        GenericKubernetesResource jobSet = new GenericKubernetesResourceBuilder()
            .withApiVersion("jobset.x-k8s.io/v1alpha2").withKind("JobSet")
            .withNewMetadata().withName("js").withNamespace("default").endMetadata()
            .addToAdditionalProperties("spec", Map.of("replicatedJobs",
                List.of(Map.of("name", "workers", "replicas", 2, "template", jobTemplate))))
            .build();
        client.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace("default").resource(jobSet).create();

        await().atMost(PATIENCE).untilAsserted(() -> {
            GenericKubernetesResource stored = client.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
                .inNamespace("default").withName("js").get();
            assertThat(stored.getAdditionalProperties().get("status")).isNotNull()
                .asInstanceOf(InstanceOfAssertFactories.MAP).containsEntry("terminalState", "Completed");
        });
        assertThat(client.batch().v1().jobs().inNamespace("default").withLabel("jobset.sigs.k8s.io/jobset-name", "js")
            .list().getItems()).extracting(j -> j.getMetadata().getName()).containsExactlyInAnyOrder("js-workers-0", "js-workers-1");
    }

    @Test
    @Order(8)
    void deletingTheOwnerRemovesItsJobAndRunningPodsAndRecordsTheirEnd() {
        RemoteWorkload owner = new RemoteWorkload();
        owner.getMetadata().setName("owner");
        owner.getMetadata().setNamespace("default");
        owner.setSpec(new RemoteWorkloadSpec());
        owner = client.resources(RemoteWorkload.class).inNamespace("default").resource(owner).create();
        Job job = gpuJob("owned", 1, "PT60S", null)
            .editMetadata().addNewOwnerReference().withApiVersion("berth.dev/v1alpha1").withKind("RemoteWorkload")
                .withName("owner").withUid(owner.getMetadata().getUid()).withController(true).endOwnerReference()
            .endMetadata().build();
        client.batch().v1().jobs().inNamespace("default").resource(job).create();
        await().atMost(PATIENCE).until(() -> cluster.podLifetimes().stream()
            .anyMatch(i -> "default/owned".equals(i.workload()) && !i.ended()));

        client.resources(RemoteWorkload.class).inNamespace("default").withName("owner").delete();

        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(client.batch().v1().jobs().inNamespace("default").withName("owned").get()).isNull();
            assertThat(client.pods().inNamespace("default").withLabel("job-name", "owned").list().getItems()).isEmpty();
            assertThat(cluster.podLifetimes()).filteredOn(i -> "default/owned".equals(i.workload()))
                .singleElement().satisfies(i -> assertThat(i.endPhase()).isEqualTo("Deleted"));
        });
    }

    @Test
    @Order(99)
    void noSimulatorStepFailedWhileTheTestsRan() throws Exception {
        assertThat(Files.readString(cluster.dir().resolve(VirtualClusterProcess.LOG_FILE)))
            .contains("READY " + cluster.port())
            .doesNotContain("Simulator step");
    }

    @Test
    @Order(98)
    void requestsAreCountedByUserVerbAndResourceNextToTheLog() {
        Path counts = cluster.dir().resolve(VirtualCluster.REQUEST_LOG_FILE + ".counts");
        client.nodes().list();
        client.nodes().list();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(Files.exists(counts)).isTrue());
        await().atMost(PATIENCE).untilAsserted(() -> {
            List<String> lines = Files.readAllLines(counts);
            assertThat(lines.get(0)).isEqualTo("count\tuser\tverb\tresource");
            // the admin's lists of nodes, summed over every test so far; the simulator's own are "unknown"
            assertThat(lines).anySatisfy(line -> {
                String[] fields = line.split("\t");
                assertThat(fields).hasSize(4);
                assertThat(fields[1] + " " + fields[2] + " " + fields[3]).isEqualTo(ClientIdentity.ADMIN.user() + " list /nodes");
                assertThat(Long.parseLong(fields[0])).isGreaterThanOrEqualTo(2);
            });
        });
    }

    @Test
    @Order(96)
    void aJsonPatchWhoseTestFailsIsRefusedWith422AndChangesNothing() {
        RemoteWorkload copy = new RemoteWorkload();
        copy.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withNamespace("default").withName("patched").build());
        RemoteWorkloadSpec spec = new RemoteWorkloadSpec();
        spec.setOrigin("test");
        spec.setWorkloadName("default/patched");
        spec.setAttemptId("a-1");
        spec.setFencingEpoch(7);
        copy.setSpec(spec);
        var copies = client.resources(RemoteWorkload.class).inNamespace("default");
        copies.resource(copy).create();
        var json = io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON);

        assertThatThrownBy(() -> copies.resource(copy).patch(json,
                "[{\"op\":\"test\",\"path\":\"/spec/fencingEpoch\",\"value\":6},{\"op\":\"add\",\"path\":\"/spec/leaseRenewTime\",\"value\":\"x\"}]"))
            .isInstanceOfSatisfying(io.fabric8.kubernetes.client.KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422));
        assertThat(copies.withName("patched").get().getSpec().getLeaseRenewTime()).isNull();

        copies.resource(copy).patch(json,
                "[{\"op\":\"test\",\"path\":\"/spec/fencingEpoch\",\"value\":7},{\"op\":\"add\",\"path\":\"/spec/leaseRenewTime\",\"value\":\"x\"}]");
        assertThat(copies.withName("patched").get().getSpec().getLeaseRenewTime()).isEqualTo("x");
    }

    @Test
    @Order(97)
    void anApiOnlyClusterRunsNoSimulatorPasses(@TempDir Path apiOnlyDir) throws Exception {
        try (VirtualClusterProcess apiOnly = VirtualClusterProcess.startApiOnly("bare", "a100:1x8,cpu:1", apiOnlyDir)) {
            Path counts = apiOnlyDir.resolve(VirtualCluster.REQUEST_LOG_FILE + ".counts");
            // the counts are rewritten every 5 s; a simulating cluster lists its Jobs in every pass (5 a second)
            // the one pass at start lists the Jobs; on a loaded machine the first rewrite may come before it
            await().atMost(PATIENCE).until(() -> Files.exists(counts) && countOf(counts, RequestRecorder.UNKNOWN_USER + " list batch/jobs") > 0);
            long seenAt = Files.getLastModifiedTime(counts).toMillis();
            await().atMost(PATIENCE).until(() -> Files.getLastModifiedTime(counts).toMillis() > seenAt); // past a rewrite mid-pass
            long firstWrite = Files.getLastModifiedTime(counts).toMillis();
            long atStart = countOf(counts, RequestRecorder.UNKNOWN_USER + " list batch/jobs");
            await().atMost(PATIENCE).until(() -> Files.getLastModifiedTime(counts).toMillis() > firstWrite);

            assertThat(countOf(counts, RequestRecorder.UNKNOWN_USER + " list batch/jobs")).isEqualTo(atStart);
        }
    }

    @Test
    @Order(98)
    void aDeleteOfWhatAListingShowedNeverDeletesAnObjectCreatedUnderItsNameSince() {
        var configMaps = client.configMaps().inNamespace("default");
        ConfigMap listed = configMaps.resource(new ConfigMapBuilder().withNewMetadata().withName("holder").endMetadata()
            .addToData("copy", "old").build()).create();
        configMaps.withName("holder").delete();
        await().atMost(PATIENCE).until(() -> configMaps.withName("holder").get() == null);
        ConfigMap next = configMaps.resource(new ConfigMapBuilder().withNewMetadata().withName("holder").endMetadata()
            .addToData("copy", "new").build()).create();

        assertThatThrownBy(() -> client.resource(listed).lockResourceVersion().delete())
            .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                assertThat(e.getCode()).isEqualTo(409);
                assertThat(e.getMessage()).contains("configmaps \"holder\"").contains("does not match the ResourceVersion in record");
            });
        assertThat(configMaps.withName("holder").get().getData()).containsEntry("copy", "new");

        client.resource(next).lockResourceVersion().delete();
        assertThat(configMaps.withName("holder").get()).isNull();
    }

    private static long countOf(Path counts, String userVerbResource) throws java.io.IOException {
        for (String line : Files.readAllLines(counts)) {
            String[] fields = line.split("\t");
            if (fields.length == 4 && (fields[1] + " " + fields[2] + " " + fields[3]).equals(userVerbResource)) return Long.parseLong(fields[0]);
        }
        return 0;
    }

    @Test
    @Order(100)
    void killMakesTheApiUnreachable() {
        cluster.kill();

        assertThat(cluster.isAlive()).isFalse();
        assertThatThrownBy(() -> client.nodes().list()).isInstanceOf(RuntimeException.class);
    }

    private static JobBuilder gpuJob(String name, int gpus, String runtime, String exitCode) {
        JobBuilder job = new JobBuilder()
            .withNewMetadata().withName(name).withNamespace("default")
                .addToLabels(Labels.WORKLOAD_NAME, "default/" + name).addToLabels(Labels.ATTEMPT_ID, name + "-attempt")
            .endMetadata()
            .withNewSpec()
                .withNewTemplate()
                    .withNewMetadata().addToAnnotations(Annotations.SIMULATED_RUNTIME, runtime).endMetadata()
                    .withNewSpec()
                        .withRestartPolicy("Never")
                        .addToNodeSelector(Labels.GPU_PRODUCT, A100)
                        .addNewToleration().withKey("nvidia.com/gpu").withOperator("Exists").withEffect("NoSchedule").endToleration()
                        .addNewContainer().withName("main").withImage("trainer:1")
                            .withNewResources().addToRequests("nvidia.com/gpu", new Quantity(Integer.toString(gpus)))
                                .addToRequests("cpu", new Quantity("4")).endResources()
                        .endContainer()
                    .endSpec()
                .endTemplate()
            .endSpec();
        if (exitCode != null) {
            job.editSpec().editTemplate().editMetadata().addToAnnotations(Annotations.SIMULATED_EXIT_CODE, exitCode)
                .endMetadata().endTemplate().endSpec();
        }
        return job;
    }

}
