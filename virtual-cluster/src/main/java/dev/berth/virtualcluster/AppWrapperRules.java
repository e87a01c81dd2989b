package dev.berth.virtualcluster;

import dev.berth.protocol.AppWrapperApi;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The decisions of a simulated AppWrapper controller, in plain Java: an unsuspended AppWrapper has its
 * components created (each wrapped object named by its template, else {@code <appwrapper>-<index>}); it is
 * Running while its pods run, Succeeded once as many pods have succeeded as its pod sets count, and Failed
 * as soon as one of its pods fails, when its components are deleted (ResourcesDeployed turns False, as the
 * real controller does before Kueue counts the AppWrapper finished). No retries, no grace periods.
 */
final class AppWrapperRules {
    private AppWrapperRules() {}

    /** What to do: components to create (by index), whether to delete them, and the status to write. */
    record Decision(List<Integer> create, boolean deleteComponents, Map<String, Object> status) {}

    /** The name of the index-th component's wrapped object. */
    static String componentName(String appWrapperName, Map<String, Object> component, int index) {
        Object name = KubeflowJobRules.map(KubeflowJobRules.map(component.get("template")).get("metadata")).get("name");
        return name == null || name.toString().isEmpty() ? appWrapperName + "-" + index : name.toString();
    }

    /**
     * @param expectedPods the pods its pod sets count
     * @param existing which components' objects exist, by index
     * @param podPhases the phases of its pods
     */
    static Decision decide(Map<String, Object> appWrapper, int expectedPods, List<Boolean> existing, List<String> podPhases, String now) {
        Map<String, Object> spec = KubeflowJobRules.map(appWrapper.get("spec"));
        Map<String, Object> oldStatus = KubeflowJobRules.map(appWrapper.get("status"));
        Object oldPhase = oldStatus.get("phase");
        if (AppWrapperApi.PHASE_SUCCEEDED.equals(oldPhase) || AppWrapperApi.PHASE_FAILED.equals(oldPhase)) {
            boolean cleanUp = AppWrapperApi.PHASE_FAILED.equals(oldPhase) && existing.contains(true);
            return new Decision(List.of(), cleanUp, oldStatus);
        }
        Map<String, Object> status = new LinkedHashMap<>(oldStatus);
        List<Map<String, Object>> conditions = new ArrayList<>();
        for (Object c : KubeflowJobRules.list(oldStatus.get("conditions"))) conditions.add(new LinkedHashMap<>(KubeflowJobRules.map(c)));
        if (Boolean.TRUE.equals(spec.get("suspend"))) {
            status.put("phase", AppWrapperApi.PHASE_SUSPENDED);
            set(conditions, AppWrapperApi.QUOTA_RESERVED, "False", "Suspended", now);
            status.put("conditions", conditions);
            return new Decision(List.of(), existing.contains(true), status);
        }
        long failed = podPhases.stream().filter(PodPhases.FAILED::equals).count();
        long succeeded = podPhases.stream().filter(PodPhases.SUCCEEDED::equals).count();
        long running = podPhases.stream().filter(PodPhases.RUNNING::equals).count();
        set(conditions, AppWrapperApi.QUOTA_RESERVED, "True", "AppWrapperRunnable", now);
        List<Integer> create = new ArrayList<>();
        boolean delete = false;
        if (failed > 0) {
            status.put("phase", AppWrapperApi.PHASE_FAILED);
            set(conditions, AppWrapperApi.UNHEALTHY, "True", "FoundFailedPods", now);
            set(conditions, AppWrapperApi.RESOURCES_DEPLOYED, "False", "DeletedResources", now);
            delete = true;
        } else if (expectedPods > 0 && succeeded >= expectedPods) {
            status.put("phase", AppWrapperApi.PHASE_SUCCEEDED);
            set(conditions, AppWrapperApi.RESOURCES_DEPLOYED, "True", "AppWrapperRunnable", now);
        } else {
            for (int i = 0; i < existing.size(); i++) if (!existing.get(i)) create.add(i);
            status.put("phase", AppWrapperApi.PHASE_RUNNING);
            set(conditions, AppWrapperApi.RESOURCES_DEPLOYED, "True", "AppWrapperRunnable", now);
            set(conditions, AppWrapperApi.UNHEALTHY, "False", "AppWrapperRunnable", now);
            boolean ready = expectedPods > 0 && running + succeeded >= expectedPods;
            set(conditions, AppWrapperApi.PODS_READY, ready ? "True" : "False", ready ? "PodsReady" : "InsufficientPodsReady", now);
        }
        status.put("conditions", conditions);
        return new Decision(create, delete, status);
    }

    private static void set(List<Map<String, Object>> conditions, String type, String value, String reason, String now) {
        for (Map<String, Object> condition : conditions) {
            if (!type.equals(condition.get("type"))) continue;
            if (!value.equals(condition.get("status"))) condition.put("lastTransitionTime", now);
            condition.put("status", value);
            condition.put("reason", reason);
            return;
        }
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", type);
        condition.put("status", value);
        condition.put("reason", reason);
        condition.put("lastTransitionTime", now);
        conditions.add(condition);
    }
}
