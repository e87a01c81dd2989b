package dev.berth.benchmarks;

import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorFungibility;
import dev.berth.manager.model.FlavorQuotas;
import dev.berth.manager.model.LabelSelector;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.Preemption;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.QueueingStrategy;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.manager.model.ResourceQuota;
import dev.berth.manager.model.StopPolicy;
import dev.berth.protocol.Labels;
import dev.berth.protocol.ResourceNames;
import java.util.List;
import java.util.Map;

/**
 * The queue layout of Kueue's scheduler performance tests: cohorts of ClusterQueues, each with one
 * flavor {@code default} covering cpu, preemption reclaimWithinCohort Any and withinClusterQueue
 * LowerPriority, selecting every namespace; one namespace and LocalQueue per ClusterQueue.
 */
public record QueueTopology(int cohorts, int queuesPerCohort, long nominalCpuMillis, long borrowingLimitCpuMillis) {
    public static final String FLAVOR = "default";
    public static final String LOCAL_QUEUE = "local-queue";

    /** Kueue's quota: nominalQuota 20 cpu, borrowingLimit 100 cpu. */
    public static QueueTopology kueuePerf(int cohorts, int queuesPerCohort) {
        return new QueueTopology(cohorts, queuesPerCohort, 20_000, 100_000);
    }

    public int queueCount() {
        return cohorts * queuesPerCohort;
    }

    public long totalNominalCpuMillis() {
        return queueCount() * nominalCpuMillis;
    }

    /** ClusterQueue number {@code index}, counted across cohorts. */
    public String clusterQueue(int index) {
        return "cohort-" + (index / queuesPerCohort) + "-cq-" + (index % queuesPerCohort);
    }

    /** The namespace whose LocalQueue feeds ClusterQueue number {@code index}. */
    public String namespace(int index) {
        return "ns-" + clusterQueue(index);
    }

    /** Creates the flavor, cohorts' ClusterQueues, namespaces and LocalQueues in the controller. */
    public void install(AdmissionController controller) {
        controller.applyResourceFlavor(ResourceFlavor.named(FLAVOR));
        for (int index = 0; index < queueCount(); index++) {
            controller.applyClusterQueue(clusterQueueSpec(index));
            controller.applyNamespace(namespace(index), Map.of(Labels.NAMESPACE_NAME, namespace(index)));
            controller.applyLocalQueue(new LocalQueueSpec(namespace(index), LOCAL_QUEUE, clusterQueue(index), StopPolicy.NONE));
        }
    }

    private ClusterQueueSpec clusterQueueSpec(int index) {
        ResourceQuota cpu = new ResourceQuota(ResourceNames.CPU, nominalCpuMillis, borrowingLimitCpuMillis, null);
        ResourceGroup group = new ResourceGroup(List.of(ResourceNames.CPU), List.of(new FlavorQuotas(FLAVOR, List.of(cpu))));
        Preemption preemption = new Preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.ANY, PreemptionPolicy.NEVER, null);
        return new ClusterQueueSpec(clusterQueue(index), "cohort-" + (index / queuesPerCohort), List.of(group),
                QueueingStrategy.BEST_EFFORT_FIFO, LabelSelector.EVERYTHING, FlavorFungibility.DEFAULT, preemption,
                List.of(), StopPolicy.NONE, 1.0);
    }
}
