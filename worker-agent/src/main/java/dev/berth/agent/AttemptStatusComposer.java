package dev.berth.agent;

import dev.berth.protocol.crd.RemoteWorkloadPhase;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import dev.berth.protocol.crd.RemoteWorkloadStatus.PodProblem;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The status of a running attempt, from the objects the agent created and their pods: phase, pod
 * counts, problems worth explaining, and the created object's own status.
 */
public final class AttemptStatusComposer {
    /** Waiting reasons that are normal on the way to Running. */
    private static final Set<String> ORDINARY_WAITING = Set.of("ContainerCreating", "PodInitializing");

    private AttemptStatusComposer() {}

    /**
     * @param previous the status so far (phase Admitted or later for this attempt)
     * @param objects the created objects as maps (kind, spec, status), the Job/JobSet first; Pods for a pod group
     */
    public static RemoteWorkloadStatus compose(RemoteWorkloadStatus previous, String attemptId,
                                               List<Map<String, Object>> objects, List<Pod> pods, Instant now) {
        RemoteWorkloadStatus status = new RemoteWorkloadStatus();
        status.setAttemptId(attemptId);
        status.setAdmittedTime(previous.getAdmittedTime());
        status.setStartTime(previous.getStartTime());
        status.setCompletionTime(previous.getCompletionTime());
        status.setTopologyAssignments(previous.getTopologyAssignments());
        // the request the attempt was admitted on: the manager's provisioning check reads it from every report,
        // and a report without it would read as "admitted without a request" (Kueue's "not needed")
        status.setProvisioning(previous.getProvisioning());
        for (Pod pod : pods) {
            switch (phaseOf(pod)) {
                case "Running" -> status.setPodsRunning(status.getPodsRunning() + 1);
                case "Succeeded" -> status.setPodsSucceeded(status.getPodsSucceeded() + 1);
                case "Failed" -> status.setPodsFailed(status.getPodsFailed() + 1);
                default -> status.setPodsPending(status.getPodsPending() + 1);
            }
        }
        status.setPodProblems(problems(pods));
        Map<String, Object> primary = primary(objects);
        if (!"Pod".equals(primary.get("kind"))) {
            TemplatePods.map(primary, "status").ifPresent(s -> status.setObjectStatus(Map.copyOf(s)));
        } else {
            Map<String, Object> podStatuses = new java.util.TreeMap<>();
            for (Map<String, Object> pod : objects) {
                Object name = TemplatePods.map(pod, "metadata").map(m -> m.get("name")).orElse(null);
                if (name != null) TemplatePods.map(pod, "status").ifPresent(s -> podStatuses.put(name.toString(), s));
            }
            if (!podStatuses.isEmpty()) status.setPodStatuses(podStatuses);
        }
        String finished = finishedPhase(primary, pods);
        if (finished != null) {
            status.setPhase(finished);
            if (status.getCompletionTime() == null) status.setCompletionTime(now.toString());
        } else if (status.getPodsRunning() > 0 || RemoteWorkloadPhase.RUNNING.equals(previous.getPhase())) {
            status.setPhase(RemoteWorkloadPhase.RUNNING);
        } else {
            status.setPhase(RemoteWorkloadPhase.ADMITTED);
        }
        if (status.getStartTime() == null && (status.getPodsRunning() > 0 || finished != null)) status.setStartTime(now.toString());
        status.setReason(previous.getReason());
        status.setMessage(describe(status));
        return status;
    }

    /**
     * The object the agent created for the attempt: the one its RemoteWorkload owns. A worker's controller may
     * copy the attempt's labels onto a child (KubeRay copies a RayJob's labels onto its RayCluster), so a
     * labelled object is not necessarily the agent's; without an owned one, the first (pods of a pod group).
     */
    static Map<String, Object> primary(List<Map<String, Object>> objects) {
        for (Map<String, Object> object : objects) {
            List<Object> owners = TemplatePods.list(TemplatePods.map(object, "metadata").orElse(Map.of()), "ownerReferences");
            if (owners.stream().anyMatch(o -> o instanceof Map<?, ?> m && "RemoteWorkload".equals(m.get("kind")))) return object;
        }
        return objects.isEmpty() ? Map.of() : objects.get(0);
    }

    private static String describe(RemoteWorkloadStatus s) {
        return s.getPodsRunning() + " running, " + s.getPodsPending() + " pending, " + s.getPodsSucceeded()
                + " succeeded, " + s.getPodsFailed() + " failed";
    }

