package dev.berth.manager.scheduling;

import dev.berth.manager.model.FlavorResource;
import dev.berth.protocol.Conditions.Reasons;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Preemption under fair sharing, after Kueue: repeatedly take the ClusterQueue with the highest
 * dominant resource share and evict its first candidate if the configured strategy allows it
 * (LessThanOrEqualToFinalShare: the preemptor's share with the workload is at most the victim
 * queue's share without the victim; LessThanInitialShare: strictly less than the victim queue's
 * share now). The second strategy is tried only when the first cannot make room.
 */
final class FairPreemption {
    private final QuotaTree quota;
    private final List<FairSharingStrategy> strategies;

    FairPreemption(QuotaTree quota, List<FairSharingStrategy> strategies) {
        this.quota = quota;
        this.strategies = strategies.isEmpty()
                ? List.of(FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, FairSharingStrategy.LESS_THAN_INITIAL_SHARE)
                : strategies;
    }

    List<PreemptionTarget> plan(PreemptionRequest request, List<AdmittedWorkload> candidates) {
        String preemptorQueue = request.queue().name();
        List<AdmittedWorkload> removed = new ArrayList<>();
        List<AdmittedWorkload> retry = new ArrayList<>();
        boolean fits = false;
        int preemptorShare = quota.dominantResourceShare(preemptorQueue, request.usage());

        PriorityQueue<QueueCandidates> heap = heapOf(candidates);
        while (!heap.isEmpty() && !fits) {
            QueueCandidates next = heap.poll();
            if (next.queue.equals(preemptorQueue)) {
                AdmittedWorkload victim = next.workloads.remove(0);
                evict(victim, removed);
                if (quota.fits(preemptorQueue, request.usage(), true)) {
                    fits = true;
                    break;
                }
                preemptorShare = quota.dominantResourceShare(preemptorQueue, request.usage());
                if (!next.workloads.isEmpty()) heap.add(next.refreshed(quota));
                continue;
            }
            while (!next.workloads.isEmpty()) {
                AdmittedWorkload victim = next.workloads.remove(0);
                int shareWithoutVictim = shareWithout(victim);
                if (allows(strategies.get(0), preemptorShare, next.share, shareWithoutVictim)) {
                    evict(victim, removed);
                    if (quota.fits(preemptorQueue, request.usage(), true)) fits = true;
                    else if (!next.workloads.isEmpty() && quota.isBorrowing(next.queue, request.needingPreemption())) {
                        heap.add(next.refreshed(quota));
                    }
                    break;
                }
                retry.add(victim);
            }
        }
        if (!fits && strategies.size() > 1) {
            heap = heapOf(retry);
            while (!heap.isEmpty() && !fits) {
                QueueCandidates next = heap.poll();
                if (allows(strategies.get(1), preemptorShare, next.share, 0)) {
                    evict(next.workloads.get(0), removed);
                    fits = quota.fits(preemptorQueue, request.usage(), true);
                }
            }
        }
        if (!fits) {
            restore(removed);
            return List.of();
        }
        List<AdmittedWorkload> needed = PreemptionPlanner.fillBack(quota, request, removed, true);
        restore(needed);
        return needed.stream().map(victim -> new PreemptionTarget(victim,
                victim.clusterQueue().equals(preemptorQueue) ? Reasons.IN_CLUSTER_QUEUE : Reasons.IN_COHORT_FAIR_SHARING)).toList();
    }

    private static boolean allows(FairSharingStrategy strategy, int preemptorNewShare, int victimQueueShare, int victimQueueShareWithout) {
        return switch (strategy) {
            case LESS_THAN_OR_EQUAL_TO_FINAL_SHARE -> preemptorNewShare <= victimQueueShareWithout;
            case LESS_THAN_INITIAL_SHARE -> preemptorNewShare < victimQueueShare;
        };
    }

    private int shareWithout(AdmittedWorkload victim) {
        quota.removeUsage(victim.clusterQueue(), victim.usage());
        int share = quota.dominantResourceShare(victim.clusterQueue(), Map.of());
        quota.addUsage(victim.clusterQueue(), victim.usage());
        return share;
    }

    private void evict(AdmittedWorkload victim, List<AdmittedWorkload> removed) {
        quota.removeUsage(victim.clusterQueue(), victim.usage());
        removed.add(victim);
    }

    private void restore(List<AdmittedWorkload> removed) {
        for (AdmittedWorkload workload : removed) quota.addUsage(workload.clusterQueue(), workload.usage());
    }

    private PriorityQueue<QueueCandidates> heapOf(List<AdmittedWorkload> candidates) {
        Map<String, List<AdmittedWorkload>> byQueue = new LinkedHashMap<>();
        for (AdmittedWorkload candidate : candidates) {
            byQueue.computeIfAbsent(candidate.clusterQueue(), q -> new ArrayList<>()).add(candidate);
        }
        PriorityQueue<QueueCandidates> heap = new PriorityQueue<>(
                Comparator.comparingInt((QueueCandidates q) -> q.share).reversed().thenComparing(q -> q.queue));
        for (Map.Entry<String, List<AdmittedWorkload>> entry : byQueue.entrySet()) {
            heap.add(new QueueCandidates(entry.getKey(), entry.getValue(),
                    quota.dominantResourceShare(entry.getKey(), new HashMap<FlavorResource, Long>())));
        }
        return heap;
    }

    private static final class QueueCandidates {
        final String queue;
        final List<AdmittedWorkload> workloads;
        final int share;

        QueueCandidates(String queue, List<AdmittedWorkload> workloads, int share) {
            this.queue = queue;
            this.workloads = new ArrayList<>(workloads);
            this.share = share;
        }

        QueueCandidates refreshed(QuotaTree quota) {
            return new QueueCandidates(queue, workloads, quota.dominantResourceShare(queue, Map.of()));
        }
    }
}
