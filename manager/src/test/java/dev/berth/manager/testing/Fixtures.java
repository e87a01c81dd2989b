package dev.berth.manager.testing;

import dev.berth.manager.model.AdmissionCheckRule;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.CohortSpec;
import dev.berth.manager.model.FlavorFungibility;
import dev.berth.manager.model.FlavorQuotas;
import dev.berth.manager.model.LabelRequirement;
import dev.berth.manager.model.LabelSelector;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.PodSetRequest;
import dev.berth.manager.model.Preemption;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.Quantity;
import dev.berth.manager.model.QueueingStrategy;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.manager.model.ResourceQuota;
import dev.berth.manager.model.StopPolicy;
import dev.berth.manager.model.Toleration;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Fluent builders for scheduling scenarios: a scenario reads as a few lines. */
public final class Fixtures {
    private Fixtures() {}

    public static WorkloadBuilder workload(String namespace, String name) {
        return new WorkloadBuilder(namespace, name);
    }

    public static ClusterQueueBuilder clusterQueue(String name) {
        return new ClusterQueueBuilder(name);
    }

    public static LocalQueueSpec localQueue(String namespace, String name, String clusterQueue) {
        return new LocalQueueSpec(namespace, name, clusterQueue, StopPolicy.NONE);
    }

    public static CohortSpec cohort(String name, String parent) {
        return new CohortSpec(name, parent, List.of(), 1.0);
    }

    /** A Cohort holding quota of its own, one flavor per call to {@link #flavor}, all in one resource group. */
    public static CohortSpec cohort(String name, String parent, FlavorQuotas... flavors) {
        List<String> covered = flavors[0].resources().stream().map(ResourceQuota::resource).toList();
        return new CohortSpec(name, parent, List.of(new ResourceGroup(covered, List.of(flavors))), 1.0);
    }

    /** A quota row: resource, nominal, optional borrowing and lending limits, as quantity strings. */
    public static ResourceQuota quota(String resource, String nominal) {
        return new ResourceQuota(resource, Quantity.amount(resource, nominal), null, null);
    }

    public static ResourceQuota quota(String resource, String nominal, String borrowingLimit, String lendingLimit) {
        return new ResourceQuota(resource, Quantity.amount(resource, nominal),
                borrowingLimit == null ? null : Quantity.amount(resource, borrowingLimit),
                lendingLimit == null ? null : Quantity.amount(resource, lendingLimit));
    }

    public static final class WorkloadBuilder {
        private final String namespace;
        private final String name;
        private String queue = "lq";
        private int priority;
        private String priorityClass = "";
        private long createdAt;
        private final List<PodSetRequest> podSets = new ArrayList<>();
        private String podSetName = "main";
        private int count = 1;
        private Integer minCount;
        private final Map<String, Long> perPod = new LinkedHashMap<>();
        private final Map<String, String> nodeSelector = new LinkedHashMap<>();
        private final List<Toleration> tolerations = new ArrayList<>();
        private final List<List<LabelRequirement>> requiredNodeAffinity = new ArrayList<>();

        WorkloadBuilder(String namespace, String name) {
            this.namespace = namespace;
            this.name = name;
        }

        public WorkloadBuilder queue(String localQueue) {
            this.queue = localQueue;
            return this;
        }

        public WorkloadBuilder priority(int value) {
            this.priority = value;
            return this;
        }

        public WorkloadBuilder createdAt(long epochMillis) {
            this.createdAt = epochMillis;
            return this;
        }

        /** Per-pod request of the current pod set. */
        public WorkloadBuilder request(String resource, String quantity) {
            perPod.put(resource, Quantity.amount(resource, quantity));
            return this;
        }

        private Long maximumExecutionTimeSeconds;

        public WorkloadBuilder count(int pods) {
            this.count = pods;
            return this;
        }

        public WorkloadBuilder minCount(int pods) {
            this.minCount = pods;
            return this;
        }

        public WorkloadBuilder nodeSelector(String key, String value) {
            nodeSelector.put(key, value);
            return this;
        }

        public WorkloadBuilder toleration(String key, String operator, String value, String effect) {
            tolerations.add(new Toleration(key, operator, value, effect));
            return this;
        }

        /** Adds a required node affinity term (terms are ORed) with one requirement to the current pod set. */
        public WorkloadBuilder requiredNodeAffinity(String key, String operator, String... values) {
            requiredNodeAffinity.add(List.of(new LabelRequirement(key, operator, List.of(values))));
            return this;
        }

