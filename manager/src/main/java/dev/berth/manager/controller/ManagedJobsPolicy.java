package dev.berth.manager.controller;

import dev.berth.manager.model.LabelRequirement;
import dev.berth.manager.model.LabelSelector;
import dev.berth.protocol.Labels;
import java.util.List;
import java.util.Map;

/**
 * Kueue's Configuration {@code manageJobsWithoutQueueName} and {@code managedJobsNamespaceSelector}:
 * whether a Job, JobSet or Pod without the queue-name label is managed anyway (suspended, given a
 * Workload that stays inadmissible until it names a LocalQueue), and in which namespaces. The
 * selector also bounds LocalQueue defaulting (a LocalQueue named {@code default} given to a job
 * without the label), as in Kueue.
 */
public record ManagedJobsPolicy(boolean manageJobsWithoutQueueName, LabelSelector managedJobsNamespaceSelector) {
    /** Kueue's default selector: every namespace but kube-system and Kueue's own (kueue-system). */
    public static final LabelSelector DEFAULT_NAMESPACE_SELECTOR = defaultSelectorExcluding("kueue-system");
    public static final ManagedJobsPolicy DEFAULTS = new ManagedJobsPolicy(false, DEFAULT_NAMESPACE_SELECTOR);

    public ManagedJobsPolicy {
        managedJobsNamespaceSelector = managedJobsNamespaceSelector == null ? DEFAULT_NAMESPACE_SELECTOR : managedJobsNamespaceSelector;
    }

    /** Kueue's default managedJobsNamespaceSelector for Kueue running in {@code kueueNamespace}: all but kube-system and it. */
    public static LabelSelector defaultSelectorExcluding(String kueueNamespace) {
        return new LabelSelector(Map.of(), List.of(new LabelRequirement(Labels.NAMESPACE_NAME, "NotIn", List.of("kube-system", kueueNamespace))));
    }

    /** Whether jobs in a namespace with these labels are Kueue's to manage without the label, or to default. */
    public boolean selects(Map<String, String> namespaceLabels) {
        return managedJobsNamespaceSelector.matches(namespaceLabels);
    }
}
