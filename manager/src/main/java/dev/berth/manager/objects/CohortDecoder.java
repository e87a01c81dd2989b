package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.CohortSpec;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.protocol.KueueApi;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes a Cohort: its parent (nullable), the quota it holds itself and its fair-sharing weight.
 * A root cohort has no one to borrow from or lend to, so its quotas may carry no limits.
 */
public final class CohortDecoder {
    private CohortDecoder() {}

    public static CohortSpec decode(ObjectNode object) {
        List<FieldCause> causes = new ArrayList<>();
        FieldReader root = FieldReader.root(object, causes);
        String name = ObjectNames.readName(root);
        FieldReader spec = root.field("spec").object();

        FieldReader parentField = spec.field("parentName");
        String parent = parentField.text();
        if (parent != null && parent.isEmpty()) parent = null;
        if (parent != null) {
            ObjectNames.validateName(parentField.path(), parent, causes);
            if (parent.equals(name)) parentField.invalid("a cohort cannot be its own parent");
        }
        List<ResourceGroup> groups = ResourceGroupsDecoder.decode(spec.field("resourceGroups"), parent != null);
        double weight = QueuePoliciesDecoder.fairSharingWeight(spec);

        root.throwIfInvalid(KueueApi.COHORT, name);
        return new CohortSpec(name, parent, groups, weight);
    }
}
