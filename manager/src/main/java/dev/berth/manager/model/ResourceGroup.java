package dev.berth.manager.model;

import java.util.List;

/** Resources that are always assigned the same flavor, and the flavors that provide them, in order of preference. */
public record ResourceGroup(List<String> coveredResources, List<FlavorQuotas> flavors) {
    public ResourceGroup {
        coveredResources = List.copyOf(coveredResources);
        flavors = List.copyOf(flavors);
    }

    public boolean covers(String resource) {
        return coveredResources.contains(resource);
    }
}
