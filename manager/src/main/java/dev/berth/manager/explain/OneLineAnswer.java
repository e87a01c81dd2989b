package dev.berth.manager.explain;

import dev.berth.manager.core.AdmissionAdvice;
import dev.berth.manager.core.AdmissionDiagnosis;
import dev.berth.manager.core.AdmissionDiagnosis.FlavorTrial;
import dev.berth.manager.core.AdmissionDiagnosis.PodSetTrial;
import dev.berth.manager.core.AdmissionDiagnosis.ResourceTrial;
import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.Quantity;
import dev.berth.manager.model.QueueingStrategy;
import dev.berth.manager.scheduling.FitMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The first line of an explanation for a workload that waits for quota: how much it still lacks,
 * which quota is used up, what borrowing can add and from whom, and whether preemption can help.
 * For example: "Waiting for 4 nvidia.com/gpu: team-a-cq has used its a100 and h100 quota (8/8
 * each) and can borrow only 4 more from gpu-pool; nothing may be preempted." The layers below it
 * keep every number per flavor; this line is what a person reads first.
 */
final class OneLineAnswer {
    private OneLineAnswer() {}

    /** The one line for a workload whose queues are fine but that does not fit, or waits behind others; empty otherwise. */
    static Optional<String> of(AdmissionDiagnosis d) {
        return of(d, List.of());
    }

    /** With the fleet's capacity: says whether quota or capacity holds the workload back. */
    static Optional<String> of(AdmissionDiagnosis d, List<QuotaAgainstCapacity.Row> capacity) {
        return of(d, capacity, AdmissionAdvice.Ahead.NONE);
    }

    /** With the workloads ahead of it that want the same resources: a workload behind others gets them as its first reason. */
    static Optional<String> of(AdmissionDiagnosis d, List<QuotaAgainstCapacity.Row> capacity, AdmissionAdvice.Ahead ahead) {
        if (!d.active() || d.finished() || d.holdsQuota() || d.podSets().isEmpty()) return Optional.empty();
        PodSetTrial failing = d.podSets().stream().filter(p -> p.mode() != FitMode.FIT).findFirst().orElse(null);
        if (failing == null) return behindOthers(d);
        if (d.preemption() != null && d.preemption().possible()) return Optional.empty();
        List<Short> tried = new ArrayList<>();
        for (FlavorTrial flavor : failing.flavors()) {
            if (flavor.ineligible() != null) continue;
            flavor.resources().stream().filter(r -> !r.fits()).findFirst().ifPresent(r -> tried.add(new Short(flavor.flavor(), r)));
        }
        if (tried.isEmpty()) return Optional.empty();
        // A flavor that can never give the resource (no quota, nothing to borrow: the CPU flavor's GPUs) is not news.
        List<Short> withQuota = tried.stream().filter(s -> s.resource().potential() > 0).toList();
        List<Short> shorts = withQuota.isEmpty() ? tried : withQuota;
        if (shorts.stream().allMatch(s -> s.resource().needed() > s.resource().potential())) return Optional.of(neverFits(d, shorts));
        Short least = leastMissing(shorts);
        String behind = behindSame(d, ahead, least.resource().resource());
        String waiting = waitingFor(least);
        String first = behind.isEmpty() ? waiting : behind + "; " + Character.toLowerCase(waiting.charAt(0)) + waiting.substring(1);
        return Optional.of(first + ": " + d.queues().clusterQueue() + " " + quotaClause(shorts)
                + borrowClause(shorts) + preemptionClause(d)
                + QuotaAgainstCapacity.verdict(capacity, least.resource().resource(), least.missing()) + ".");
    }

    private record Short(String flavor, ResourceTrial resource) {
        long missing() {
            return Math.max(0, resource.needed() - resource.available());
        }
    }

    private static Short leastMissing(List<Short> shorts) {
        return shorts.stream().min((a, b) -> Long.compare(a.missing(), b.missing())).orElseThrow();
    }

    /**
     * "Behind 1 workload in team-a-cq that needs the same 8 nvidia.com/gpu; " for a workload that is
     * not the head and has others ahead asking for what it lacks; "" otherwise. Under StrictFIFO none
     * of those behind the head is admitted first, under BestEffortFIFO they are looked at first.
     */
    private static String behindSame(AdmissionDiagnosis d, AdmissionAdvice.Ahead ahead, String resource) {
        Long same = ahead.needs().get(resource);
        if (d.position() == null || d.position().inClusterQueue() == 0 || ahead.workloads() == 0 || same == null) return "";
        int n = ahead.workloads();
        String fifo = d.queues().strategy() == QueueingStrategy.STRICT_FIFO ? ", and StrictFIFO admits none of those behind them first" : "";
        return "Behind " + n + (n == 1 ? " workload" : " workloads") + " in " + d.queues().clusterQueue() + " that "
                + (n == 1 ? "needs" : "need") + " the same " + q(resource, same) + " " + resource + fifo;
    }

