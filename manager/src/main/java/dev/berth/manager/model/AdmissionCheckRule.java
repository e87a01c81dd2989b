package dev.berth.manager.model;

import java.util.List;

/** One entry of admissionChecksStrategy: a check, and the flavors it applies to (all when empty). */
public record AdmissionCheckRule(String name, List<String> onFlavors) {
    public AdmissionCheckRule {
        onFlavors = List.copyOf(onFlavors);
    }

    public boolean appliesTo(java.util.Collection<String> assignedFlavors) {
        if (onFlavors.isEmpty()) return true;
        for (String flavor : assignedFlavors) {
            if (onFlavors.contains(flavor)) return true;
        }
        return false;
    }
}
