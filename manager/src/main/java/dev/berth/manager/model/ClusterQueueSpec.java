package dev.berth.manager.model;

import java.util.List;

/**
 * The scheduling-relevant part of a ClusterQueue. cohort is null when the queue is in no cohort.
 * namespaceSelector is null when the queue selects no namespace (Kueue's default), EVERYTHING for {}.
 * usageBasedAdmissionFairSharing is spec.admissionScope.admissionMode UsageBasedAdmissionFairSharing.
 * terminating: the queue was deleted and its deletion waits (the resource-in-use finalizer); like
 * Kueue's, such a queue admits nothing new.
 */
public record ClusterQueueSpec(String name,
                               String cohort,
                               List<ResourceGroup> resourceGroups,
                               QueueingStrategy queueingStrategy,
                               LabelSelector namespaceSelector,
                               FlavorFungibility flavorFungibility,
                               Preemption preemption,
                               List<AdmissionCheckRule> admissionChecks,
                               StopPolicy stopPolicy,
                               double fairSharingWeight,
                               boolean usageBasedAdmissionFairSharing,
                               boolean terminating) {
    public ClusterQueueSpec {
        resourceGroups = List.copyOf(resourceGroups);
        admissionChecks = List.copyOf(admissionChecks);
    }

    /** A queue that is not being deleted. */
    public ClusterQueueSpec(String name, String cohort, List<ResourceGroup> resourceGroups, QueueingStrategy queueingStrategy,
                            LabelSelector namespaceSelector, FlavorFungibility flavorFungibility, Preemption preemption,
                            List<AdmissionCheckRule> admissionChecks, StopPolicy stopPolicy, double fairSharingWeight,
                            boolean usageBasedAdmissionFairSharing) {
        this(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, flavorFungibility, preemption,
                admissionChecks, stopPolicy, fairSharingWeight, usageBasedAdmissionFairSharing, false);
    }

    /** A queue without an admissionScope (no admission fair sharing). */
    public ClusterQueueSpec(String name, String cohort, List<ResourceGroup> resourceGroups, QueueingStrategy queueingStrategy,
                            LabelSelector namespaceSelector, FlavorFungibility flavorFungibility, Preemption preemption,
                            List<AdmissionCheckRule> admissionChecks, StopPolicy stopPolicy, double fairSharingWeight) {
        this(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, flavorFungibility, preemption,
                admissionChecks, stopPolicy, fairSharingWeight, false, false);
    }

    /** The resource group covering a resource, or null. */
    public ResourceGroup groupFor(String resource) {
        for (ResourceGroup group : resourceGroups) {
            if (group.covers(resource)) return group;
        }
        return null;
    }
}
