package dev.berth.manager.clusters;

import java.util.concurrent.Executor;

/**
 * The state thread as the manager hands it to {@link WorkerClusters} when it runs their tasks in journal
 * groups: every call that changes a cluster (create, renew, commit, delete, fence, catalogue) is sent
 * through {@link #whenDurable}, the store's, so it leaves only once the writes made before it are durable
 * (after the group's sync; never if the sync fails). A plain {@link Executor} sends at once.
 */
public interface GroupedStateThread extends Executor {
    void whenDurable(Runnable send);
}
