package dev.berth.protocol.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the manager lets an agent ask its autoscaler for when an attempt does not fit yet: a
 * ProvisioningRequest named as Kueue names it ({@code requestName}, i.e. {@code <workload>-<check>-<attempt>})
 * of the check's ProvisioningRequestConfig.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ProvisioningAsk {
    /** The AdmissionCheck's name. */
    private String check;
    /** 1 for the first request; the check's retryCount + 1 after Retries. */
    private int attempt;
    private String requestName;
    private String provisioningClassName;
    private Map<String, String> parameters = new LinkedHashMap<>();
    /** Only pod sets requesting one of these go into the request; empty: all. */
    private List<String> managedResources = new ArrayList<>();

    public String getCheck() { return check; }
    public void setCheck(String check) { this.check = check; }
    public int getAttempt() { return attempt; }
    public void setAttempt(int attempt) { this.attempt = attempt; }
    public String getRequestName() { return requestName; }
    public void setRequestName(String requestName) { this.requestName = requestName; }
    public String getProvisioningClassName() { return provisioningClassName; }
    public void setProvisioningClassName(String provisioningClassName) { this.provisioningClassName = provisioningClassName; }
    public Map<String, String> getParameters() { return parameters; }
    public void setParameters(Map<String, String> parameters) { this.parameters = parameters; }
    public List<String> getManagedResources() { return managedResources; }
    public void setManagedResources(List<String> managedResources) { this.managedResources = managedResources; }
}
