package dev.berth.manager.model;

import java.util.List;

/** A Cohort object: its parent in the cohort tree (nullable) and the quota it holds itself. */
public record CohortSpec(String name, String parent, List<ResourceGroup> resourceGroups, double fairSharingWeight) {
    public CohortSpec {
        resourceGroups = List.copyOf(resourceGroups);
    }

    /** A cohort that exists only because a ClusterQueue or Cohort names it. */
    public static CohortSpec implicit(String name) {
        return new CohortSpec(name, null, List.of(), 1.0);
    }
}