    /** Succeeded or Failed when the created object says so; null while it runs. */
    static String finishedPhase(Map<String, Object> primary, List<Pod> pods) {
        String kind = String.valueOf(primary.get("kind"));
        Map<String, Object> objectStatus = TemplatePods.map(primary, "status").orElse(Map.of());
        switch (kind) {
            case "Job" -> {
                if (conditionTrue(objectStatus, "Failed")) return RemoteWorkloadPhase.FAILED;
                if (conditionTrue(objectStatus, "Complete")) return RemoteWorkloadPhase.SUCCEEDED;
                long completions = number(TemplatePods.map(primary, "spec").orElse(Map.of()).get("completions"), 1);
                long succeeded = number(objectStatus.get("succeeded"), 0);
                return succeeded >= completions && succeeded > 0 ? RemoteWorkloadPhase.SUCCEEDED : null;
            }
            case "JobSet" -> {
                if (conditionTrue(objectStatus, "Failed")) return RemoteWorkloadPhase.FAILED;
                return conditionTrue(objectStatus, "Completed") ? RemoteWorkloadPhase.SUCCEEDED : null;
            }
            case "PyTorchJob", "MPIJob" -> {
                // the training operators' JobSucceeded and JobFailed conditions, as Kueue's kubeflowjob Finished reads them
                if (conditionTrue(objectStatus, "Failed")) return RemoteWorkloadPhase.FAILED;
                return conditionTrue(objectStatus, "Succeeded") ? RemoteWorkloadPhase.SUCCEEDED : null;
            }
            case "TrainJob" -> {
                // Kubeflow Trainer's TrainJob conditions Complete and Failed, as Kueue's trainjob Finished reads them
                if (conditionTrue(objectStatus, "Failed")) return RemoteWorkloadPhase.FAILED;
                return conditionTrue(objectStatus, "Complete") ? RemoteWorkloadPhase.SUCCEEDED : null;
            }
            case "RayJob" -> {
                // Kueue's RayJob.Finished: the deployment Complete or Failed; success is the Ray job's SUCCEEDED
                Object deployment = objectStatus.get("jobDeploymentStatus");
                if (!"Complete".equals(deployment) && !"Failed".equals(deployment)) return null;
                return "SUCCEEDED".equals(objectStatus.get("jobStatus")) ? RemoteWorkloadPhase.SUCCEEDED : RemoteWorkloadPhase.FAILED;
            }
            case "RayCluster" -> {
                return null; // Kueue's RayCluster.Finished: a cluster serves until it is deleted, never finished
            }
            case "AppWrapper" -> {
                // Kueue's AppWrapper.Finished: the Succeeded phase; Failed once its resources are no longer deployed
                Object phase = objectStatus.get("phase");
                if (dev.berth.protocol.AppWrapperApi.PHASE_SUCCEEDED.equals(phase)) return RemoteWorkloadPhase.SUCCEEDED;
                if (!dev.berth.protocol.AppWrapperApi.PHASE_FAILED.equals(phase)) return null;
                return conditionTrue(objectStatus, dev.berth.protocol.AppWrapperApi.RESOURCES_DEPLOYED) ? null : RemoteWorkloadPhase.FAILED;
            }
            case "Deployment", "StatefulSet", "LeaderWorkerSet" -> {
                return null; // serving: admitted as long-running, never finished while it exists (Kueue's serving integrations)
            }
            default -> {
                if (pods.isEmpty()) return null;
                if (pods.stream().anyMatch(p -> "Failed".equals(phaseOf(p)))) return RemoteWorkloadPhase.FAILED;
                return pods.stream().allMatch(p -> "Succeeded".equals(phaseOf(p))) ? RemoteWorkloadPhase.SUCCEEDED : null;
            }
        }
    }

    static List<PodProblem> problems(List<Pod> pods) {
        List<PodProblem> problems = new ArrayList<>();
        List<Pod> sorted = new ArrayList<>(pods);
        sorted.sort(Comparator.comparing(p -> p.getMetadata().getName()));
        for (Pod pod : sorted) {
            String name = pod.getMetadata().getName();
            if (pod.getStatus() == null) continue;
            for (PodCondition condition : pod.getStatus().getConditions()) {
                if ("PodScheduled".equals(condition.getType()) && "False".equals(condition.getStatus())
                        && "Unschedulable".equals(condition.getReason())) {
                    problems.add(new PodProblem(name, null, "Unschedulable", condition.getMessage()));
                }
            }
            List<ContainerStatus> containers = new ArrayList<>(pod.getStatus().getInitContainerStatuses());
            containers.addAll(pod.getStatus().getContainerStatuses());
            for (ContainerStatus container : containers) {
                if (container.getState() == null) continue;
                var waiting = container.getState().getWaiting();
                var terminated = container.getState().getTerminated();
                if (waiting != null && waiting.getReason() != null && !ORDINARY_WAITING.contains(waiting.getReason())) {
                    problems.add(new PodProblem(name, container.getName(), waiting.getReason(), waiting.getMessage()));
                } else if (terminated != null && terminated.getExitCode() != null && terminated.getExitCode() != 0) {
                    String message = terminated.getMessage() != null ? terminated.getMessage() : "exit code " + terminated.getExitCode();
                    String reason = terminated.getReason() != null ? terminated.getReason() : "Error";
                    problems.add(new PodProblem(name, container.getName(), reason, message));
                }
            }
        }
        return problems;
    }

    private static String phaseOf(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase();
    }

    private static boolean conditionTrue(Map<String, Object> objectStatus, String type) {
        for (Object item : TemplatePods.list(objectStatus, "conditions")) {
            if (item instanceof Map<?, ?> c && type.equals(c.get("type")) && "True".equals(String.valueOf(c.get("status")))) return true;
        }
        return false;
    }

    private static long number(Object value, long fallback) {
        if (value instanceof Number n) return n.longValue();
        if (value == null) return fallback;
        try {
            return Long.parseLong(value.toString());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
