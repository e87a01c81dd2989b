package dev.berth.manager.controller;

import dev.berth.manager.store.StoredObject;

/**
 * Told when a queued job's Workload was just created: {@link JobFollower} records Kueue's CreatedWorkload
 * event and shows a Job Suspended. {@link #NONE} on an API that only reads and in unit tests of the hooks.
 */
interface OwnedJobs {
    OwnedJobs NONE = (job, workloadName) -> { };

    void workloadCreated(StoredObject job, String workloadName);
}