    /** "Waiting for 4 nvidia.com/gpu": the least it lacks on any flavor it may use. */
    private static String waitingFor(Short least) {
        String resource = least.resource().resource();
        return "Waiting for " + q(resource, least.missing()) + " " + resource;
    }

    /** "has used its a100 and h100 quota (8/8 each)", or "has only 2 of its 8 a100 quota free". */
    private static String quotaClause(List<Short> shorts) {
        Map<String, List<String>> flavorsByUse = new LinkedHashMap<>();
        for (Short s : shorts) {
            ResourceTrial r = s.resource();
            String use = r.usage() >= r.nominal()
                    ? q(r.resource(), r.usage()) + "/" + q(r.resource(), r.nominal())
                    : q(r.resource(), r.freeNominal()) + " of " + q(r.resource(), r.nominal()) + " free";
            flavorsByUse.computeIfAbsent(use, k -> new ArrayList<>()).add(s.flavor());
        }
        boolean allUsed = shorts.stream().allMatch(s -> s.resource().usage() >= s.resource().nominal());
        if (flavorsByUse.size() == 1) {
            var only = flavorsByUse.entrySet().iterator().next();
            String each = only.getValue().size() > 1 ? " each" : "";
            return (allUsed ? "has used its " : "has only ") + (allUsed ? and(only.getValue()) + " quota (" + only.getKey() + each + ")"
                    : only.getKey().replace(" free", "") + " " + and(only.getValue()) + " quota free" + each);
        }
        List<String> parts = new ArrayList<>();
        flavorsByUse.forEach((use, flavors) -> parts.add(and(flavors) + " " + use));
        return (allUsed ? "has used its quota (" : "is short of quota (") + String.join(", ", parts) + ")";
    }

    /** "Never fits: ..." for a request larger than all the queue could get on any flavor, borrowing included. */
    private static String neverFits(AdmissionDiagnosis d, List<Short> shorts) {
        ResourceTrial best = shorts.stream().map(Short::resource).max((a, b) -> Long.compare(a.potential(), b.potential())).orElseThrow();
        String resource = best.resource();
        String borrowing = best.cohort() == null ? "its nominal quota, no cohort to borrow from"
                : "nominal quota plus what it may borrow from " + best.cohort();
        return "Never fits: it needs " + q(resource, best.needed()) + " " + resource + " and " + d.queues().clusterQueue()
                + " can get at most " + q(resource, best.potential()) + " on any flavor (" + borrowing + "); shrink it or raise the quota.";
    }

    /** What borrowing can add, from whom, or why it cannot. */
    private static String borrowClause(List<Short> shorts) {
        ResourceTrial best = shorts.stream().map(Short::resource).max((a, b) -> Long.compare(a.borrowable(), b.borrowable())).orElseThrow();
        String resource = best.resource();
        if (best.cohort() == null) return " and is in no cohort to borrow from";
        if (best.borrowable() > 0) return " and can borrow only " + q(resource, best.borrowable()) + " more from " + best.cohort();
        if (best.borrowingLimit() != null && Amounts.add(best.usage(), best.needed()) > Amounts.add(best.nominal(), best.borrowingLimit())) {
            return " and may borrow no more from " + best.cohort() + " (borrowingLimit " + q(resource, best.borrowingLimit()) + ")";
        }
        return " and nothing is free to borrow in " + best.cohort();
    }

    private static String preemptionClause(AdmissionDiagnosis d) {
        if (d.preemption() == null) return "";
        return d.preemption().candidates() == 0 || !d.preemption().blockers().isEmpty() ? "; nothing may be preempted" : "";
    }

    /** "Behind 2 workloads in team-a-cq": a workload that fits but is not the next one its ClusterQueue takes. */
    private static Optional<String> behindOthers(AdmissionDiagnosis d) {
        if (d.position() == null || d.position().inClusterQueue() == 0) return Optional.empty();
        int ahead = d.position().inClusterQueue();
        String behind = "Behind " + ahead + (ahead == 1 ? " workload" : " workloads") + " in " + d.queues().clusterQueue();
        if (d.queues().strategy() == QueueingStrategy.STRICT_FIFO) {
            return Optional.of(behind + ": StrictFIFO admits none behind its head, which waits for quota; this one would fit.");
        }
        return Optional.of(behind + " that come first (priority, then creation time); it fits and is admitted once they are decided.");
    }

    private static String and(List<String> names) {
        if (names.size() == 1) return names.get(0);
        return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }

    private static String q(String resource, long amount) {
        return Quantity.format(resource, amount);
    }
}
