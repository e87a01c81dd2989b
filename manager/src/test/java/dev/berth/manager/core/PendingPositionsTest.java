package dev.berth.manager.core;

import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.localQueue;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.explain.PendingWorkloads;
import dev.berth.manager.model.QueueingStrategy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The positions the visibility API reports are the order in which the scheduler admits: with room
 * for one workload at a time, each finish admits exactly the workload at position 0.
 */
class PendingPositionsTest {
    private static final String GPU = "nvidia.com/gpu";

    @ParameterizedTest
    @EnumSource(QueueingStrategy.class)
    void positionsFollowTheSchedulersOrder(QueueingStrategy strategy) {
        Scenario s = new Scenario();
        s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "1"))).strategy(strategy));
        s.controller.applyLocalQueue(localQueue("team-a", "other", "team-a"));
        s.run(s.w("team-a", "running").request(GPU, "1"));
        s.submit(s.w("team-a", "low-old").priority(1).request(GPU, "1"));
        s.submit(s.w("team-a", "high-new").priority(10).queue("other").request(GPU, "1"));
        s.submit(s.w("team-a", "low-new").priority(1).request(GPU, "1"));
        s.submit(s.w("team-a", "high-newer").priority(10).request(GPU, "1"));
        s.schedule();

        List<PendingWorkloads.Item> items = PendingWorkloads.page(s.controller.pendingWorkloads("team-a").orElseThrow(),
                null, null, 0, 100);
        assertThat(items).extracting(PendingWorkloads.Item::name).containsExactly("high-new", "high-newer", "low-old", "low-new");
        assertThat(items).extracting(PendingWorkloads.Item::positionInClusterQueue).containsExactly(0, 1, 2, 3);
        assertThat(items).extracting(PendingWorkloads.Item::positionInLocalQueue).containsExactly(0, 0, 1, 2);
        assertThat(items.get(0).pendingReason()).contains("insufficient unused quota");

        List<String> admittedInOrder = new ArrayList<>();
        String running = "running";
        for (int i = 0; i < 4; i++) {
            String expectedNext = PendingWorkloads.page(s.controller.pendingWorkloads("team-a").orElseThrow(), null, null, 0, 1)
                    .get(0).name();
            s.finish("team-a/" + running);
            s.schedule();
            running = expectedNext;
            assertThat(s.reserved("team-a/" + expectedNext)).as("position 0 is admitted next").isTrue();
            admittedInOrder.add(expectedNext);
        }
        assertThat(admittedInOrder).containsExactly("high-new", "high-newer", "low-old", "low-new");
    }

    @ParameterizedTest
    @EnumSource(QueueingStrategy.class)
    void aLocalQueuePageKeepsClusterQueuePositions(QueueingStrategy strategy) {
        Scenario s = new Scenario();
        s.flavors("a100").cq(clusterQueue("team-a").group(flavor("a100", quota(GPU, "1"))).strategy(strategy));
        s.controller.applyLocalQueue(localQueue("team-a", "other", "team-a"));
        s.run(s.w("team-a", "running").request(GPU, "1"));
        for (int i = 0; i < 5; i++) s.submit(s.w("team-a", "w" + i).queue(i % 2 == 0 ? "lq" : "other").request(GPU, "1"));
        s.schedule();

        List<PendingWorkloads.Item> page = PendingWorkloads.page(s.controller.pendingWorkloads("team-a").orElseThrow(),
                "team-a", "lq", 1, 1);
        assertThat(page).singleElement().satisfies(item -> {
            assertThat(item.name()).isEqualTo("w2");
            assertThat(item.positionInClusterQueue()).isEqualTo(2);
            assertThat(item.positionInLocalQueue()).isEqualTo(1);
        });
    }
}
