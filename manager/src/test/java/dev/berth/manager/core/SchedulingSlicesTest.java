package dev.berth.manager.core;

import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A scheduling pass run in slices: the same decisions as a whole pass, statuses written when it ends. */
class SchedulingSlicesTest {

    @Test
    void aPassRunInOneCycleSlicesDecidesExactlyAsAWholePass() {
        for (long seed = 1; seed <= 20; seed++) {
            Scenario whole = mixedLoad(seed);
            Scenario sliced = mixedLoad(seed);
            CycleReport wholeReport = whole.controller.schedule();
            int slices = 0;
            int slicedCycles = 0;
            do {
                slicedCycles += sliced.controller.schedule(1).cycles();
                slices++;
            } while (sliced.controller.hasMoreToSchedule());

            assertThat(slicedCycles).as("seed %d", seed).isEqualTo(wholeReport.cycles());
            assertThat(slices).as("seed %d", seed).isGreaterThan(1);
            assertThat(decisions(sliced)).as("seed %d", seed).isEqualTo(decisions(whole));
            assertThat(sliced.sink.clusterQueues).as("seed %d", seed).isEqualTo(whole.sink.clusterQueues);
        }
    }

    @Test
    void queueStatusesAreWrittenWhenThePassEndsNotAfterEverySlice() {
        Scenario s = mixedLoad(7);
        s.controller.schedule(1);
        assertThat(s.controller.hasMoreToSchedule()).isTrue();
        assertThat(s.sink.clusterQueues).isEmpty();
        while (s.controller.hasMoreToSchedule()) s.controller.schedule(1);
        assertThat(s.sink.clusterQueues).isNotEmpty();
        s.sink.clusterQueues.values().forEach(status -> assertThat(status.pendingWorkloads() + status.reservingWorkloads()).isPositive());
    }

    @Test
    void aLongPassStillWritesQueueStatusesEverySecond() {
        Scenario s = mixedLoad(3);
        s.controller.schedule(1);
        assertThat(s.sink.clusterQueues).isEmpty();
        s.clock.advance(Duration.ofMillis(AdmissionController.QUEUE_STATUS_INTERVAL_IN_PASS_MILLIS));
        s.controller.schedule(1);
        assertThat(s.controller.hasMoreToSchedule()).isTrue();
        assertThat(s.sink.clusterQueues).isNotEmpty();
    }

    @Test
    void aWholePassAfterAnOpenSliceFinishesThatPass() {
        Scenario s = mixedLoad(11);
        s.controller.schedule(1);
        assertThat(s.controller.hasMoreToSchedule()).isTrue();
        s.controller.schedule();
        assertThat(s.controller.hasMoreToSchedule()).isFalse();
        assertThat(s.controller.schedule().cycles()).isZero();
    }

    /**
     * Four queues in a cohort, 6 cpu each: 60 workloads of mixed size and priority, scheduled in three
     * batches, then 30 more left for the pass under test (many cycles, with preemptions). The queue
     * statuses written so far are forgotten by the sink.
     */
    private static Scenario mixedLoad(long seed) {
        Scenario s = new Scenario();
        s.flavors("default");
        for (int q = 0; q < 4; q++) {
            s.cq(clusterQueue("q" + q).cohort("pool").preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.ANY)
                    .group(flavor("default", quota("cpu", "6"))));
        }
        Random random = new Random(seed);
        for (int i = 0; i < 60; i++) {
            s.submit(s.w("q" + random.nextInt(4), "w" + i).priority(random.nextInt(3) * 10)
                    .request("cpu", String.valueOf(1 + random.nextInt(4))));
            if (i % 20 == 19) s.controller.schedule();
        }
        for (int i = 60; i < 90; i++) {
            s.submit(s.w("q" + random.nextInt(4), "w" + i).priority(random.nextInt(3) * 10)
                    .request("cpu", String.valueOf(1 + random.nextInt(4))));
        }
        s.sink.clusterQueues.clear();
        return s;
    }

    /** Every workload's admission (queue and usage) or pending message, by key. */
    private static Map<WorkloadKey, String> decisions(Scenario s) {
        Map<WorkloadKey, String> decisions = new TreeMap<>();
        s.sink.workloads.forEach((key, status) -> decisions.put(key, status.isTrue(Conditions.QUOTA_RESERVED)
                ? "admitted " + status.admission().clusterQueue() + " " + status.admission().usage()
                : "pending " + status.condition(Conditions.QUOTA_RESERVED).message() + " requeues " + status.requeueCount()));
        return decisions;
    }
}
