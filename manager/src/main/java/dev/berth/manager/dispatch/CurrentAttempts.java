package dev.berth.manager.dispatch;

import dev.berth.manager.model.WorkloadKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Which attempt is each workload's current one, and which attempt ids were retired. An attempt becomes
 * current when it is dispatched, recovered from a stored {@code status.dispatch} or adopted from a listing,
 * and stops being current only by being retired (it finished, its last copy is gone, it was abandoned or
 * evicted); a retired id is never current again, so a copy of it that a cluster still lists is stale and is
 * never adopted. The decisions read it and the dispatch core changes it; pure, the state thread only.
 */
public final class CurrentAttempts {
    private final Map<WorkloadKey, DispatchAttempt> byWorkload = new HashMap<>();
    private final Set<String> retiredIds = new HashSet<>();

    /** The attempts current at once, each under its workload (for tests and recovery). */
    public static CurrentAttempts of(Map<WorkloadKey, DispatchAttempt> attempts) {
        CurrentAttempts current = new CurrentAttempts();
        attempts.forEach(current::begin);
        return current;
    }

    /** The workload's current attempt, or null. */
    public DispatchAttempt get(WorkloadKey key) {
        return byWorkload.get(key);
    }

    /** True while the workload has a current attempt. */
    public boolean has(WorkloadKey key) {
        return byWorkload.containsKey(key);
    }

    /** True while {@code attempt} is the workload's current attempt (an answer for an older one finds false). */
    public boolean isCurrent(WorkloadKey key, DispatchAttempt attempt) {
        return byWorkload.get(key) == attempt;
    }

    /** {@code attempt} (dispatched, recovered or adopted) becomes the workload's current attempt. */
    public void begin(WorkloadKey key, DispatchAttempt attempt) {
        if (retiredIds.contains(attempt.id())) throw new IllegalStateException("attempt " + attempt.id() + " was retired");
        byWorkload.put(key, attempt);
    }

    /** The attempt is no longer the workload's current one, and its id is never current again. */
    public void retire(WorkloadKey key, DispatchAttempt attempt) {
        byWorkload.remove(key, attempt);
        retiredIds.add(attempt.id());
    }

    /** True once an attempt with this id was retired. */
    public boolean retired(String attemptId) {
        return retiredIds.contains(attemptId);
    }

    /** The current attempts, each with its workload. */
    public void forEach(BiConsumer<WorkloadKey, DispatchAttempt> action) {
        byWorkload.forEach(action);
    }

    /** The current attempts as they are now: a decision that retires some while it goes through them reads this. */
    public List<Map.Entry<WorkloadKey, DispatchAttempt>> entries() {
        List<Map.Entry<WorkloadKey, DispatchAttempt>> entries = new ArrayList<>(byWorkload.size());
        byWorkload.forEach((key, attempt) -> entries.add(Map.entry(key, attempt)));
        return entries;
    }

    /** The workloads that have a current attempt, as they are now. */
    public List<WorkloadKey> workloads() {
        return new ArrayList<>(byWorkload.keySet());
    }

    /** A read-only view of the current attempts. */
    public Collection<DispatchAttempt> all() {
        return Collections.unmodifiableCollection(byWorkload.values());
    }

    public int size() {
        return byWorkload.size();
    }
}
