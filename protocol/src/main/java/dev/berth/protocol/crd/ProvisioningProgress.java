package dev.berth.protocol.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.LinkedHashMap;

/**
 * The agent's report of the ProvisioningRequest it made for an attempt: its name, attempt, when it
 * was created, and its conditions as the autoscaler set them (Accepted, Provisioned, Failed, ...).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ProvisioningProgress {
    private String requestName;
    private int attempt;
    private String provisioningClassName;
    /** RFC 3339 time the request was created. */
    private String createdTime;
    private List<Condition> conditions = new ArrayList<>();
    /** The request's status.provisioningClassDetails, for the config's podSetUpdates.nodeSelector. */
    private Map<String, String> provisioningClassDetails = new LinkedHashMap<>();

    public String getRequestName() { return requestName; }
    public void setRequestName(String requestName) { this.requestName = requestName; }
    public int getAttempt() { return attempt; }
    public void setAttempt(int attempt) { this.attempt = attempt; }
    public String getProvisioningClassName() { return provisioningClassName; }
    public void setProvisioningClassName(String provisioningClassName) { this.provisioningClassName = provisioningClassName; }
    public String getCreatedTime() { return createdTime; }
    public void setCreatedTime(String createdTime) { this.createdTime = createdTime; }
    public List<Condition> getConditions() { return conditions; }
    public void setConditions(List<Condition> conditions) { this.conditions = conditions; }
    public Map<String, String> getProvisioningClassDetails() { return provisioningClassDetails; }
    public void setProvisioningClassDetails(Map<String, String> provisioningClassDetails) { this.provisioningClassDetails = provisioningClassDetails; }

    /** One metav1.Condition of the request. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Condition {
        private String type;
        private String status;
        private String reason;
        private String message;
        private String lastTransitionTime;

        public Condition() {}

        public Condition(String type, String status, String reason, String message, String lastTransitionTime) {
            this.type = type;
            this.status = status;
            this.reason = reason;
            this.message = message;
            this.lastTransitionTime = lastTransitionTime;
        }

        public String getType() { return type; }
        public void setType(String type) { this.type = type; }
        public String getStatus() { return status; }
        public void setStatus(String status) { this.status = status; }
        public String getReason() { return reason; }
        public void setReason(String reason) { this.reason = reason; }
        public String getMessage() { return message; }
        public void setMessage(String message) { this.message = message; }
        public String getLastTransitionTime() { return lastTransitionTime; }
        public void setLastTransitionTime(String lastTransitionTime) { this.lastTransitionTime = lastTransitionTime; }
    }
}
