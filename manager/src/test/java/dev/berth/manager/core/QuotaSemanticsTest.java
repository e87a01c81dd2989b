package dev.berth.manager.core;

import static dev.berth.manager.core.Scenario.find;
import static dev.berth.manager.core.Scenario.row;
import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.cohort;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.Scenario.Row;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Kueue's quota: nominal quota, borrowing and lending limits on ClusterQueues and Cohorts, hierarchical cohorts. */
class QuotaSemanticsTest {
    private static final String GPU = "nvidia.com/gpu";

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void behavesLikeKueue(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("nominal quota admits up to the quota and no further", s -> {
                    s.flavors("a100").cq(clusterQueue("team").group(flavor("a100", quota(GPU, "4"))));
                    s.run(s.w("team", "first").request(GPU, "3"));
                    s.run(s.w("team", "second").request(GPU, "1"));
                    s.run(s.w("team", "third").request(GPU, "1"));
                    assertThat(s.admitted("team/first")).isTrue();
                    assertThat(s.admitted("team/second")).isTrue();
                    assertThat(s.reserved("team/third")).isFalse();
                    assertThat(s.usage("team", "a100/" + GPU)).isEqualTo(4);
                    QueueStatus status = s.queueStatus("team");
                    assertThat(status.pendingWorkloads()).isEqualTo(1);
                    assertThat(status.reservingWorkloads()).isEqualTo(2);
                    assertThat(status.admittedWorkloads()).isEqualTo(2);
                    assertThat(find(status.flavorsReservation(), "a100", GPU).total()).isEqualTo(4);
                    assertThat(find(status.flavorsUsage(), "a100", GPU).total()).isEqualTo(4);
                    assertThat(find(status.flavorsUsage(), "a100", GPU).borrowed()).isZero();
                }),
                row("Kueue's exact pending message when quota is in use", s -> {
                    s.flavors("a100").cq(clusterQueue("team").group(flavor("a100", quota(GPU, "4"))));
                    s.run(s.w("team", "first").request(GPU, "2"));
                    s.run(s.w("team", "second").request(GPU, "4"));
                    assertThat(s.pendingMessage("team/second")).isEqualTo(
                            "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100, 2 more needed");
                }),
                row("a request above everything the queue could ever get: request > maximum capacity", s -> {
                    s.flavors("a100").cq(clusterQueue("team").group(flavor("a100", quota(GPU, "4"))));
                    s.run(s.w("team", "huge").request(GPU, "6"));
                    assertThat(s.pendingMessage("team/huge")).isEqualTo(
                            "couldn't assign flavors to pod set main: insufficient quota for nvidia.com/gpu in flavor a100, request > maximum capacity (6 > 4)");
                }),
                row("a ClusterQueue without a cohort cannot borrow from an idle queue", s -> {
                    s.flavors("a100").cq(clusterQueue("team").group(flavor("a100", quota(GPU, "4"))))
                            .cq(clusterQueue("idle").group(flavor("a100", quota(GPU, "8"))));
                    s.run(s.w("team", "w").request(GPU, "5"));
                    assertThat(s.pendingMessage("team/w")).contains("request > maximum capacity (5 > 4)");
                }),
                row("a ClusterQueue in a cohort borrows unused quota and reports it as borrowed", s -> {
                    s.flavors("a100").cq(clusterQueue("team").cohort("pool").group(flavor("a100", quota(GPU, "4"))))
                            .cq(clusterQueue("idle").cohort("pool").group(flavor("a100", quota(GPU, "8"))));
                    s.run(s.w("team", "w").request(GPU, "10"));
                    assertThat(s.admitted("team/w")).isTrue();
                    FlavorUsage.ResourceUsage reserved = find(s.queueStatus("team").flavorsReservation(), "a100", GPU);
                    assertThat(reserved.total()).isEqualTo(10);
                    assertThat(reserved.borrowed()).isEqualTo(6);
                    assertThat(find(s.queueStatus("team").flavorsUsage(), "a100", GPU).borrowed()).isEqualTo(6);
                }),
                row("borrowingLimit caps what a ClusterQueue takes from its cohort", s -> {
                    s.flavors("a100").cq(clusterQueue("team").cohort("pool").group(flavor("a100", quota(GPU, "4", "2", null))))
                            .cq(clusterQueue("idle").cohort("pool").group(flavor("a100", quota(GPU, "8"))));
                    s.run(s.w("team", "too-much").request(GPU, "7"));
                    assertThat(s.pendingMessage("team/too-much")).contains("request > maximum capacity (7 > 6)");
                    s.run(s.w("team", "at-limit").request(GPU, "6"));
                    assertThat(s.admitted("team/at-limit")).isTrue();
                    s.run(s.w("team", "one-more").request(GPU, "1"));
                    assertThat(s.pendingMessage("team/one-more")).contains("insufficient unused quota for nvidia.com/gpu in flavor a100, 1 more needed");
                }),
                row("lendingLimit caps what a ClusterQueue lends to its cohort", s -> {
                    s.flavors("a100").cq(clusterQueue("team").cohort("pool").group(flavor("a100", quota(GPU, "2"))))
                            .cq(clusterQueue("lender").cohort("pool").group(flavor("a100", quota(GPU, "10", null, "3"))));
                    s.run(s.w("team", "too-much").request(GPU, "6"));
                    assertThat(s.pendingMessage("team/too-much")).contains("request > maximum capacity (6 > 5)");
                    s.run(s.w("team", "fits").request(GPU, "5"));
                    assertThat(s.admitted("team/fits")).isTrue();
                    s.run(s.w("lender", "own").request(GPU, "7"));
                    assertThat(s.admitted("lender/own")).isTrue();
                }),
                row("the guaranteed part of a lending queue stays free for it", s -> {
                    s.flavors("a100").cq(clusterQueue("team").cohort("pool").group(flavor("a100", quota(GPU, "0"))))
                            .cq(clusterQueue("lender").cohort("pool").group(flavor("a100", quota(GPU, "4", null, "1"))));
                    s.run(s.w("team", "a").request(GPU, "1"));
                    s.run(s.w("team", "b").request(GPU, "1"));
                    assertThat(s.admitted("team/a")).isTrue();
                    assertThat(s.reserved("team/b")).isFalse();
                    s.run(s.w("lender", "own").request(GPU, "3"));
                    assertThat(s.admitted("lender/own")).isTrue();
                }),
                row("a Cohort's own quota is shared by its ClusterQueues", s -> {
                    s.flavors("a100").cohort(cohort("pool", null, flavor("a100", quota(GPU, "4"))))
                            .cq(clusterQueue("team").cohort("pool").group(flavor("a100", quota(GPU, "0"))));
                    s.run(s.w("team", "w").request(GPU, "4"));
                    assertThat(s.admitted("team/w")).isTrue();
                    assertThat(find(s.queueStatus("team").flavorsReservation(), "a100", GPU).borrowed()).isEqualTo(4);
                }),
                row("hierarchical cohorts: borrowing crosses levels to a sibling subtree", s -> {
                    s.flavors("a100").cohort(cohort("org", null)).cohort(cohort("research", "org")).cohort(cohort("prod", "org"))
                            .cq(clusterQueue("team").cohort("research").group(flavor("a100", quota(GPU, "2"))))
                            .cq(clusterQueue("serving").cohort("prod").group(flavor("a100", quota(GPU, "6"))));
                    s.run(s.w("team", "w").request(GPU, "8"));
                    assertThat(s.admitted("team/w")).isTrue();
                    s.run(s.w("serving", "w").request(GPU, "1"));
                    assertThat(s.reserved("serving/w")).isFalse();
                }),
                row("a Cohort's borrowingLimit caps what its subtree takes from the parent", s -> {
                    s.flavors("a100").cohort(cohort("org", null))
                            .cohort(cohort("research", "org", flavor("a100", quota(GPU, "0", "1", null))))
                            .cohort(cohort("prod", "org"))
                            .cq(clusterQueue("team").cohort("research").group(flavor("a100", quota(GPU, "2"))))
                            .cq(clusterQueue("serving").cohort("prod").group(flavor("a100", quota(GPU, "6"))));
                    s.run(s.w("team", "w").request(GPU, "4"));
                    assertThat(s.pendingMessage("team/w")).contains("request > maximum capacity (4 > 3)");
                    s.run(s.w("team", "fits").request(GPU, "3"));
                    assertThat(s.admitted("team/fits")).isTrue();
                }),
                row("a Cohort's lendingLimit caps what its subtree lends to the parent", s -> {
                    s.flavors("a100").cohort(cohort("org", null))
                            .cohort(cohort("research", "org"))
                            .cohort(cohort("prod", "org", flavor("a100", quota(GPU, "0", null, "2"))))
                            .cq(clusterQueue("team").cohort("research").group(flavor("a100", quota(GPU, "1"))))
                            .cq(clusterQueue("serving").cohort("prod").group(flavor("a100", quota(GPU, "6"))));
                    s.run(s.w("team", "w").request(GPU, "4"));
                    assertThat(s.pendingMessage("team/w")).contains("request > maximum capacity (4 > 3)");
                    s.run(s.w("team", "fits").request(GPU, "3"));
                    assertThat(s.admitted("team/fits")).isTrue();
                }),
                row("finishing a workload releases its quota", s -> {
                    s.flavors("a100").cq(clusterQueue("team").group(flavor("a100", quota(GPU, "4"))));
                    s.run(s.w("team", "w").request(GPU, "4"));
                    s.finish("team/w").schedule();
                    assertThat(s.usage("team", "a100/" + GPU)).isZero();
                    assertThat(find(s.queueStatus("team").flavorsReservation(), "a100", GPU).total()).isZero();
                    assertThat(s.queueStatus("team").admittedWorkloads()).isZero();
                }));
    }
}
