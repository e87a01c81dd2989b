package dev.berth.manager.model;

import java.util.List;

/** The quotas a ClusterQueue or Cohort holds in one flavor, in the order of its resource group. */
public record FlavorQuotas(String flavor, List<ResourceQuota> resources) {
    public FlavorQuotas {
        resources = List.copyOf(resources);
    }

    public ResourceQuota quota(String resource) {
        for (ResourceQuota quota : resources) {
            if (quota.resource().equals(resource)) return quota;
        }
        return null;
    }
}
