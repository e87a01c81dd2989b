package dev.berth.manager.controller;

import dev.berth.manager.dispatch.ProvisioningCheckPolicy.Condition;
import dev.berth.manager.dispatch.ProvisioningCheckPolicy.RequestReport;
import dev.berth.protocol.Provisioning;
import dev.berth.protocol.crd.ProvisioningProgress;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads an agent's report of the ProvisioningRequest it made for a copy into the pure policy's terms. */
final class ProvisioningReports {
    private ProvisioningReports() {}

    /** The request's report, or null when the agent made none for this copy. */
    static RequestReport of(String cluster, String namespace, RemoteWorkloadStatus status) {
        ProvisioningProgress progress = status == null ? null : status.getProvisioning();
        if (progress == null || progress.getRequestName() == null) return null;
        Map<String, Condition> conditions = new LinkedHashMap<>();
        for (ProvisioningProgress.Condition condition : progress.getConditions()) {
            if (condition.getType() == null) continue;
            conditions.put(condition.getType(), new Condition("True".equals(condition.getStatus()), condition.getReason(), condition.getMessage()));
        }
        Instant created = null;
        try {
            if (progress.getCreatedTime() != null) created = Instant.parse(progress.getCreatedTime());
        } catch (RuntimeException e) {
            created = null;
        }
        return new RequestReport(cluster, namespace, progress.getRequestName(), Math.max(1, progress.getAttempt()), created, conditions);
    }

    /** True while the copy waits for a request that has not failed: the copy waits for capacity on purpose. */
    static boolean live(RemoteWorkloadStatus status) {
        if (status == null || status.getProvisioning() == null || !"Pending".equals(status.getPhase())) return false;
        for (ProvisioningProgress.Condition condition : status.getProvisioning().getConditions()) {
            boolean over = Provisioning.FAILED.equals(condition.getType()) || Provisioning.CAPACITY_REVOKED.equals(condition.getType())
                    || Provisioning.BOOKING_EXPIRED.equals(condition.getType());
            if (over && "True".equals(condition.getStatus())) return false;
        }
        return true;
    }
}
