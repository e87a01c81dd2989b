package dev.berth.manager.core;

import dev.berth.manager.model.QueueingStrategy;
import dev.berth.manager.model.StopPolicy;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.manager.scheduling.FitMode;
import java.util.List;
import java.util.Map;

/**
 * What the scheduler would decide for one workload right now, and why: the facts about its queues,
 * its place in the queue, and a dry run of the scheduler's own flavor assignment and preemption
 * planning over the current quota tree. Immutable; taken on the controller's thread.
 *
 * @param position      null when the workload is not in a pending queue
 * @param podSets       empty when the scheduler would not evaluate it (queue missing or inactive, holds quota, finished)
 * @param preemption    null when the dry run did not get as far as preemption
 */
public record AdmissionDiagnosis(WorkloadKey key,
                                 WorkloadRequest request,
                                 boolean active,
                                 boolean finished,
                                 boolean holdsQuota,
                                 boolean admitted,
                                 Queues queues,
                                 Position position,
                                 String pendingMessage,
                                 List<PodSetTrial> podSets,
                                 Preemption preemption,
                                 List<AdmissionCheckState> checks) {
    public AdmissionDiagnosis {
        podSets = List.copyOf(podSets);
        checks = List.copyOf(checks);
    }

    /**
     * The queues the workload goes through. clusterQueue is null when the LocalQueue is missing;
     * inactiveReason/inactiveMessage are null when the ClusterQueue is active.
     */
    public record Queues(String localQueue, boolean localQueueExists, StopPolicy localQueueStop,
                         String clusterQueue, boolean clusterQueueExists, StopPolicy clusterQueueStop,
                         String inactiveReason, String inactiveMessage, boolean namespaceSelected,
                         String cohort, QueueingStrategy strategy) {
    }

    /** Zero-based positions in the scheduler's order, and how many wait in the ClusterQueue. */
    public record Position(int inClusterQueue, int inLocalQueue, int pendingInClusterQueue) {
    }

    /** The assignment of one pod set: its mode, the chosen flavor per resource, Kueue's reasons, and every flavor tried. */
    public record PodSetTrial(String name, int count, FitMode mode, Map<String, String> chosenFlavors,
                              List<String> reasons, List<FlavorTrial> flavors) {
        public PodSetTrial {
            chosenFlavors = Map.copyOf(chosenFlavors);
            reasons = List.copyOf(reasons);
            flavors = List.copyOf(flavors);
        }
    }

    /** One flavor of a resource group: why it is not eligible (null when it is), and the quota numbers per resource. */
    public record FlavorTrial(String flavor, String ineligible, List<ResourceTrial> resources) {
        public FlavorTrial {
            resources = List.copyOf(resources);
        }
    }

    /**
     * Quota of one flavor/resource for the pod set, in canonical units: what it needs, the queue's
     * nominal quota and usage, what it can get now (borrowing included), the most it could ever
     * get, and its borrowing limit (null: none). cohort is null when the queue is in none.
     */
    public record ResourceTrial(String resource, long needed, long nominal, long usage, long available,
                                long potential, Long borrowingLimit, String cohort) {
        /** Unused nominal quota of the queue itself. */
        public long freeNominal() {
            return Math.max(0, nominal - usage);
        }

        /** What borrowing adds to the queue's own unused quota now. */
        public long borrowable() {
            return Math.max(0, available - freeNominal());
        }

        public boolean fits() {
            return needed <= available;
        }
    }

    /**
     * Whether preemption could make room: the targets the planner found (empty: none), how many
     * candidates the policies allow, and what blocks it, in words.
     */
    public record Preemption(boolean possible, List<WorkloadKey> targets, int candidates, List<String> blockers) {
        public Preemption {
            targets = List.copyOf(targets);
            blockers = List.copyOf(blockers);
        }
    }
}
