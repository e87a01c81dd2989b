package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What kube-apiserver's printPod makes of a pod's status: ready containers out of all, the STATUS
 * word (phase, then the status reason, SchedulingGated, a container's waiting or terminated reason,
 * Terminating), and the restarts summed over containers.
 */
record PodSummary(String ready, String status, long restarts, String readinessGates) {

    static PodSummary of(JsonNode pod) {
        JsonNode status = pod.path("status");
        String reason = status.path("phase").asText("");
        if (!status.path("reason").asText("").isEmpty()) reason = status.path("reason").asText();
        for (JsonNode condition : status.path("conditions")) {
            if ("PodScheduled".equals(condition.path("type").asText()) && "SchedulingGated".equals(condition.path("reason").asText())) {
                reason = "SchedulingGated";
            }
        }
        int total = pod.path("spec").path("containers").size();
        int ready = 0;
        long restarts = 0;
        String initializing = initReason(pod);
        if (initializing != null) {
            reason = initializing;
            for (JsonNode container : status.path("initContainerStatuses")) restarts += container.path("restartCount").asLong(0);
        } else {
            boolean running = false;
            JsonNode containers = status.path("containerStatuses");
            for (int i = containers.size() - 1; i >= 0; i--) {
                JsonNode container = containers.get(i);
                restarts += container.path("restartCount").asLong(0);
                JsonNode state = container.path("state");
                String waiting = state.path("waiting").path("reason").asText("");
                JsonNode terminated = state.path("terminated");
                if (!waiting.isEmpty()) {
                    reason = waiting;
                } else if (terminated.isObject() && !terminated.path("reason").asText("").isEmpty()) {
                    reason = terminated.path("reason").asText();
                } else if (terminated.isObject()) {
                    int signal = terminated.path("signal").asInt(0);
                    reason = signal != 0 ? "Signal:" + signal : "ExitCode:" + terminated.path("exitCode").asInt(0);
                } else if (container.path("ready").asBoolean(false) && state.path("running").isObject()) {
                    running = true;
                    ready++;
                }
            }
            if ("Completed".equals(reason) && running) reason = podReady(status) ? "Running" : "NotReady";
        }
        if (!pod.path("metadata").path("deletionTimestamp").asText("").isEmpty()) {
            reason = "NodeLost".equals(status.path("reason").asText("")) ? "Unknown" : "Terminating";
        }
        return new PodSummary(ready + "/" + total, reason, restarts, readinessGates(pod));
    }

    /** Init:N/M, Init:reason or Init:Signal/ExitCode while an init container has not finished; null otherwise. */
    private static String initReason(JsonNode pod) {
        JsonNode inits = pod.path("status").path("initContainerStatuses");
        int total = pod.path("spec").path("initContainers").size();
        for (int i = 0; i < inits.size(); i++) {
            JsonNode state = inits.get(i).path("state");
            JsonNode terminated = state.path("terminated");
            if (terminated.isObject() && terminated.path("exitCode").asInt(0) == 0) continue;
            if (terminated.isObject()) {
                if (!terminated.path("reason").asText("").isEmpty()) return "Init:" + terminated.path("reason").asText();
                int signal = terminated.path("signal").asInt(0);
                return signal != 0 ? "Init:Signal:" + signal : "Init:ExitCode:" + terminated.path("exitCode").asInt(0);
            }
            String waiting = state.path("waiting").path("reason").asText("");
            if (!waiting.isEmpty() && !"PodInitializing".equals(waiting)) return "Init:" + waiting;
            return "Init:" + i + "/" + total;
        }
        return null;
    }

    private static boolean podReady(JsonNode status) {
        for (JsonNode condition : status.path("conditions")) {
            if ("Ready".equals(condition.path("type").asText()) && "True".equals(condition.path("status").asText())) return true;
        }
        return false;
    }

    private static String readinessGates(JsonNode pod) {
        JsonNode gates = pod.path("spec").path("readinessGates");
        if (gates.isEmpty()) return "<none>";
        int ready = 0;
        for (JsonNode gate : gates) {
            for (JsonNode condition : pod.path("status").path("conditions")) {
                if (condition.path("type").asText().equals(gate.path("conditionType").asText())
                        && "True".equals(condition.path("status").asText())) ready++;
            }
        }
        return ready + "/" + gates.size();
    }
}