        /** Closes the current pod set and starts another. */
        public WorkloadBuilder podSet(String nextName) {
            closePodSet();
            podSetName = nextName;
            return this;
        }

        private void closePodSet() {
            podSets.add(new PodSetRequest(podSetName, count, minCount, perPod, nodeSelector, requiredNodeAffinity, tolerations));
            perPod.clear();
            nodeSelector.clear();
            tolerations.clear();
            requiredNodeAffinity.clear();
            count = 1;
            minCount = null;
        }

        /** spec.maximumExecutionTimeSeconds. */
        public WorkloadBuilder maximumExecutionTimeSeconds(long seconds) {
            this.maximumExecutionTimeSeconds = seconds;
            return this;
        }

        /** The name of spec.priorityClassRef (Kueue's priority_class metric label). */
        public WorkloadBuilder priorityClass(String className) {
            this.priorityClass = className;
            return this;
        }

        public WorkloadRequest build() {
            closePodSet();
            return new WorkloadRequest(WorkloadKey.of(namespace, name), queue, priority, createdAt, podSets, maximumExecutionTimeSeconds,
                    priorityClass);
        }
    }

    public static final class ClusterQueueBuilder {
        private final String name;
        private String cohort;
        private final List<ResourceGroup> groups = new ArrayList<>();
        private QueueingStrategy strategy = QueueingStrategy.BEST_EFFORT_FIFO;
        private LabelSelector namespaceSelector = LabelSelector.EVERYTHING;
        private FlavorFungibility fungibility = FlavorFungibility.DEFAULT;
        private Preemption preemption = Preemption.NONE;
        private final List<AdmissionCheckRule> checks = new ArrayList<>();
        private StopPolicy stopPolicy = StopPolicy.NONE;
        private double weight = 1.0;
        private boolean usageBasedAdmissionFairSharing;

        ClusterQueueBuilder(String name) {
            this.name = name;
        }

        public ClusterQueueBuilder cohort(String cohortName) {
            this.cohort = cohortName;
            return this;
        }

        /** A resource group: covered resources taken from the first flavor's quotas. */
        public ClusterQueueBuilder group(FlavorQuotas... flavors) {
            List<String> covered = flavors[0].resources().stream().map(ResourceQuota::resource).toList();
            groups.add(new ResourceGroup(covered, List.of(flavors)));
            return this;
        }

        public ClusterQueueBuilder strategy(QueueingStrategy queueingStrategy) {
            this.strategy = queueingStrategy;
            return this;
        }

        public ClusterQueueBuilder namespaceSelector(LabelSelector selector) {
            this.namespaceSelector = selector;
            return this;
        }

        public ClusterQueueBuilder fungibility(FlavorFungibility flavorFungibility) {
            this.fungibility = flavorFungibility;
            return this;
        }

        public ClusterQueueBuilder preemption(PreemptionPolicy withinClusterQueue, PreemptionPolicy reclaimWithinCohort) {
            this.preemption = new Preemption(withinClusterQueue, reclaimWithinCohort, PreemptionPolicy.NEVER, null);
            return this;
        }

        public ClusterQueueBuilder preemption(Preemption value) {
            this.preemption = value;
            return this;
        }

        public ClusterQueueBuilder admissionCheck(String check, String... onFlavors) {
            checks.add(new AdmissionCheckRule(check, List.of(onFlavors)));
            return this;
        }

        public ClusterQueueBuilder stopPolicy(StopPolicy policy) {
            this.stopPolicy = policy;
            return this;
        }

        public ClusterQueueBuilder weight(double fairSharingWeight) {
            this.weight = fairSharingWeight;
            return this;
        }

        /** spec.admissionScope.admissionMode: UsageBasedAdmissionFairSharing. */
        public ClusterQueueBuilder usageBasedAdmissionFairSharing() {
            this.usageBasedAdmissionFairSharing = true;
            return this;
        }

        public ClusterQueueSpec build() {
            return new ClusterQueueSpec(name, cohort, groups, strategy, namespaceSelector, fungibility, preemption, checks, stopPolicy, weight,
                    usageBasedAdmissionFairSharing);
        }
    }

    public static FlavorQuotas flavor(String name, ResourceQuota... quotas) {
        return new FlavorQuotas(name, List.of(quotas));
    }
}
