package dev.berth.manager.objects;

import dev.berth.manager.model.AdmissionCheckRule;
import dev.berth.manager.model.FlavorFungibility;
import dev.berth.manager.model.FlavorFungibility.Policy;
import dev.berth.manager.model.FlavorFungibility.Preference;
import dev.berth.manager.model.Preemption;
import dev.berth.manager.model.PreemptionPolicy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Decodes the policy blocks of a ClusterQueue (and the fair-sharing weight a Cohort shares), with Kueue's defaults. */
public final class QueuePoliciesDecoder {
    private static final PreemptionPolicy[] WITHIN_CLUSTER_QUEUE = {
            PreemptionPolicy.NEVER, PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.LOWER_OR_NEWER_EQUAL_PRIORITY};
    private static final PreemptionPolicy[] RECLAIM_WITHIN_COHORT = {
            PreemptionPolicy.NEVER, PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.ANY};
    private static final PreemptionPolicy[] BORROW_WITHIN_COHORT = {
            PreemptionPolicy.NEVER, PreemptionPolicy.LOWER_PRIORITY};
    static final String RECLAIM_NEVER_BORROW_NOT_NEVER = "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never";
    static final String PREFERENCE_NEEDS_TRY_NEXT_FLAVOR =
            "may only be set when whenCanBorrow and whenCanPreempt are both TryNextFlavor";

    private QueuePoliciesDecoder() {}

    /** spec.preemption; every policy defaults to Never. */
    public static Preemption preemption(FieldReader field) {
        FieldReader preemption = field.object();
        PreemptionPolicy within = preemption.field("withinClusterQueue")
                .oneOf(WITHIN_CLUSTER_QUEUE, PreemptionPolicy::wireName, PreemptionPolicy.NEVER);
        PreemptionPolicy reclaim = preemption.field("reclaimWithinCohort")
                .oneOf(RECLAIM_WITHIN_COHORT, PreemptionPolicy::wireName, PreemptionPolicy.NEVER);
        FieldReader borrow = preemption.field("borrowWithinCohort").object();
        PreemptionPolicy borrowPolicy = borrow.field("policy")
                .oneOf(BORROW_WITHIN_COHORT, PreemptionPolicy::wireName, PreemptionPolicy.NEVER);
        Integer threshold = borrow.field("maxPriorityThreshold").int32();
        if (reclaim == PreemptionPolicy.NEVER && borrowPolicy != PreemptionPolicy.NEVER) {
            preemption.invalid(RECLAIM_NEVER_BORROW_NOT_NEVER);
        }
        return new Preemption(within, reclaim, borrowPolicy, threshold);
    }

    /** spec.flavorFungibility; whenCanBorrow defaults to MayStopSearch, whenCanPreempt to TryNextFlavor. */
    public static FlavorFungibility flavorFungibility(FieldReader field) {
        FieldReader fungibility = field.object();
        Policy whenCanBorrow = fungibility.field("whenCanBorrow")
                .oneOf(Policy.values(), Policy::wireName, FlavorFungibility.DEFAULT.whenCanBorrow());
        Policy whenCanPreempt = fungibility.field("whenCanPreempt")
                .oneOf(Policy.values(), Policy::wireName, FlavorFungibility.DEFAULT.whenCanPreempt());
        FieldReader preferenceField = fungibility.field("preference");
        Preference preference = preferenceField.oneOf(Preference.values(), Preference::wireName, null);
        if (preference != null && (whenCanBorrow != Policy.TRY_NEXT_FLAVOR || whenCanPreempt != Policy.TRY_NEXT_FLAVOR)) {
            preferenceField.invalid(PREFERENCE_NEEDS_TRY_NEXT_FLAVOR);
        }
        return new FlavorFungibility(whenCanBorrow, whenCanPreempt, preference);
    }

    /** spec.admissionChecksStrategy.admissionChecks: named checks, each optionally limited to some flavors. */
    public static List<AdmissionCheckRule> admissionChecks(FieldReader field) {
        List<AdmissionCheckRule> rules = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (FieldReader item : field.object().field("admissionChecks").items()) {
            FieldReader rule = item.object();
            FieldReader nameField = rule.field("name");
            String name = nameField.text();
            ObjectNames.validateName(nameField.path(), name, field.causes());
            if (name != null && !name.isEmpty() && !seen.add(name)) nameField.duplicate(name);
            FieldReader onFlavorsField = rule.field("onFlavors");
            List<String> onFlavors = onFlavorsField.texts();
            for (int i = 0; i < onFlavors.size(); i++) {
                ObjectNames.validateName(onFlavorsField.path() + "[" + i + "]", onFlavors.get(i), field.causes());
            }
            if (name != null) rules.add(new AdmissionCheckRule(name, onFlavors));
        }
        return rules;
    }

    /** spec.fairSharing.weight: a non-negative quantity, 1 when absent. */
    public static double fairSharingWeight(FieldReader spec) {
        BigDecimal weight = spec.field("fairSharing").object().field("weight").decimalQuantity();
        return weight == null ? 1.0 : weight.doubleValue();
    }
}
