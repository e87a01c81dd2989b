package dev.berth.virtualcluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs bound pods: Pending -> Running on the next pass, then Succeeded or Failed once the simulated
 * runtime has passed. Records each pod's start and end; a running pod that disappears ends "Deleted".
 */
final class Kubelet {
    private static final Logger LOG = LoggerFactory.getLogger(Kubelet.class);
    static final String DELETED = "Deleted";

    private final KubernetesClient client;
    private final Clock clock;
    private final String clusterName;
    private final PodLifetimeRecorder recorder;
    /** Running pods by uid, as last seen: to notice the ones deleted while running. */
    private final Map<String, Pod> running = new HashMap<>();

    Kubelet(KubernetesClient client, Clock clock, String clusterName, PodLifetimeRecorder recorder) {
        this.client = client;
        this.clock = clock;
        this.clusterName = clusterName;
        this.recorder = recorder;
    }

    void reconcile() {
        List<Pod> pods = client.pods().inAnyNamespace().list().getItems();
        Set<String> present = new HashSet<>();
        for (Pod pod : pods) {
            present.add(pod.getMetadata().getUid());
            if (pod.getSpec().getNodeName() == null) {
                continue;
            }
            try {
                step(pod);
            } catch (KubernetesClientException e) {
                LOG.debug("Could not advance pod {}/{}: {}", pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(), e.getMessage());
            }
        }
        new ArrayList<>(running.keySet()).stream().filter(uid -> !present.contains(uid)).forEach(uid -> {
            Pod gone = running.remove(uid);
            record(gone, PodLifetimeEvent.ENDED, DELETED, clock.millis());
            LOG.info("Pod {}/{} was deleted while running", gone.getMetadata().getNamespace(), gone.getMetadata().getName());
        });
    }

    private void step(Pod pod) {
        String phase = PodPhases.phase(pod);
        if (PodPhases.PENDING.equals(phase)) {
            start(pod);
        } else if (PodPhases.RUNNING.equals(phase)) {
            running.putIfAbsent(pod.getMetadata().getUid(), pod);
            Instant started = Instant.parse(pod.getStatus().getStartTime());
            SimulatedRun run = SimulatedRun.of(pod);
            if (!clock.instant().isBefore(started.plus(run.runtime()))) {
                finish(pod, started, run.exitCode());
            }
        }
    }

    private void start(Pod pod) {
        Instant now = clock.instant();
        String time = now.toString();
        Pod updated = edit(pod, status -> {
            status.setPhase(PodPhases.RUNNING);
            status.setStartTime(time);
            status.setHostIP("10.0.0.1");
            status.setPodIP("10.1.0.1");
            status.setConditions(conditions(status, "True", time));
            List<ContainerStatus> containers = new ArrayList<>();
            for (Container c : pod.getSpec().getContainers()) {
                containers.add(new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                    .withReady(true).withStarted(true).withRestartCount(0)
                    .withNewState().withNewRunning().withStartedAt(time).endRunning().endState().build());
            }
            status.setContainerStatuses(containers);
        });
        running.put(updated.getMetadata().getUid(), updated);
        record(updated, PodLifetimeEvent.STARTED, PodPhases.RUNNING, now.toEpochMilli());
    }

    private void finish(Pod pod, Instant started, int exitCode) {
        Instant now = clock.instant();
        String time = now.toString();
        String phase = exitCode == 0 ? PodPhases.SUCCEEDED : PodPhases.FAILED;
        Pod updated = edit(pod, status -> {
            status.setPhase(phase);
            status.setConditions(conditions(status, "False", time));
            List<ContainerStatus> containers = new ArrayList<>();
            for (Container c : pod.getSpec().getContainers()) {
                containers.add(new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                    .withReady(false).withStarted(false).withRestartCount(0)
                    .withNewState().withNewTerminated().withExitCode(exitCode)
                        .withReason(exitCode == 0 ? "Completed" : "Error")
                        .withStartedAt(started.toString()).withFinishedAt(time)
                    .endTerminated().endState().build());
            }
            status.setContainerStatuses(containers);
        });
        running.remove(updated.getMetadata().getUid());
        record(updated, PodLifetimeEvent.ENDED, phase, now.toEpochMilli());
    }

    private Pod edit(Pod pod, java.util.function.Consumer<PodStatus> change) {
        return client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
            .editStatus(p -> {
                PodStatus status = p.getStatus() == null ? new PodStatus() : p.getStatus();
                change.accept(status);
                p.setStatus(status);
                return p;
            });
    }

    private static List<PodCondition> conditions(PodStatus status, String ready, String time) {
        List<PodCondition> conditions = new ArrayList<>();
        PodCondition scheduled = status.getConditions() == null ? null : status.getConditions().stream()
            .filter(c -> "PodScheduled".equals(c.getType())).findFirst().orElse(null);
        conditions.add(scheduled != null ? scheduled
            : new PodConditionBuilder().withType("PodScheduled").withStatus("True").withLastTransitionTime(time).build());
        conditions.add(new PodConditionBuilder().withType("Initialized").withStatus("True").withLastTransitionTime(time).build());
        conditions.add(new PodConditionBuilder().withType("ContainersReady").withStatus(ready).withLastTransitionTime(time).build());
        conditions.add(new PodConditionBuilder().withType("Ready").withStatus(ready).withLastTransitionTime(time).build());
        return conditions;
    }

    private void record(Pod pod, String event, String phase, long time) {
        recorder.record(new PodLifetimeEvent(clusterName, pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
            pod.getMetadata().getUid(), pod.getSpec().getNodeName(),
            PodLifetimeEvent.labelsOfInterest(pod.getMetadata().getLabels()), event, phase, time));
    }
}
