package dev.berth.manager.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.core.AdmissionFairSharing;
import dev.berth.manager.core.PodsReadyPolicy;
import dev.berth.manager.model.LabelSelector;
import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.objects.FieldReader;
import dev.berth.manager.objects.LabelSelectorDecoder;
import dev.berth.manager.objects.WorkloadResourcePolicy;
import dev.berth.manager.controller.JobIntegrationSettings;
import dev.berth.manager.controller.ManagedJobsPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * The sections of a Kueue Configuration that become behaviour records of their own: waitForPodsReady
 * ({@link PodsReadyPolicy}), admissionFairSharing ({@link AdmissionFairSharing}), resources
 * ({@link WorkloadResourcePolicy}) and manageJobsWithoutQueueName with managedJobsNamespaceSelector
 * ({@link ManagedJobsPolicy}). An invalid value is an {@link InvalidConfigurationException} naming its
 * field, as the parser's own.
 */
final class ConfiguredBehaviours {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ConfiguredBehaviours() {}

    /** waitForPodsReady; a --wait-for-pods-ready flag (anything but DISABLED) wins over the file. */
    static PodsReadyPolicy podsReady(KueueConfiguration kueue, PodsReadyPolicy flag) {
        if (flag != null && flag.enable()) return flag;
        if (kueue == null || kueue.waitForPodsReady() == null || !kueue.waitForPodsReady().enabled()) return PodsReadyPolicy.DISABLED;
        KueueConfiguration.WaitForPodsReady section = kueue.waitForPodsReady();
        KueueConfiguration.RequeuingStrategy requeuing = section.requeuingStrategy();
        PodsReadyPolicy.RequeuingStrategy strategy = requeuing == null ? PodsReadyPolicy.RequeuingStrategy.DEFAULTS
                : new PodsReadyPolicy.RequeuingStrategy(timestamp(requeuing.timestamp()), requeuing.backoffLimitCount(),
                        requeuing.backoffBaseSeconds(), requeuing.backoffMaxSeconds());
        try {
            return new PodsReadyPolicy(true, section.timeout(), section.blockAdmission(), section.recoveryTimeout(), strategy);
        } catch (IllegalArgumentException invalid) {
            throw new InvalidConfigurationException("waitForPodsReady", invalid.getMessage());
        }
    }

    private static PodsReadyPolicy.Timestamp timestamp(String wireName) {
        if (wireName == null) return PodsReadyPolicy.Timestamp.EVICTION;
        for (PodsReadyPolicy.Timestamp timestamp : PodsReadyPolicy.Timestamp.values()) {
            if (timestamp.wireName().equals(wireName)) return timestamp;
        }
        throw new InvalidConfigurationException("waitForPodsReady.requeuingStrategy.timestamp", "unsupported value \"" + wireName + "\"");
    }

    /** admissionFairSharing; null (off) when the section is absent. */
    static AdmissionFairSharing admissionFairSharing(KueueConfiguration kueue) {
        if (kueue == null || kueue.admissionFairSharing() == null) return null;
        KueueConfiguration.AdmissionFairSharing section = kueue.admissionFairSharing();
        try {
            return new AdmissionFairSharing(section.usageHalfLifeTime(), section.usageSamplingInterval(), section.resourceWeights());
        } catch (IllegalArgumentException invalid) {
            throw new InvalidConfigurationException("admissionFairSharing", invalid.getMessage());
        }
    }

    /** resources, manageJobsWithoutQueueName and managedJobsNamespaceSelector. */
    static JobIntegrationSettings jobIntegration(KueueConfiguration kueue) {
        if (kueue == null) return JobIntegrationSettings.DEFAULTS;
        return new JobIntegrationSettings(resources(kueue.resources()),
                new ManagedJobsPolicy(kueue.manageJobsWithoutQueueName(), namespaceSelector(kueue)));
    }

    private static WorkloadResourcePolicy resources(KueueConfiguration.Resources section) {
        if (section == null) return WorkloadResourcePolicy.NONE;
        List<WorkloadResourcePolicy.ResourceTransformation> transformations = new ArrayList<>();
        for (int i = 0; i < section.transformations().size(); i++) {
            KueueConfiguration.ResourceTransformation t = section.transformations().get(i);
            String field = "resources.transformations[" + i + "]";
            WorkloadResourcePolicy.Strategy strategy = t.strategy() == null || t.strategy().equals("Retain")
                    ? WorkloadResourcePolicy.Strategy.RETAIN : WorkloadResourcePolicy.Strategy.REPLACE;
            if (t.strategy() != null && !t.strategy().equals("Retain") && !t.strategy().equals("Replace")) {
                throw new InvalidConfigurationException(field + ".strategy", "unsupported value \"" + t.strategy() + "\": Retain or Replace");
            }
            try {
                transformations.add(WorkloadResourcePolicy.ResourceTransformation.of(t.input(), strategy, t.multiplyBy(),
                        t.outputs() == null ? java.util.Map.of() : t.outputs()));
            } catch (IllegalArgumentException invalid) {
                throw new InvalidConfigurationException(field, invalid.getMessage());
            }
        }
        try {
            return new WorkloadResourcePolicy(section.excludeResourcePrefixes(), transformations);
        } catch (IllegalArgumentException invalid) {
            throw new InvalidConfigurationException("resources.transformations", invalid.getMessage());
        }
    }

    /** The file's selector; else Kueue's default, which excludes kube-system and Kueue's own namespace. */
    private static LabelSelector namespaceSelector(KueueConfiguration kueue) {
        if (kueue.managedJobsNamespaceSelector() == null || !kueue.isSet("managedJobsNamespaceSelector")) {
            String own = kueue.namespace() == null || kueue.namespace().isBlank() ? "kueue-system" : kueue.namespace();
            return ManagedJobsPolicy.defaultSelectorExcluding(own);
        }
        List<FieldCause> causes = new ArrayList<>();
        LabelSelector selector = LabelSelectorDecoder.decode(FieldReader.root(
                JSON.createObjectNode().set("managedJobsNamespaceSelector", JSON.valueToTree(kueue.managedJobsNamespaceSelector())), causes)
                .field("managedJobsNamespaceSelector"));
        if (!causes.isEmpty()) throw new InvalidConfigurationException(causes.get(0).field(), causes.get(0).message());
        return selector == null ? ManagedJobsPolicy.DEFAULT_NAMESPACE_SELECTOR : selector;
    }

    /**
     * Kueue's optional series: the LocalQueue ones (featureGates.LocalQueueMetrics, or
     * metrics.localQueueMetrics.enable) and the per-flavor ClusterQueue resource gauges
     * (metrics.enableClusterQueueResources, Kueue's default false when a file is given).
     */
    static dev.berth.manager.core.MetricsOptions metrics(KueueConfiguration kueue) {
        if (kueue == null) return dev.berth.manager.core.MetricsOptions.DEFAULTS;
        boolean localQueues = Boolean.TRUE.equals(kueue.featureGates().get("LocalQueueMetrics")) || kueue.metrics().localQueueMetricsEnabled();
        return new dev.berth.manager.core.MetricsOptions(localQueues, kueue.metrics().enableClusterQueueResources());
    }
}
