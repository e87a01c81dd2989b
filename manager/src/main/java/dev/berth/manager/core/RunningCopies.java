package dev.berth.manager.core;

import dev.berth.manager.model.WorkloadKey;

/**
 * Whether a workload has a copy running (or possibly starting) on a worker cluster. An eviction of
 * such a workload keeps its quota reserved until the copy is confirmed stopped (Kueue keeps
 * QuotaReserved until the evicted job is no longer active): see {@link QuotaRelease#evict}.
 */
@FunctionalInterface
public interface RunningCopies {
    RunningCopies NONE = key -> false;

    boolean hasRunningCopy(WorkloadKey key);
}
