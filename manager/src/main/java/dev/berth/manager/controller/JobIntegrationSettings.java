package dev.berth.manager.controller;

import dev.berth.manager.objects.WorkloadResourcePolicy;

/**
 * The job-integration part of Kueue's Configuration that the manager honours: how requests count
 * against quota ({@code resources}) and which jobs are managed without the queue-name label
 * ({@code manageJobsWithoutQueueName}, {@code managedJobsNamespaceSelector}).
 */
public record JobIntegrationSettings(WorkloadResourcePolicy resources, ManagedJobsPolicy managedJobs) {
    public static final JobIntegrationSettings DEFAULTS = new JobIntegrationSettings(WorkloadResourcePolicy.NONE, ManagedJobsPolicy.DEFAULTS);

    public JobIntegrationSettings {
        resources = resources == null ? WorkloadResourcePolicy.NONE : resources;
        managedJobs = managedJobs == null ? ManagedJobsPolicy.DEFAULTS : managedJobs;
    }
}
