package dev.berth.manager.core;

import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.ResourceQuota;
import java.util.List;
import java.util.Map;

/**
 * The cohort tree as it stands, for the borrowing ledger: every cohort with its parent (implicit
 * cohorts included), and every ClusterQueue with its quotas, its usage (reservations included) and
 * its pending workload count. Immutable; taken on the controller's thread.
 */
public record QuotaSnapshot(List<CohortNode> cohorts, List<QueueQuota> clusterQueues) {
    public QuotaSnapshot {
        cohorts = List.copyOf(cohorts);
        clusterQueues = List.copyOf(clusterQueues);
    }

    /** A cohort: parent null at a root; quotas are the ones the cohort holds itself. */
    public record CohortNode(String name, String parent, Map<FlavorResource, ResourceQuota> quotas) {
        public CohortNode {
            quotas = Map.copyOf(quotas);
        }
    }

    /** A ClusterQueue; cohort null when it is in none. */
    public record QueueQuota(String name, String cohort, Map<FlavorResource, ResourceQuota> quotas,
                             Map<FlavorResource, Long> usage, int pendingWorkloads) {
        public QueueQuota {
            quotas = Map.copyOf(quotas);
            usage = Map.copyOf(usage);
        }

        public long usage(FlavorResource fr) {
            return usage.getOrDefault(fr, 0L);
        }
    }
}
