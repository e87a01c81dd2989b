package dev.berth.virtualcluster;

import dev.berth.protocol.RayApi;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What KubeRay decides, as plain data in and out. A RayCluster has a head pod {@code <cluster>-head} and,
 * per worker group, {@code replicas × numOfHosts} pods {@code <cluster>-<group>-worker-<i>} (KubeRay's
 * random suffix is an index here); it is {@code ready} once all of them run, and stays so until deleted.
 * A RayJob creates its RayCluster ({@code <job>-<5 chars>}), and once the cluster is ready runs its
 * entrypoint: in K8sJobMode a submitter Job named after the RayJob, whose completion is the Ray job's;
 * in the other modes the entrypoint runs for the RayJob's {@code berth.dev/sim-runtime} (default 2 s).
 * The Ray job then SUCCEEDED or FAILED, the deployment Complete or Failed, and the cluster is deleted
 * (shutdownAfterJobFinishes).
 */
final class RayRules {
    static final String DEPLOYMENT_INITIALIZING = "Initializing";
    static final String DEPLOYMENT_RUNNING = "Running";
    static final String DEPLOYMENT_COMPLETE = "Complete";
    static final String DEPLOYMENT_FAILED = "Failed";
    static final String CLUSTER_READY = "ready";

    /** One pod a RayCluster should have, and the template (head or a worker group's) it comes from. */
    record WantedPod(String name, String group, boolean head, Map<String, Object> template) {}

    /** A RayJob's next step: the status to write, and what to create or delete. */
    record JobDecision(Map<String, Object> status, boolean createCluster, boolean createSubmitter, boolean deleteCluster, boolean finished) {}

    private RayRules() {}

    static List<WantedPod> wantedPods(String clusterName, Map<String, Object> spec) {
        List<WantedPod> wanted = new ArrayList<>();
        if (Boolean.TRUE.equals(spec.get("suspend"))) return wanted;
        Map<String, Object> head = map(map(spec.get("headGroupSpec")).get("template"));
        wanted.add(new WantedPod(clusterName + "-head", RayApi.HEAD_GROUP, true, head));
        for (Object item : list(spec.get("workerGroupSpecs"))) {
            Map<String, Object> group = map(item);
            String groupName = String.valueOf(group.get("groupName"));
            int count = number(group.get("replicas"), 1) * Math.max(number(group.get("numOfHosts"), 1), 1);
            for (int i = 0; i < count; i++) {
                wanted.add(new WantedPod(clusterName + "-" + RayApi.workerPodSetName(groupName) + "-worker-" + i, groupName, false,
                        map(group.get("template"))));
            }
        }
        return wanted;
    }

    /** The cluster's status from its pods' phases (by pod name). */
    static Map<String, Object> clusterStatus(String namespace, String clusterName, Map<String, Object> spec, Map<String, Object> oldStatus,
                                             Map<String, String> phases, String now) {
        Map<String, Object> status = new LinkedHashMap<>(oldStatus);
        List<WantedPod> wanted = wantedPods(clusterName, spec);
        int desiredWorkers = 0;
        long minWorkers = 0;
        long maxWorkers = 0;
        for (Object item : list(spec.get("workerGroupSpecs"))) {
            Map<String, Object> group = map(item);
            int hosts = Math.max(number(group.get("numOfHosts"), 1), 1);
            desiredWorkers += number(group.get("replicas"), 1) * hosts;
            minWorkers += number(group.get("minReplicas"), 0) * hosts;
            maxWorkers += (long) number(group.get("maxReplicas"), Integer.MAX_VALUE) * hosts;
        }
        int running = 0;
        int runningWorkers = 0;
        for (WantedPod pod : wanted) {
            if (!PodPhases.RUNNING.equals(phases.get(pod.name()))) continue;
            running++;
            if (!pod.head()) runningWorkers++;
        }
        status.put("desiredWorkerReplicas", desiredWorkers);
        status.put("minWorkerReplicas", (int) Math.min(minWorkers, Integer.MAX_VALUE));
        status.put("maxWorkerReplicas", (int) Math.min(maxWorkers, Integer.MAX_VALUE));
        status.put("availableWorkerReplicas", runningWorkers);
        status.put("readyWorkerReplicas", runningWorkers);
        boolean suspended = Boolean.TRUE.equals(spec.get("suspend"));
        boolean ready = !suspended && !wanted.isEmpty() && running == wanted.size();
        String state = suspended ? "suspended" : ready || CLUSTER_READY.equals(oldStatus.get("state")) ? CLUSTER_READY : "";
        if (state.isEmpty()) status.remove("state");
        else status.put("state", state);
        if (!state.equals(oldStatus.getOrDefault("state", ""))) status.put("stateTransitionTimes", Map.of(state.isEmpty() ? "pending" : state, now));
        Map<String, Object> head = new LinkedHashMap<>();
        head.put("podName", clusterName + "-head");
        head.put("serviceName", clusterName + "-head-svc");
        status.put("head", head);
        status.put("endpoints", Map.of("client", "10001", "dashboard", "8265", "gcs-server", "6379", "metrics", "8080"));
        if (ready && !oldStatus.containsKey("readyTime")) status.put("readyTime", now);
        status.put("lastUpdateTime", oldStatus.getOrDefault("lastUpdateTime", now));
        return status;
    }

