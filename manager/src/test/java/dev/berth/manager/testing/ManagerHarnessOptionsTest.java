package dev.berth.manager.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The harness options the migrated tests rely on: a start left to the test, configuration applied to every manager it
 * builds (the first and each restart's), a manager built by the test's factory over the harness's store and clock, and
 * a given store that outlives a restart.
 */
class ManagerHarnessOptionsTest {
    private final AtomicInteger configured = new AtomicInteger();
    private final List<ObjectStore> builtOver = new ArrayList<>();
    private final MemoryObjectStore store = new MemoryObjectStore();

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().store(store).startedByTheTest()
            .builtBy((given, clock) -> {
                builtOver.add(given);
                return new BerthManager(given, clock, SchedulerOptions.DEFAULTS);
            })
            .configure(manager -> configured.incrementAndGet());

    @Test
    void nothingRunsUntilTheTestStartsIt() throws Exception {
        assertThatThrownBy(harness::manager).isInstanceOf(IllegalStateException.class);
        harness.start();
        assertThat(harness.client().isReady()).isTrue();
    }

    @Test
    void everyManagerIsBuiltByTheFactoryOverTheGivenStoreAndConfigured() throws Exception {
        harness.clock(Clock.systemUTC()).start();
        harness.client().create(KueueObjects.resourceFlavor("kept"));
        int port = harness.port();

        harness.restart();

        assertThat(builtOver).containsExactly(store, store);
        assertThat(configured).hasValue(2);
        assertThat(harness.port()).isEqualTo(port);
        assertThat(harness.client().get(ManagerClient.KUEUE + "/resourceflavors/kept")).isNotNull();
    }
}
