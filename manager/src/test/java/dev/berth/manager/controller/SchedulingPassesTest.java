package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.testing.ForwardingStore;
import dev.berth.manager.testing.MutableClock;
import dev.berth.manager.testing.RecordingSink;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The pass runner sequences admission and dispatch: a scheduling slice, then dispatch's rounds with a slice
 * after each, all in the pass's one journal group; dispatch hears of changes only once the root registered it.
 */
class SchedulingPassesTest {
    private final List<String> happened = new ArrayList<>();
    /** Records every journal group: the pass's own, and one per scheduling slice inside it. */
    private final ForwardingStore store = new ForwardingStore(new MemoryObjectStore()) {
        @Override
        public <T> T inOneSync(Supplier<T> work) {
            happened.add("sync");
            return super.inOneSync(work);
        }
    };
    private final AdmissionController controller = new AdmissionController(new MutableClock(Instant.parse("2026-01-01T00:00:00Z")),
            SchedulerOptions.DEFAULTS, new RecordingSink());

    @Test
    void aPassRunsItsSliceThenDispatchRoundsEachFollowedByASlice() {
        SchedulingPasses passes = new SchedulingPasses(store, controller, Optional.empty(), 0, dispatchWithRounds(2));

        passes.reschedule();

        assertThat(happened).containsExactly("sync", "sync", "start", "round", "sync", "round", "sync", "no round");
    }

    @Test
    void dispatchRunsAtMostTenRoundsPerReconcile() {
        SchedulingPasses passes = new SchedulingPasses(store, controller, Optional.empty(), 0, dispatchWithRounds(Integer.MAX_VALUE));

        passes.reschedule();

        assertThat(Collections.frequency(happened, "round")).isEqualTo(SchedulingPasses.DISPATCH_ROUNDS);
        assertThat(happened.get(happened.size() - 1)).as("the last round is followed by its slice").isEqualTo("sync");
    }

    @Test
    void dispatchThatCannotActYetRunsNoRoundAndNoSlice() {
        SchedulingPasses passes = SchedulingPasses.inline(store, controller);

        passes.reschedule();

        assertThat(happened).as("the pass's group and its one slice").containsExactly("sync", "sync");
    }

    @Test
    void aLinkTellsNothingUntilTheDispatcherIsRegisteredThenTellsIt() {
        DispatchLink link = new DispatchLink();
        link.workloadChanged(WorkloadKey.of("ns", "before"));
        assertThat(link.roundsStart()).isFalse();

        List<WorkloadKey> told = new ArrayList<>();
        link.register(new DispatchPort() {
            @Override
            public void workloadChanged(WorkloadKey key) {
                told.add(key);
            }

            @Override
            public boolean roundsStart() {
                return true;
            }

            @Override
            public boolean round() {
                return false;
            }

            @Override
            public boolean hasRunningCopy(WorkloadKey key) {
                return key.name().equals("running");
            }
        });
        link.workloadChanged(WorkloadKey.of("ns", "after"));

        assertThat(told).containsExactly(WorkloadKey.of("ns", "after"));
        assertThat(link.roundsStart()).isTrue();
        assertThat(link.hasRunningCopy(WorkloadKey.of("ns", "running"))).isTrue();
        assertThat(link.hasRunningCopy(WorkloadKey.of("ns", "after"))).isFalse();
        assertThatThrownBy(() -> link.register(DispatchPort.NONE)).isInstanceOf(IllegalStateException.class);
    }

    /** A dispatcher with this many rounds of ready workloads. */
    private DispatchPort dispatchWithRounds(int rounds) {
        return new DispatchPort() {
            private int left = rounds;

            @Override
            public void workloadChanged(WorkloadKey key) {
            }

            @Override
            public boolean roundsStart() {
                happened.add("start");
                return true;
            }

            @Override
            public boolean round() {
                if (left == 0) {
                    happened.add("no round");
                    return false;
                }
                left--;
                happened.add("round");
                return true;
            }

            @Override
            public boolean hasRunningCopy(WorkloadKey key) {
                return false;
            }
        };
    }
}
