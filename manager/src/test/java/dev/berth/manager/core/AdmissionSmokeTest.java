package dev.berth.manager.core;

import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.localQueue;
import static dev.berth.manager.testing.Fixtures.quota;
import static dev.berth.manager.testing.Fixtures.workload;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.testing.MutableClock;
import dev.berth.manager.testing.RecordingSink;
import dev.berth.protocol.Conditions;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AdmissionSmokeTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final RecordingSink sink = new RecordingSink();
    private final AdmissionController controller = new AdmissionController(clock, SchedulerOptions.DEFAULTS, sink);

    @Test
    void borrowsFromTheCohortThenReclaimsByPreemption() {
        controller.applyResourceFlavor(ResourceFlavor.named("a100"));
        controller.applyClusterQueue(clusterQueue("team-a").cohort("pool")
                .group(flavor("a100", quota("nvidia.com/gpu", "4"))).build());
        controller.applyClusterQueue(clusterQueue("team-b").cohort("pool")
                .group(flavor("a100", quota("nvidia.com/gpu", "4")))
                .preemption(PreemptionPolicy.NEVER, PreemptionPolicy.ANY).build());
        controller.applyLocalQueue(localQueue("a", "lq", "team-a"));
        controller.applyLocalQueue(localQueue("b", "lq", "team-b"));

        controller.submit(workload("a", "big").request("nvidia.com/gpu", "6").build(), true, null);
        controller.schedule();
        assertThat(sink.workloads.get(WorkloadKey.of("a", "big")).isTrue(Conditions.ADMITTED)).isTrue();

        controller.submit(workload("b", "reclaimer").request("nvidia.com/gpu", "4").createdAt(1).build(), true, null);
        controller.schedule();

        WorkloadStatus victim = sink.workloads.get(WorkloadKey.of("a", "big"));
        assertThat(victim.isTrue(Conditions.EVICTED)).isTrue();
        assertThat(victim.condition(Conditions.PREEMPTED).reason()).isEqualTo("InCohortReclamation");
        assertThat(sink.workloads.get(WorkloadKey.of("b", "reclaimer")).isTrue(Conditions.ADMITTED)).isTrue();
        assertThat(sink.workloads.get(WorkloadKey.of("a", "big")).condition(Conditions.QUOTA_RESERVED).message())
                .isEqualTo("couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100, 2 more needed");
    }
}
