package dev.berth.manager.dispatch;

import dev.berth.manager.model.WorkloadKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Issue 20, rule 2: a workload must not hold quota in a flavor that no connected worker cluster
 * offers. Pure, over cluster views and an injected clock. For a workload that holds quota and could
 * not be placed it tells apart:
 * <ul>
 *   <li>{@link State#SERVED}: some connected cluster offers every flavor it holds (it may be full right
 *   now: that waits, as placement already says);</li>
 *   <li>{@link State#NO_CLUSTER_REPORTING}: no cluster of its MultiKueueConfig is connected and reporting,
 *   so nothing is known about their flavors (a cluster outage: failover's business, it waits);</li>
 *   <li>{@link State#WAITING}: clusters report, none offers a flavor it holds, and the timeout has not
 *   passed since that was first seen;</li>
 *   <li>{@link State#RETRY}: the same for longer than the timeout: the check turns Retry.</li>
 * </ul>
 * After a Retry the flavors are remembered as avoided by that workload (the flavor assigner skips them)
 * until a connected cluster of its config offers them again ({@link #refresh}).
 */
public final class UnservedFlavors {
    public enum State { SERVED, NO_CLUSTER_REPORTING, WAITING, RETRY }

    /** How every message of this rule starts; explain recognises the check's message by it. */
    public static final String MESSAGE_PREFIX = "no connected worker cluster offers ";

    /** The answer: its state, the flavors no connected cluster offers (sorted), and a message a person can act on. */
    public record Verdict(State state, Set<String> missing, String message) {
        public boolean retry() {
            return state == State.RETRY;
        }
    }

    private record Avoidance(String config, Set<String> flavors) {}

    private final Clock clock;
    private final UnservedFlavorOptions options;
    private final Map<WorkloadKey, Instant> unservedSince = new HashMap<>();
    private final Map<WorkloadKey, Avoidance> avoided = new HashMap<>();

    public UnservedFlavors(Clock clock, UnservedFlavorOptions options) {
        this.clock = clock;
        this.options = options;
    }

    /**
     * The workload holds quota in {@code flavors} and was not placed on {@code clusters} (its config's):
     * is that because no connected cluster offers them, and for how long?
     */
    public Verdict observe(WorkloadKey key, Collection<String> flavors, List<ClusterView> clusters) {
        Set<String> wanted = new TreeSet<>(flavors);
        List<ClusterView> reporting = clusters.stream().filter(UnservedFlavors::reporting).toList();
        if (reporting.isEmpty()) {
            unservedSince.remove(key);
            return new Verdict(State.NO_CLUSTER_REPORTING, Set.of(), "");
        }
        if (reporting.stream().anyMatch(cluster -> cluster.flavors().keySet().containsAll(wanted))) {
            unservedSince.remove(key);
            return new Verdict(State.SERVED, Set.of(), "");
        }
        Set<String> missing = missing(wanted, reporting);
        Instant now = clock.instant();
        Instant since = unservedSince.computeIfAbsent(key, k -> now);
        Instant releaseAt = since.plus(options.timeout());
        String what = describe(wanted, missing, reporting);
        if (now.isBefore(releaseAt)) {
            return new Verdict(State.WAITING, missing, what + "; its quota is released at " + releaseAt
                    + " (after " + human(options.timeout()) + ") unless a worker cluster offering it connects");
        }
        return new Verdict(State.RETRY, missing, what + "; quota released after " + human(options.timeout()) + ", retrying");
    }

    /** The workloads whose timeout has passed since they were first seen unserved: to be looked at again now. */
    public List<WorkloadKey> due() {
        Instant now = clock.instant();
        List<WorkloadKey> due = new ArrayList<>();
        unservedSince.forEach((key, since) -> {
            if (!now.isBefore(since.plus(options.timeout()))) due.add(key);
        });
        return due;
    }

    /** The workload was placed, or no longer holds quota: its unserved clock stops. */
    public void forget(WorkloadKey key) {
        unservedSince.remove(key);
    }

    /** The workload is gone: nothing about it is kept. */
    public void deleted(WorkloadKey key) {
        unservedSince.remove(key);
        avoided.remove(key);
    }

    /**
     * Its check turned Retry for {@code verdict}: from now on it avoids the flavors no connected cluster
     * of its MultiKueueConfig {@code config} offered (all it held, when only the combination was missing). Returns them.
     */
    public Set<String> retried(WorkloadKey key, Verdict verdict, Collection<String> heldFlavors, String config) {
        unservedSince.remove(key);
        Set<String> flavors = new TreeSet<>(verdict.missing().isEmpty() ? heldFlavors : verdict.missing());
        Avoidance previous = avoided.get(key);
        if (previous != null) flavors.addAll(previous.flavors());
        avoided.put(key, new Avoidance(config, Set.copyOf(flavors)));
        return Set.copyOf(flavors);
    }

    /** The flavors the workload avoids, empty when none. */
    public Set<String> avoided(WorkloadKey key) {
        Avoidance avoidance = avoided.get(key);
        return avoidance == null ? Set.of() : avoidance.flavors();
    }

    /**
     * Lifts what a connected cluster of the workload's config offers again ({@code clustersOf}: a config's
     * clusters as they are now, a cluster added to it included). Returns the workloads whose avoided
     * flavors changed, with what they avoid now (empty: nothing any more).
     */
    public Map<WorkloadKey, Set<String>> refresh(Function<String, List<ClusterView>> clustersOf) {
        Map<WorkloadKey, Set<String>> changed = new LinkedHashMap<>();
        for (Map.Entry<WorkloadKey, Avoidance> entry : List.copyOf(avoided.entrySet())) {
            Avoidance avoidance = entry.getValue();
            List<ClusterView> reporting = clustersOf.apply(avoidance.config()).stream().filter(UnservedFlavors::reporting).toList();
            Set<String> still = new TreeSet<>(avoidance.flavors());
            still.removeIf(flavor -> reporting.stream().anyMatch(cluster -> cluster.flavors().containsKey(flavor)));
            if (still.equals(avoidance.flavors())) continue;
            if (still.isEmpty()) {
                avoided.remove(entry.getKey());
            } else {
                avoided.put(entry.getKey(), new Avoidance(avoidance.config(), Set.copyOf(still)));
            }
            changed.put(entry.getKey(), Set.copyOf(still));
        }
        return changed;
    }

    /** The manager reaches the cluster and its agent has reported its flavors. */
    static boolean reporting(ClusterView cluster) {
        return cluster.connected() && cluster.lastHeartbeat() != null;
    }

    private static Set<String> missing(Set<String> wanted, List<ClusterView> reporting) {
        Set<String> missing = new TreeSet<>(wanted);
        missing.removeIf(flavor -> reporting.stream().anyMatch(cluster -> cluster.flavors().containsKey(flavor)));
        return missing;
    }

    /** "no connected worker cluster offers flavor h100 (a100-spot, a100-ondemand offer a100)". */
    static String describe(Set<String> wanted, Set<String> missing, List<ClusterView> reporting) {
        String head = missing.isEmpty()
                ? MESSAGE_PREFIX + "flavors " + String.join(" and ", wanted) + " together"
                : MESSAGE_PREFIX + "flavor" + (missing.size() > 1 ? "s " : " ") + String.join(", ", missing);
        return head + " (" + offered(reporting) + ")";
    }

    /** What the reporting clusters offer, clusters with the same flavors together, in config order. */
    private static String offered(List<ClusterView> reporting) {
        Map<Set<String>, List<String>> byFlavors = new LinkedHashMap<>();
        for (ClusterView cluster : reporting) {
            byFlavors.computeIfAbsent(new TreeSet<>(cluster.flavors().keySet()), f -> new ArrayList<>()).add(cluster.name());
        }
        StringJoiner joined = new StringJoiner("; ");
        byFlavors.forEach((flavors, names) -> joined.add(String.join(", ", names) + (names.size() > 1 ? " offer " : " offers ")
                + (flavors.isEmpty() ? "no flavor" : String.join(", ", flavors))));
        return joined.toString();
    }

    /** 5m, 90s, 1h30m. */
    static String human(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds == 0) return duration.toMillis() + "ms";
        StringBuilder text = new StringBuilder();
        if (seconds >= 3600) text.append(seconds / 3600).append('h');
        if (seconds % 3600 >= 60) text.append(seconds % 3600 / 60).append('m');
        if (seconds % 60 > 0) text.append(seconds % 60).append('s');
        return text.toString();
    }
}
