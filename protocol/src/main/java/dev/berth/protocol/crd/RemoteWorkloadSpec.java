package dev.berth.protocol.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.generator.annotation.Required;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What the manager asks a worker cluster to run, under which attempt, epoch and lease. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RemoteWorkloadSpec {
    /** The manager deployment that owns this attempt. */
    @Required
    private String origin;
    /** The manager Workload's name (same namespace). */
    @Required
    private String workloadName;
    /** Unique per dispatch: a new attempt after failover gets a new id. */
    @Required
    private String attemptId;
    /** The leadership epoch of the manager replica that dispatched; agents refuse older epochs. */
    private long fencingEpoch;
    /** When the manager last renewed the lease (RFC 3339). */
    private String leaseRenewTime;
    /** How long the lease lasts without renewal. */
    private int leaseDurationSeconds;
    private int priority;
    /**
     * True for a copy of a multi-cluster strategy (AllAtOnce, Incremental, External) that is not committed
     * yet: the agent admits it against its capacity and reports {@link RemoteWorkloadPhase#RESERVED}, but
     * creates nothing and starts no pod. The manager commits exactly one copy by setting this to false
     * (under the same attempt id and a fencing epoch not older than the agent's) and deletes the others.
     * Null or false: a committed copy, started as soon as it fits (single-cluster dispatch).
     */
    private Boolean reservation;
    /** Per pod set, the flavors the manager admitted it with. */
    private List<PodSetPlacement> podSets = new ArrayList<>();
    /** The ResourceFlavors those placements refer to. */
    private List<FlavorDefinition> flavors = new ArrayList<>();
    /** The submitted object to run: a batch/v1 Job, a JobSet, or a List of Pods. */
    @PreserveUnknownFields
    private Map<String, Object> template;
    /** Capacity on request: what to ask the cluster's autoscaler for when the attempt does not fit yet; null: never ask. */
    private ProvisioningAsk provisioning;

    public String getOrigin() { return origin; }
    public void setOrigin(String origin) { this.origin = origin; }
    public String getWorkloadName() { return workloadName; }
    public void setWorkloadName(String workloadName) { this.workloadName = workloadName; }
    public String getAttemptId() { return attemptId; }
    public void setAttemptId(String attemptId) { this.attemptId = attemptId; }
    public long getFencingEpoch() { return fencingEpoch; }
    public void setFencingEpoch(long fencingEpoch) { this.fencingEpoch = fencingEpoch; }
    public String getLeaseRenewTime() { return leaseRenewTime; }
    public void setLeaseRenewTime(String leaseRenewTime) { this.leaseRenewTime = leaseRenewTime; }
    public int getLeaseDurationSeconds() { return leaseDurationSeconds; }
    public void setLeaseDurationSeconds(int leaseDurationSeconds) { this.leaseDurationSeconds = leaseDurationSeconds; }
    public int getPriority() { return priority; }
    public void setPriority(int priority) { this.priority = priority; }
    public ProvisioningAsk getProvisioning() { return provisioning; }
    public void setProvisioning(ProvisioningAsk provisioning) { this.provisioning = provisioning; }
    public Boolean getReservation() { return reservation; }
    public void setReservation(Boolean reservation) { this.reservation = reservation; }
    /** Whether this copy waits for the manager's commit before anything is created (see {@link #getReservation()}). */
    public boolean awaitsCommit() { return Boolean.TRUE.equals(reservation); }
    public List<PodSetPlacement> getPodSets() { return podSets; }
    public void setPodSets(List<PodSetPlacement> podSets) { this.podSets = podSets; }
    public List<FlavorDefinition> getFlavors() { return flavors; }
    public void setFlavors(List<FlavorDefinition> flavors) { this.flavors = flavors; }
    public Map<String, Object> getTemplate() { return template; }
    public void setTemplate(Map<String, Object> template) { this.template = template; }
}
