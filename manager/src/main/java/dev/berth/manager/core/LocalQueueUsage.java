package dev.berth.manager.core;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.LocalQueueSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Kueue's admission fair sharing bookkeeping (its AfsUsageLedger and the LocalQueue controller's
 * consumedResources): per LocalQueue, the resources its admitted workloads consumed, decayed by
 * usageHalfLifeTime. Every usageSamplingInterval the history moves towards the usage admitted now:
 * consumed = consumed * (1 - alpha) + admitted * alpha with alpha = 1 - 0.5^(elapsed / halfLife). An
 * admission adds its entry penalty at once, requests * alpha(samplingInterval), so the next head is
 * ordered by it before the next sample. Pure bookkeeping: the caller passes the time.
 */
final class LocalQueueUsage {
    private final SchedulerState state;
    /** Null when admission fair sharing is off. */
    private final AdmissionFairSharing settings;
    private final Map<String, Ledger> ledgers = new HashMap<>();

    private static final class Ledger {
        /** Decayed consumed resources, per resource, in canonical amounts (millicores for cpu). */
        Map<String, Double> consumed = new TreeMap<>();
        Instant lastUpdate;

        Ledger(Instant lastUpdate) {
            this.lastUpdate = lastUpdate;
        }
    }

    LocalQueueUsage(SchedulerState state, AdmissionFairSharing settings) {
        this.state = state;
        this.settings = settings;
    }

    /** True when the ClusterQueue orders its pending workloads by their LocalQueue's usage. */
    boolean appliesTo(ClusterQueueSpec queue) {
        return settings != null && queue != null && queue.usageBasedAdmissionFairSharing();
    }

    /** What the ClusterQueue's pending queue orders its LocalQueues by, or null when it is not in admission fair sharing. */
    java.util.function.ToDoubleFunction<String> orderingFor(ClusterQueueSpec queue) {
        return appliesTo(queue) ? this::usageOf : null;
    }

    /**
     * Kueue's CalculateUsage: the weighted sum of the consumed resources (in Kubernetes units: cores
     * for cpu), divided by the LocalQueue's weight; infinite for a weight of zero, so it goes last.
     */
    double usageOf(String localQueueKey) {
        Ledger ledger = ledgers.get(localQueueKey);
        LocalQueueSpec spec = state.localQueues.get(localQueueKey);
        double weight = spec == null ? 1.0 : spec.fairSharingWeight();
        if (weight <= 0) return Double.POSITIVE_INFINITY;
        if (ledger == null) return 0;
        double usage = 0;
        for (Map.Entry<String, Double> consumed : ledger.consumed.entrySet()) {
            usage += settings.weightOf(consumed.getKey()) * kubernetesUnits(consumed.getKey(), consumed.getValue());
        }
        return usage / weight;
    }

    /** A workload reserved quota: its LocalQueue's history is brought to now and charged the entry penalty. */
    void admitted(WorkloadEntry entry, Instant now) {
        if (!appliesTo(state.clusterQueues.get(entry.clusterQueue))) return;
        Ledger ledger = ledgers.computeIfAbsent(entry.localQueueKey, key -> new Ledger(now));
        decay(ledger, entry.localQueueKey, now);
        double alpha = settings.alpha(settings.usageSamplingInterval());
        for (Map.Entry<String, Long> requested : perResource(entry.usage).entrySet()) {
            ledger.consumed.merge(requested.getKey(), requested.getValue() * alpha, Double::sum);
        }
    }

    /**
     * Samples every LocalQueue of a ClusterQueue in admission fair sharing whose interval has passed
     * (a new one starts its history now); returns the keys whose status changed.
     */
    List<String> sample(Instant now) {
        List<String> changed = new ArrayList<>();
        if (settings == null) return changed;
        ledgers.keySet().removeIf(key -> !state.localQueues.containsKey(key));
        for (LocalQueueSpec spec : state.localQueues.values()) {
            if (!appliesTo(state.clusterQueues.get(spec.clusterQueue()))) continue;
            Ledger ledger = ledgers.get(spec.key());
            if (ledger == null) {
                ledgers.put(spec.key(), new Ledger(now));
                changed.add(spec.key());
            } else if (Duration.between(ledger.lastUpdate, now).compareTo(settings.usageSamplingInterval()) >= 0) {
                decay(ledger, spec.key(), now);
                changed.add(spec.key());
            }
        }
        return changed;
    }

    /** The LocalQueue's status.fairSharing.admissionFairSharingStatus, or null when it has none. */
    LocalQueueFairSharingStatus statusOf(String localQueueKey) {
        Ledger ledger = ledgers.get(localQueueKey);
        if (ledger == null) return null;
        Map<String, Long> consumed = new TreeMap<>();
        ledger.consumed.forEach((resource, amount) -> consumed.put(resource, Math.round(amount)));
        return new LocalQueueFairSharingStatus(consumed, ledger.lastUpdate);
    }

    /** Kueue's CalculateDecayedConsumed towards the usage admitted now; a zero half-life keeps no history. */
    private void decay(Ledger ledger, String localQueueKey, Instant now) {
        Duration elapsed = Duration.between(ledger.lastUpdate, now);
        if (elapsed.isNegative()) elapsed = Duration.ZERO;
        if (!now.isBefore(ledger.lastUpdate)) ledger.lastUpdate = now;
        if (settings.usageHalfLifeTime().isZero()) {
            ledger.consumed = new TreeMap<>();
            return;
        }
        double alpha = settings.alpha(elapsed);
        Map<String, Double> next = new TreeMap<>();
        ledger.consumed.forEach((resource, amount) -> next.put(resource, amount * (1 - alpha)));
        admittedUsage(localQueueKey).forEach((resource, amount) -> next.merge(resource, amount * alpha, Double::sum));
        ledger.consumed = next;
    }

    /** Kueue's LocalQueue admittedUsage: the usage of its admitted workloads, per resource over all flavors. */
    private Map<String, Long> admittedUsage(String localQueueKey) {
        Map<String, Long> usage = new TreeMap<>();
        for (WorkloadEntry entry : state.unfinishedByLocalQueue.getOrDefault(localQueueKey, Set.of())) {
            if (!entry.isAdmitted()) continue;
            perResource(entry.usage).forEach((resource, amount) -> usage.merge(resource, amount, Amounts::add));
        }
        return usage;
    }

    private static Map<String, Long> perResource(Map<FlavorResource, Long> usage) {
        Map<String, Long> byResource = new TreeMap<>();
        if (usage != null) usage.forEach((fr, amount) -> byResource.merge(fr.resource(), amount, Amounts::add));
        return byResource;
    }

    /** Kueue sums quantities as Kubernetes writes them: cores for cpu, whole units for everything else. */
    private static double kubernetesUnits(String resource, double amount) {
        return "cpu".equals(resource) ? amount / 1000 : amount;
    }
}
