package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.AdmissionCheckRule;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorFungibility;
import dev.berth.manager.model.LabelSelector;
import dev.berth.manager.model.Preemption;
import dev.berth.manager.model.QueueingStrategy;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.manager.model.StopPolicy;
import dev.berth.protocol.KueueApi;

import java.util.ArrayList;
import java.util.List;

/** Decodes a kueue.x-k8s.io/v1beta2 ClusterQueue into a {@link ClusterQueueSpec}, applying Kueue's defaults. */
public final class ClusterQueueDecoder {
    private ClusterQueueDecoder() {}

    /** spec.admissionScope.admissionMode values (Kueue's AdmissionMode). */
    static final String USAGE_BASED_ADMISSION_FAIR_SHARING = "UsageBasedAdmissionFairSharing";
    static final String NO_ADMISSION_FAIR_SHARING = "NoAdmissionFairSharing";

    public static ClusterQueueSpec decode(ObjectNode object) {
        List<FieldCause> causes = new ArrayList<>();
        FieldReader root = FieldReader.root(object, causes);
        String name = ObjectNames.readName(root);
        FieldReader spec = root.field("spec").object();

        FieldReader cohortField = spec.field("cohortName");
        String cohort = cohortField.text();
        if (cohort != null && cohort.isEmpty()) cohort = null;
        if (cohort != null) ObjectNames.validateName(cohortField.path(), cohort, causes);

        List<ResourceGroup> groups = ResourceGroupsDecoder.decode(spec.field("resourceGroups"), cohort != null);
        QueueingStrategy strategy = spec.field("queueingStrategy")
                .oneOf(QueueingStrategy.values(), QueueingStrategy::wireName, QueueingStrategy.BEST_EFFORT_FIFO);
        LabelSelector namespaceSelector = LabelSelectorDecoder.decode(spec.field("namespaceSelector"));
        FlavorFungibility fungibility = QueuePoliciesDecoder.flavorFungibility(spec.field("flavorFungibility"));
        Preemption preemption = QueuePoliciesDecoder.preemption(spec.field("preemption"));
        List<AdmissionCheckRule> checks = QueuePoliciesDecoder.admissionChecks(spec.field("admissionChecksStrategy"));
        StopPolicy stopPolicy = spec.field("stopPolicy").oneOf(StopPolicy.values(), StopPolicy::wireName, StopPolicy.NONE);
        double weight = QueuePoliciesDecoder.fairSharingWeight(spec);
        String admissionMode = spec.field("admissionScope").object().field("admissionMode")
                .oneOf(List.of(USAGE_BASED_ADMISSION_FAIR_SHARING, NO_ADMISSION_FAIR_SHARING));

        root.throwIfInvalid(KueueApi.CLUSTER_QUEUE, name);
        return new ClusterQueueSpec(name, cohort, groups, strategy, namespaceSelector, fungibility, preemption,
                checks, stopPolicy, weight, USAGE_BASED_ADMISSION_FAIR_SHARING.equals(admissionMode),
                object.path("metadata").hasNonNull("deletionTimestamp"));
    }
}
