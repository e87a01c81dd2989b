package dev.berth.manager.controller;

import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.localQueue;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.testing.Fixtures;
import dev.berth.manager.testing.MutableClock;
import dev.berth.manager.testing.RecordingSink;
import dev.berth.protocol.Conditions;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When the manager's passes run: within the batch window after the first change, a whole small pass
 * at once without one, and a pass longer than one slice in later state-thread tasks.
 */
class SchedulingContinuationTest {
    private static final int QUEUES = AdmissionController.NOMINATIONS_PER_SLICE + 100;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final RecordingSink sink = new RecordingSink();
    private final ArrayDeque<Runnable> stateThreadTasks = new ArrayDeque<>();
    private final ArrayDeque<Long> taskDelays = new ArrayDeque<>();
    private final MemoryObjectStore store = new MemoryObjectStore(clock);
    private final AdmissionController controller = new AdmissionController(clock, SchedulerOptions.DEFAULTS, sink);
    /** Without a state thread until a test gives it one. */
    private SchedulingPasses passes = SchedulingPasses.inline(store, controller);

    @BeforeEach
    void defaultFlavor() {
        controller.applyResourceFlavor(ResourceFlavor.named("default"));
    }

    @Test
    void aPassLongerThanOneSliceGoesOnInLaterStateThreadTasks() {
        withStateThread();
        queuesWithTwoWorkloadsEach(QUEUES);

        passes.reschedule();
        assertThat(admitted()).as("after the first slice: one head per queue").isEqualTo(QUEUES);
        assertThat(stateThreadTasks).hasSize(1);
        assertThat(taskDelays.poll()).as("the rest of a pass does not wait for a window").isZero();

        stateThreadTasks.poll().run();
        assertThat(admitted()).as("after the second slice").isEqualTo(2 * QUEUES);
        assertThat(stateThreadTasks).as("the pass stopped at the budget again").hasSize(1);

        stateThreadTasks.poll().run();
        assertThat(controller.hasMoreToSchedule()).isFalse();
        assertThat(stateThreadTasks).as("an ended pass queues nothing").isEmpty();
        assertThat(admitted()).isEqualTo(2 * QUEUES);
    }

    @Test
    void changesWithinTheBatchWindowAreDecidedByOnePassWhenItEnds() {
        withStateThread(SchedulerOptions.DEFAULTS.schedulingBatchWindow().toMillis());
        controller.applyClusterQueue(clusterQueue("q").group(flavor("default", quota("cpu", "2"))).build());
        controller.applyLocalQueue(localQueue("ns", "lq", "q"));

        submit("ns", "first", 0);
        passes.reschedule();
        submit("ns", "second", 1);
        passes.reschedule();
        assertThat(admitted()).as("nothing is decided inside the window").isZero();
        assertThat(stateThreadTasks).as("one pass for both changes").hasSize(1);
        assertThat(taskDelays.poll()).isEqualTo(10L);

        stateThreadTasks.poll().run();
        assertThat(admitted()).isEqualTo(2);
        assertThat(stateThreadTasks).isEmpty();
        passes.reschedule();
        assertThat(stateThreadTasks).as("a later change opens a new window").hasSize(1);
    }

    @Test
    void withoutAStateThreadEveryPassRunsWhole() {
        queuesWithTwoWorkloadsEach(QUEUES);
        passes.reschedule();
        assertThat(admitted()).isEqualTo(2 * QUEUES);
        assertThat(controller.hasMoreToSchedule()).isFalse();
    }

    private void withStateThread() {
        withStateThread(0);
    }

    private void withStateThread(long batchWindowMillis) {
        passes = new SchedulingPasses(store, controller, Optional.of((task, delayMillis) -> {
            stateThreadTasks.add(task);
            taskDelays.add(delayMillis);
        }), batchWindowMillis, DispatchPort.NONE);
    }

    /** {@code count} ClusterQueues of 2 cpu, each fed by its own namespace's LocalQueue holding two 1-cpu workloads. */
    private void queuesWithTwoWorkloadsEach(int count) {
        for (int q = 0; q < count; q++) {
            controller.applyClusterQueue(clusterQueue("q" + q).group(flavor("default", quota("cpu", "2"))).build());
            controller.applyLocalQueue(localQueue("ns" + q, "lq", "q" + q));
            submit("ns" + q, "w0", 0);
            submit("ns" + q, "w1", 1);
        }
    }

    private void submit(String namespace, String name, long createdAt) {
        controller.submit(Fixtures.workload(namespace, name).queue("lq").createdAt(createdAt).request("cpu", "1").build(), true, null);
    }

    private long admitted() {
        long count = 0;
        for (Map.Entry<WorkloadKey, WorkloadStatus> entry : sink.workloads.entrySet()) {
            if (entry.getValue().isTrue(Conditions.ADMITTED)) count++;
        }
        return count;
    }
}