    /** The dashboard address KubeRay reports for a cluster's head service. */
    static String dashboardUrl(String namespace, String clusterName) {
        return clusterName + "-head-svc." + namespace + ".svc.cluster.local:8265";
    }

    /** The name of a RayJob's cluster: the job's name and five characters of its uid (KubeRay's are random). */
    static String clusterNameOf(String jobName, String uid) {
        String suffix = uid.replaceAll("[^a-z0-9]", "");
        return jobName + "-" + (suffix.length() >= 5 ? suffix.substring(0, 5) : (suffix + "00000").substring(0, 5));
    }

    /**
     * @param cluster the RayJob's cluster's status, or null when it does not exist
     * @param submitter the submitter Job's state (null when there is none, else Running, Complete or Failed)
     * @param entrypointRuntime how long the entrypoint runs when no submitter Job runs it
     */
    static JobDecision job(String namespace, String jobName, String uid, Map<String, Object> spec, Map<String, Object> oldStatus,
                           Map<String, Object> cluster, String submitter, Duration entrypointRuntime, Instant now) {
        Map<String, Object> status = new LinkedHashMap<>(oldStatus);
        String deployment = String.valueOf(oldStatus.getOrDefault("jobDeploymentStatus", ""));
        if (DEPLOYMENT_COMPLETE.equals(deployment) || DEPLOYMENT_FAILED.equals(deployment)) {
            return new JobDecision(status, false, false, cluster != null && shutsDown(spec), true);
        }
        if (Boolean.TRUE.equals(spec.get("suspend"))) {
            status.put("jobDeploymentStatus", "Suspended");
            return new JobDecision(status, false, false, cluster != null, false);
        }
        String clusterName = clusterNameOf(jobName, uid);
        if (deployment.isEmpty() || "Suspended".equals(deployment)) {
            status.put("jobDeploymentStatus", DEPLOYMENT_INITIALIZING);
            status.put("jobStatus", "");
            status.put("rayClusterName", clusterName);
            status.put("jobId", jobName + "-" + clusterName.substring(clusterName.length() - 5));
            status.put("dashboardURL", dashboardUrl(namespace, clusterName));
            status.put("startTime", now.toString());
            status.put("message", "");
        }
        if (cluster == null) return new JobDecision(status, true, false, false, false);
        status.put("rayClusterStatus", cluster);
        boolean k8sJobMode = RayApi.K8S_JOB_MODE.equals(spec.getOrDefault("submissionMode", RayApi.K8S_JOB_MODE));
        if (DEPLOYMENT_INITIALIZING.equals(status.get("jobDeploymentStatus"))) {
            if (!CLUSTER_READY.equals(cluster.get("state"))) return new JobDecision(status, false, false, false, false);
            status.put("jobDeploymentStatus", DEPLOYMENT_RUNNING);
            status.put("jobStatus", "RUNNING");
            status.put("rayJobInfo", Map.of("startTime", now.toString()));
            return new JobDecision(status, false, k8sJobMode, false, false);
        }
        String outcome;
        if (k8sJobMode) {
            if (submitter == null) return new JobDecision(status, false, true, false, false);
            outcome = "Complete".equals(submitter) ? "SUCCEEDED" : "Failed".equals(submitter) ? "FAILED" : null;
        } else {
            Instant started = Instant.parse(String.valueOf(map(status.get("rayJobInfo")).getOrDefault("startTime", now.toString())));
            outcome = !now.isBefore(started.plus(entrypointRuntime)) ? "SUCCEEDED" : null;
        }
        if (outcome == null) return new JobDecision(status, false, false, false, false);
        status.put("jobStatus", outcome);
        boolean succeeded = outcome.equals("SUCCEEDED");
        status.put("jobDeploymentStatus", succeeded ? DEPLOYMENT_COMPLETE : DEPLOYMENT_FAILED);
        status.put("endTime", now.toString());
        status.put("message", succeeded ? "Job finished successfully." : "The submitter Job failed.");
        if (!succeeded) status.put("reason", "AppFailed");
        return new JobDecision(status, false, false, shutsDown(spec), true);
    }

    private static boolean shutsDown(Map<String, Object> spec) {
        return Boolean.TRUE.equals(spec.get("shutdownAfterJobFinishes"));
    }

    private static int number(Object value, int fallback) {
        return value instanceof Number n ? n.intValue() : fallback;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    static List<?> list(Object value) {
        return value instanceof List<?> l ? l : List.of();
    }
}
