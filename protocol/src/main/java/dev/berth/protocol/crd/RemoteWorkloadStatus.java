package dev.berth.protocol.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What the agent reports about one attempt. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RemoteWorkloadStatus {
    /** See {@link RemoteWorkloadPhase}. */
    private String phase;
    /** Why it is in that phase, e.g. "insufficient nvidia.com/gpu: 8 requested, 6 free on matching nodes". */
    private String reason;
    private String message;
    /** The attempt this status describes; a status for another attempt is stale. */
    private String attemptId;
    private int podsRunning;
    private int podsSucceeded;
    private int podsFailed;
    private int podsPending;
    /** Pods whose Ready condition is True, plus pods that already succeeded (Kueue's count for PodsReady). */
    private int podsReady;
    /**
     * Whether every admitted pod is ready or succeeded: Kueue's PodsReady for the job. Null from an
     * agent that does not report readiness; the manager then leaves the Workload's PodsReady alone.
     */
    private Boolean allPodsReady;
    private String admittedTime;
    private String startTime;
    private String completionTime;
    /** Failing pods with the container's reason, for explanations. */
    private List<PodProblem> podProblems = new ArrayList<>();
    /** The status of the object the agent created (the Job's or JobSet's own status). */
    @PreserveUnknownFields
    private Map<String, Object> objectStatus;
    /** For plain pods and pod groups: each created pod's own status, by pod name (the name it has on the manager). */
    @PreserveUnknownFields
    private Map<String, Object> podStatuses;
    /** Per pod set with a topology request: the nodes the agent assigned its pods to (Kueue's topologyAssignment). */
    private List<PodSetTopologyAssignment> topologyAssignments;
    /** The ProvisioningRequest the agent made for this attempt, and its conditions; null when it made none. */
    private ProvisioningProgress provisioning;

    public ProvisioningProgress getProvisioning() { return provisioning; }
    public void setProvisioning(ProvisioningProgress provisioning) { this.provisioning = provisioning; }
    public String getPhase() { return phase; }
    public void setPhase(String phase) { this.phase = phase; }
    public String getReason() { return reason; }
    public void setReason(String reason) { this.reason = reason; }
    public String getMessage() { return message; }
    public void setMessage(String message) { this.message = message; }
    public String getAttemptId() { return attemptId; }
    public void setAttemptId(String attemptId) { this.attemptId = attemptId; }
    public int getPodsRunning() { return podsRunning; }
    public void setPodsRunning(int podsRunning) { this.podsRunning = podsRunning; }
    public int getPodsSucceeded() { return podsSucceeded; }
    public void setPodsSucceeded(int podsSucceeded) { this.podsSucceeded = podsSucceeded; }
    public int getPodsFailed() { return podsFailed; }
    public void setPodsFailed(int podsFailed) { this.podsFailed = podsFailed; }
    public int getPodsPending() { return podsPending; }
    public void setPodsPending(int podsPending) { this.podsPending = podsPending; }
    public int getPodsReady() { return podsReady; }
    public void setPodsReady(int podsReady) { this.podsReady = podsReady; }
    public Boolean getAllPodsReady() { return allPodsReady; }
    public void setAllPodsReady(Boolean allPodsReady) { this.allPodsReady = allPodsReady; }
    public String getAdmittedTime() { return admittedTime; }
    public void setAdmittedTime(String admittedTime) { this.admittedTime = admittedTime; }
    public String getStartTime() { return startTime; }
    public void setStartTime(String startTime) { this.startTime = startTime; }
    public String getCompletionTime() { return completionTime; }
    public void setCompletionTime(String completionTime) { this.completionTime = completionTime; }
    public List<PodProblem> getPodProblems() { return podProblems; }
    public void setPodProblems(List<PodProblem> podProblems) { this.podProblems = podProblems; }
    public Map<String, Object> getObjectStatus() { return objectStatus; }
    public void setObjectStatus(Map<String, Object> objectStatus) { this.objectStatus = objectStatus; }
    public Map<String, Object> getPodStatuses() { return podStatuses; }
    public void setPodStatuses(Map<String, Object> podStatuses) { this.podStatuses = podStatuses; }
    public List<PodSetTopologyAssignment> getTopologyAssignments() { return topologyAssignments; }
    public void setTopologyAssignments(List<PodSetTopologyAssignment> topologyAssignments) { this.topologyAssignments = topologyAssignments; }

    /** A pod that is failing or cannot be scheduled. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class PodProblem {
        private String pod;
        private String container;
        private String reason;
        private String message;

        public PodProblem() {}

        public PodProblem(String pod, String container, String reason, String message) {
            this.pod = pod;
            this.container = container;
            this.reason = reason;
            this.message = message;
        }

        public String getPod() { return pod; }
        public void setPod(String pod) { this.pod = pod; }
        public String getContainer() { return container; }
        public void setContainer(String container) { this.container = container; }
        public String getReason() { return reason; }
        public void setReason(String reason) { this.reason = reason; }
        public String getMessage() { return message; }
        public void setMessage(String message) { this.message = message; }
    }
}
