package dev.berth.manager.objects;

import dev.berth.manager.model.FlavorQuotas;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.manager.model.ResourceQuota;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Decodes spec.resourceGroups of a ClusterQueue or Cohort with Kueue's rules: every flavor lists
 * exactly the covered resources in the same order; a resource or a flavor belongs to one group only;
 * limits exist only for a member of a cohort tree; lendingLimit never exceeds nominalQuota.
 */
public final class ResourceGroupsDecoder {
    static final int MAX_GROUPS = 16;
    static final int MAX_FLAVORS = 64;
    static final int MAX_RESOURCES = 64;
    static final String LIMIT_WITHOUT_COHORT = "must be nil when cohort is empty";
    static final String LENDING_ABOVE_NOMINAL = "must be less than or equal to the nominalQuota";

    private ResourceGroupsDecoder() {}

    /**
     * @param inCohort whether borrowingLimit and lendingLimit may be set (the ClusterQueue has a
     *                 cohortName, the Cohort has a parentName)
     */
    public static List<ResourceGroup> decode(FieldReader field, boolean inCohort) {
        field.checkMaxItems(MAX_GROUPS);
        Set<String> seenResources = new HashSet<>();
        Set<String> seenFlavors = new HashSet<>();
        List<ResourceGroup> groups = new ArrayList<>();
        for (FieldReader item : field.items()) {
            FieldReader group = item.object();
            List<String> covered = coveredResources(group.field("coveredResources"), seenResources);
            FieldReader flavorsField = group.field("flavors");
            flavorsField.checkMaxItems(MAX_FLAVORS);
            List<FlavorQuotas> flavors = new ArrayList<>();
            List<FieldReader> flavorItems = flavorsField.items();
            if (flavorItems.isEmpty() && !group.isAbsent()) flavorsField.required();
            for (FieldReader flavor : flavorItems) {
                flavors.add(flavorQuotas(flavor.object(), covered, seenFlavors, inCohort));
            }
            groups.add(new ResourceGroup(covered, flavors));
        }
        return groups;
    }

    private static List<String> coveredResources(FieldReader field, Set<String> seenResources) {
        field.checkMaxItems(MAX_RESOURCES);
        List<FieldReader> items = field.items();
        if (items.isEmpty() && (field.isAbsent() || field.node().isArray())) field.required();
        List<String> covered = new ArrayList<>();
        for (FieldReader item : items) {
            String resource = item.requiredText();
            if (resource == null) continue;
            LabelSyntax.validateKey(item.path(), resource, field.causes());
            if (!seenResources.add(resource)) item.duplicate(resource);
            covered.add(resource);
        }
        return covered;
    }

    private static FlavorQuotas flavorQuotas(FieldReader flavor, List<String> covered, Set<String> seenFlavors,
                                             boolean inCohort) {
        FieldReader nameField = flavor.field("name");
        String name = nameField.text();
        ObjectNames.validateName(nameField.path(), name, flavor.causes());
        if (name != null && !name.isEmpty() && !seenFlavors.add(name)) nameField.duplicate(name);

        FieldReader resourcesField = flavor.field("resources");
        List<FieldReader> items = resourcesField.items();
        if (items.size() != covered.size() && !flavor.isAbsent()) {
            resourcesField.invalidValue(String.valueOf(items.size()),
                    "must list the resources of coveredResources in the same order " + covered);
        }
        List<ResourceQuota> quotas = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            ResourceQuota quota = resourceQuota(items.get(i).object(), i < covered.size() ? covered.get(i) : null, inCohort);
            if (quota != null) quotas.add(quota);
        }
        return new FlavorQuotas(name, quotas);
    }

    private static ResourceQuota resourceQuota(FieldReader quota, String expectedName, boolean inCohort) {
        FieldReader nameField = quota.field("name");
        String name = nameField.requiredText();
        if (name != null && expectedName != null && !name.equals(expectedName)) {
            nameField.invalid("must match coveredResources in the same order (expected " + FieldReader.quote(expectedName) + ")");
        }
        String resource = name != null ? name : expectedName != null ? expectedName : "";
        FieldReader nominalField = quota.field("nominalQuota");
        if (nominalField.isAbsent() && !quota.isAbsent()) nominalField.required();
        Long nominal = nominalField.quantity(resource);
        Long borrowing = limit(quota.field("borrowingLimit"), resource, inCohort);
        FieldReader lendingField = quota.field("lendingLimit");
        Long lending = limit(lendingField, resource, inCohort);
        if (lending != null && nominal != null && lending > nominal) {
            lendingField.invalidValue(quantityText(lendingField), LENDING_ABOVE_NOMINAL);
        }
        if (name == null || nominal == null) return null;
        return new ResourceQuota(name, nominal, borrowing, lending);
    }

    private static Long limit(FieldReader field, String resource, boolean inCohort) {
        Long amount = field.quantity(resource);
        if (amount != null && !inCohort) {
            field.invalidValue(quantityText(field), LIMIT_WITHOUT_COHORT);
            return null;
        }
        return amount;
    }

    private static String quantityText(FieldReader field) {
        return field.node().isTextual() ? field.node().textValue() : field.node().asText();
    }
}
