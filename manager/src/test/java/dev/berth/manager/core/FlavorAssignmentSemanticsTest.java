package dev.berth.manager.core;

import static dev.berth.manager.core.Scenario.row;
import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.Scenario.Row;
import dev.berth.manager.model.FlavorFungibility;
import dev.berth.manager.model.FlavorFungibility.Policy;
import dev.berth.manager.model.FlavorFungibility.Preference;
import dev.berth.manager.model.Preemption;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.Taint;
import dev.berth.manager.testing.Fixtures;
import dev.berth.manager.model.Toleration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Kueue's flavor assignment: resource groups, flavor order, node affinity, taints, the pods resource and flavorFungibility. */
class FlavorAssignmentSemanticsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void behavesLikeKueue(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("flavors of a resource group are tried in order: the first with room wins", s -> {
                    s.flavors("on-demand", "spot").cq(clusterQueue("team")
                            .group(flavor("on-demand", quota("cpu", "2")), flavor("spot", quota("cpu", "4"))));
                    s.run(s.w("team", "first").request("cpu", "2"));
                    s.run(s.w("team", "second").request("cpu", "2"));
                    assertThat(s.flavorOf("team/first", "cpu")).isEqualTo("on-demand");
                    assertThat(s.flavorOf("team/second", "cpu")).isEqualTo("spot");
                    assertThat(s.usage("team")).containsEntry("on-demand/cpu", 2000L).containsEntry("spot/cpu", 2000L);
                }),
                row("resources covered by one group share the flavor that fits all of them", s -> {
                    s.flavors("small", "large").cq(clusterQueue("team").group(
                            flavor("small", quota("cpu", "4"), quota("memory", "1Gi")),
                            flavor("large", quota("cpu", "4"), quota("memory", "8Gi"))));
                    s.run(s.w("team", "w").request("cpu", "1").request("memory", "2Gi"));
                    assertThat(s.flavorOf("team/w", "cpu")).isEqualTo("large");
                    assertThat(s.flavorOf("team/w", "memory")).isEqualTo("large");
                }),
                row("each resource group picks its own flavor", s -> {
                    s.flavors("cpu-nodes", "a100").cq(clusterQueue("team")
                            .group(flavor("cpu-nodes", quota("cpu", "8")))
                            .group(flavor("a100", quota("nvidia.com/gpu", "4"))));
                    s.run(s.w("team", "w").request("cpu", "1").request("nvidia.com/gpu", "1"));
                    assertThat(s.flavorOf("team/w", "cpu")).isEqualTo("cpu-nodes");
                    assertThat(s.flavorOf("team/w", "nvidia.com/gpu")).isEqualTo("a100");
                    assertThat(s.status("team/w").admission().podSetAssignments().get(0).resourceUsage())
                            .isEqualTo(Map.of("cpu", 1000L, "nvidia.com/gpu", 1L));
                }),
                row("a flavor whose node labels contradict the nodeSelector is skipped", s -> {
                    s.flavor(new ResourceFlavor("arm", Map.of("kubernetes.io/arch", "arm64"), List.of(), List.of()))
                            .flavor(new ResourceFlavor("x86", Map.of("kubernetes.io/arch", "amd64"), List.of(), List.of()))
                            .cq(clusterQueue("team").group(flavor("arm", quota("cpu", "4")), flavor("x86", quota("cpu", "4"))));
                    s.run(s.w("team", "w").request("cpu", "1").nodeSelector("kubernetes.io/arch", "amd64"));
                    assertThat(s.flavorOf("team/w", "cpu")).isEqualTo("x86");
                }),
                row("a nodeSelector key the flavor does not define does not rule the flavor out", s -> {
                    s.flavor(new ResourceFlavor("arm", Map.of("kubernetes.io/arch", "arm64"), List.of(), List.of()))
                            .cq(clusterQueue("team").group(flavor("arm", quota("cpu", "4"))));
                    s.run(s.w("team", "w").request("cpu", "1").nodeSelector("zone", "eu-1"));
                    assertThat(s.flavorOf("team/w", "cpu")).isEqualTo("arm");
                }),
                row("no flavor matching node affinity: pending with \"flavor X doesn't match node affinity\"", s -> {
                    s.flavor(new ResourceFlavor("arm", Map.of("kubernetes.io/arch", "arm64"), List.of(), List.of()))
                            .cq(clusterQueue("team").group(flavor("arm", quota("cpu", "4"))));
                    s.run(s.w("team", "w").request("cpu", "1").requiredNodeAffinity("kubernetes.io/arch", "In", "amd64"));
                    assertThat(s.reserved("team/w")).isFalse();
                    assertThat(s.pendingMessage("team/w"))
                            .isEqualTo("couldn't assign flavors to pod set main: flavor arm doesn't match node affinity");
                }),
                row("required node affinity selects the matching flavor", s -> {
                    s.flavor(new ResourceFlavor("arm", Map.of("kubernetes.io/arch", "arm64"), List.of(), List.of()))
                            .flavor(new ResourceFlavor("x86", Map.of("kubernetes.io/arch", "amd64"), List.of(), List.of()))
                            .cq(clusterQueue("team").group(flavor("arm", quota("cpu", "4")), flavor("x86", quota("cpu", "4"))));
                    s.run(s.w("team", "w").request("cpu", "1").requiredNodeAffinity("kubernetes.io/arch", "In", "amd64"));
                    assertThat(s.flavorOf("team/w", "cpu")).isEqualTo("x86");
                }),
                row("an untolerated taint skips the flavor", s -> {
                    s.flavor(new ResourceFlavor("spot", Map.of(), List.of(new Taint("spot", "true", "NoSchedule")), List.of()))
                            .flavors("on-demand")
                            .cq(clusterQueue("team").group(flavor("spot", quota("cpu", "4")), flavor("on-demand", quota("cpu", "4"))));
                    s.run(s.w("team", "w").request("cpu", "1"));
                    assertThat(s.flavorOf("team/w", "cpu")).isEqualTo("on-demand");
                }),
                row("only tainted flavors: pending, naming the untolerated taint and the flavor", s -> {
                    s.flavor(new ResourceFlavor("spot", Map.of(), List.of(new Taint("spot", "true", "NoSchedule")), List.of()))
                            .cq(clusterQueue("team").group(flavor("spot", quota("cpu", "4"))));
                    s.run(s.w("team", "w").request("cpu", "1"));
                    assertThat(s.reserved("team/w")).isFalse();
                    assertThat(s.pendingMessage("team/w")).startsWith("couldn't assign flavors to pod set main: untolerated taint")
                            .contains("spot").endsWith("in flavor spot");
                }),
                row("the pod's toleration allows a tainted flavor", s -> {
                    s.flavor(new ResourceFlavor("spot", Map.of(), List.of(new Taint("spot", "true", "NoSchedule")), List.of()))
                            .flavors("on-demand")
                            .cq(clusterQueue("team").group(flavor("spot", quota("cpu", "4")), flavor("on-demand", quota("cpu", "4"))));
                    s.run(s.w("team", "w").request("cpu", "1").toleration("spot", "Equal", "true", "NoSchedule"));
                    assertThat(s.flavorOf("team/w", "cpu")).isEqualTo("spot");
                }),
                row("the flavor's own tolerations allow its taints", s -> {
                    s.flavor(new ResourceFlavor("spot", Map.of(), List.of(new Taint("spot", "true", "NoSchedule")),
                                    List.of(new Toleration("spot", "Exists", null, "NoSchedule"))))
                            .cq(clusterQueue("team").group(flavor("spot", quota("cpu", "4"))));
                    s.run(s.w("team", "w").request("cpu", "1"));
                    assertThat(s.flavorOf("team/w", "cpu")).isEqualTo("spot");
                }),
                row("a resource no group covers: \"resource X unavailable in ClusterQueue\"", s -> {
                    s.flavors("default").cq(clusterQueue("team").group(flavor("default", quota("cpu", "4"))));
                    s.run(s.w("team", "w").request("cpu", "1").request("example.com/fpga", "1"));
                    assertThat(s.reserved("team/w")).isFalse();
                    assertThat(s.pendingMessage("team/w"))
                            .isEqualTo("couldn't assign flavors to pod set main: resource example.com/fpga unavailable in ClusterQueue");
                }),
                row("the implicit pods resource is counted when the queue covers pods", s -> {
                    s.flavors("default").cq(clusterQueue("team").group(flavor("default", quota("cpu", "10"), quota("pods", "5"))));
                    s.run(s.w("team", "w").request("cpu", "1").count(3));
                    assertThat(s.status("team/w").admission().podSetAssignments().get(0).resourceUsage())
                            .isEqualTo(Map.of("cpu", 3000L, "pods", 3L));
                    assertThat(s.usage("team", "default/pods")).isEqualTo(3);
                    s.run(s.w("team", "too-many-pods").request("cpu", "1").count(3));
                    assertThat(s.pendingMessage("team/too-many-pods"))
                            .isEqualTo("couldn't assign flavors to pod set main: insufficient unused quota for pods in flavor default, 1 more needed");
                }),
                row("pods are not counted when the queue does not cover them", s -> {
                    s.flavors("default").cq(clusterQueue("team").group(flavor("default", quota("cpu", "10"))));
                    s.run(s.w("team", "w").request("cpu", "1").count(3));
                    assertThat(s.status("team/w").admission().podSetAssignments().get(0).resourceUsage())
                            .isEqualTo(Map.of("cpu", 3000L));
                }),
                row("whenCanBorrow MayStopSearch: the first flavor is used even if it borrows", s -> {
                    borrowingSetup(s, new FlavorFungibility(Policy.MAY_STOP_SEARCH, Policy.TRY_NEXT_FLAVOR, null));
                    s.run(s.w("team", "w").request("cpu", "4"));
                    assertThat(s.flavorOf("team/w", "cpu")).isEqualTo("first");
                    assertThat(Scenario.find(s.queueStatus("team").flavorsReservation(), "first", "cpu").borrowed()).isEqualTo(2000);
                }),
                row("whenCanBorrow TryNextFlavor: a later flavor that fits without borrowing wins", s -> {
                    borrowingSetup(s, new FlavorFungibility(Policy.TRY_NEXT_FLAVOR, Policy.TRY_NEXT_FLAVOR, null));
                    s.run(s.w("team", "w").request("cpu", "4"));
                    assertThat(s.flavorOf("team/w", "cpu")).isEqualTo("second");
                }),
                row("whenCanPreempt TryNextFlavor: a later flavor with room wins over preempting", s -> {
                    preemptionSetup(s, new FlavorFungibility(Policy.MAY_STOP_SEARCH, Policy.TRY_NEXT_FLAVOR, null));
                    s.run(s.w("team", "high").priority(10).request("cpu", "2"));
                    assertThat(s.flavorOf("team/high", "cpu")).isEqualTo("second");
                    assertThat(s.admitted("team/low")).isTrue();
                }),
                row("whenCanPreempt MayStopSearch: the first flavor is kept and its workloads preempted", s -> {
                    preemptionSetup(s, new FlavorFungibility(Policy.MAY_STOP_SEARCH, Policy.MAY_STOP_SEARCH, null));
                    s.run(s.w("team", "high").priority(10).request("cpu", "2"));
                    assertThat(s.evicted("team/low") || s.flavorOf("team/low", "cpu").equals("second")).isTrue();
                    assertThat(s.preemptedFor("team/low")).isEqualTo("InClusterQueue");
                    assertThat(s.flavorOf("team/high", "cpu")).isEqualTo("first");
                }),
                row("preference BorrowingOverPreemption: borrow in the second flavor rather than preempt in the first", s -> {
                    preferenceSetup(s, Preference.BORROWING_OVER_PREEMPTION);
                    s.run(s.w("team", "high").priority(10).request("cpu", "2"));
                    assertThat(s.flavorOf("team/high", "cpu")).isEqualTo("second");
                    assertThat(s.admitted("team/low")).isTrue();
                }),
                row("preference PreemptionOverBorrowing: preempt in the first flavor rather than borrow", s -> {
                    preferenceSetup(s, Preference.PREEMPTION_OVER_BORROWING);
                    s.run(s.w("team", "high").priority(10).request("cpu", "2"));
                    assertThat(s.preemptedFor("team/low")).isEqualTo("InClusterQueue");
                    assertThat(s.flavorOf("team/high", "cpu")).isEqualTo("first");
                }),
                row("whenCanPreempt MayStopSearch: a flavor with no one to preempt does not end the search", s -> {
                    preemptionSetup(s, new FlavorFungibility(Policy.MAY_STOP_SEARCH, Policy.MAY_STOP_SEARCH, null));
                    s.run(s.w("team", "lowest").priority(-5).request("cpu", "2"));
                    assertThat(s.flavorOf("team/lowest", "cpu")).isEqualTo("second");
                    assertThat(s.admitted("team/low")).isTrue();
                }),
                row("preference PreemptionOverBorrowing: borrow when the flavor without borrowing has no one to preempt", s -> {
                    preferenceSetup(s, Preference.PREEMPTION_OVER_BORROWING);
                    s.run(s.w("team", "lowest").priority(-5).request("cpu", "2"));
                    assertThat(s.flavorOf("team/lowest", "cpu")).isEqualTo("second");
                    assertThat(s.admitted("team/low")).isTrue();
                }),
                row("a workload just preempted comes back on its fallback flavor (whenCanPreempt MayStopSearch)", s -> {
                    preemptionSetup(s, new FlavorFungibility(Policy.MAY_STOP_SEARCH, Policy.MAY_STOP_SEARCH, null));
                    s.run(s.w("team", "high").priority(10).request("cpu", "2"));
                    s.schedule();
                    s.schedule();
                    assertThat(s.flavorOf("team/high", "cpu")).isEqualTo("first");
                    assertThat(s.preemptedFor("team/low")).isEqualTo("InClusterQueue");
                    assertThat(s.reserved("team/low")).isTrue();
                    assertThat(s.flavorOf("team/low", "cpu")).isEqualTo("second");
                }),
                row("a workload just preempted comes back on its fallback flavor (borrowWithinCohort maxPriorityThreshold)", s -> {
                    s.flavors("first", "second")
                            .cq(clusterQueue("team").cohort("pool")
                                    .fungibility(new FlavorFungibility(Policy.MAY_STOP_SEARCH, Policy.MAY_STOP_SEARCH, null))
                                    .preemption(new Preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.LOWER_PRIORITY,
                                            PreemptionPolicy.LOWER_PRIORITY, 5))
                                    .group(flavor("first", quota("cpu", "0")), flavor("second", quota("cpu", "2"))))
                            .cq(clusterQueue("lender").cohort("pool").group(flavor("first", quota("cpu", "2"))));
                    s.run(s.w("team", "low").priority(0).request("cpu", "2"));
                    assertThat(s.flavorOf("team/low", "cpu")).isEqualTo("first");
                    s.run(s.w("team", "high").priority(10).request("cpu", "2"));
                    s.schedule();
                    s.schedule();
                    assertThat(s.flavorOf("team/high", "cpu")).isEqualTo("first");
                    assertThat(s.preemptedFor("team/low")).isEqualTo("InClusterQueue");
                    assertThat(s.reserved("team/low")).isTrue();
                    assertThat(s.flavorOf("team/low", "cpu")).isEqualTo("second");
                }),
                row("every flavor needs preemption: reclaiming lent quota wins over preempting in the own queue", s -> {
                    s.flavors("first", "second")
                            .cq(clusterQueue("team").cohort("pool")
                                    .preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.ANY)
                                    .group(flavor("first", quota("cpu", "2")), flavor("second", quota("cpu", "2"))))
                            .cq(clusterQueue("other").cohort("pool").group(flavor("second", quota("cpu", "0"))));
                    s.run(s.w("team", "low").priority(0).request("cpu", "2"));
                    s.run(s.w("other", "borrower").priority(0).request("cpu", "2"));
                    assertThat(s.flavorOf("team/low", "cpu")).isEqualTo("first");
                    assertThat(s.flavorOf("other/borrower", "cpu")).isEqualTo("second");
                    s.run(s.w("team", "high").priority(10).request("cpu", "2"));
                    s.schedule();
                    assertThat(s.preemptedFor("other/borrower")).isEqualTo("InCohortReclamation");
                    assertThat(s.admitted("team/low")).isTrue();
                    assertThat(s.flavorOf("team/high", "cpu")).isEqualTo("second");
                }),
                row("hierarchical cohorts, every flavor borrows (whenCanBorrow TryNextFlavor): the flavor lent by the nearer cohort wins", s -> {
                    distanceSetup(s, new FlavorFungibility(Policy.TRY_NEXT_FLAVOR, Policy.TRY_NEXT_FLAVOR, null), "far", "near");
                    s.run(s.w("team", "w").request("cpu", "2"));
                    assertThat(s.flavorOf("team/w", "cpu")).isEqualTo("near");
                    assertThat(s.usage("team", "near/cpu")).isEqualTo(2000);
                }),
                row("hierarchical cohorts, whenCanBorrow MayStopSearch: the first flavor that borrows is kept however far it borrows", s -> {
                    distanceSetup(s, FlavorFungibility.DEFAULT, "far", "near");
                    s.run(s.w("team", "w").request("cpu", "2"));
                    assertThat(s.flavorOf("team/w", "cpu")).isEqualTo("far");
                }),
                row("hierarchical cohorts, PreemptionOverBorrowing: preempting to borrow nearer wins over fitting by borrowing farther", s -> {
                    distanceSetup(s, new FlavorFungibility(Policy.TRY_NEXT_FLAVOR, Policy.TRY_NEXT_FLAVOR, Preference.PREEMPTION_OVER_BORROWING),
                            "near", "far");
                    s.run(s.w("team", "low").priority(0).request("cpu", "2"));
                    assertThat(s.flavorOf("team/low", "cpu")).isEqualTo("near");
                    s.run(s.w("team", "high").priority(10).request("cpu", "2"));
                    assertThat(s.preemptedFor("team/low")).isEqualTo("InClusterQueue");
                    assertThat(s.flavorOf("team/high", "cpu")).isEqualTo("near");
                }),
                row("hierarchical cohorts, BorrowingOverPreemption: fitting by borrowing farther wins over preempting to borrow nearer", s -> {
                    distanceSetup(s, new FlavorFungibility(Policy.TRY_NEXT_FLAVOR, Policy.TRY_NEXT_FLAVOR, Preference.BORROWING_OVER_PREEMPTION),
                            "near", "far");
                    s.run(s.w("team", "low").priority(0).request("cpu", "2"));
                    s.run(s.w("team", "high").priority(10).request("cpu", "2"));
                    assertThat(s.admitted("team/low")).isTrue();
                    assertThat(s.flavorOf("team/high", "cpu")).isEqualTo("far");
                }),
                row("pod sets of one workload accumulate usage on the same flavor", s -> {
                    s.flavors("x", "y").cq(clusterQueue("team").group(flavor("x", quota("cpu", "4")), flavor("y", quota("cpu", "10"))));
                    s.run(s.w("team", "w").request("cpu", "1").podSet("workers").request("cpu", "1").count(3));
                    assertThat(s.flavorOf("team/w", "main", "cpu")).isEqualTo("x");
                    assertThat(s.flavorOf("team/w", "workers", "cpu")).isEqualTo("x");
                    assertThat(s.usage("team", "x/cpu")).isEqualTo(4000);
                }),
                row("a later pod set moves on when the earlier pod sets filled the flavor", s -> {
                    s.flavors("x", "y").cq(clusterQueue("team").group(flavor("x", quota("cpu", "3")), flavor("y", quota("cpu", "10"))));
                    s.run(s.w("team", "w").request("cpu", "1").podSet("workers").request("cpu", "1").count(3));
                    assertThat(s.flavorOf("team/w", "main", "cpu")).isEqualTo("x");
                    assertThat(s.flavorOf("team/w", "workers", "cpu")).isEqualTo("y");
                    assertThat(s.usage("team")).containsEntry("x/cpu", 1000L).containsEntry("y/cpu", 3000L);
                }));
    }

    /** team: first (nominal 2) then second (nominal 4); a lender in the cohort has 4 of first. */
    private static void borrowingSetup(Scenario s, FlavorFungibility fungibility) {
        s.flavors("first", "second")
                .cq(clusterQueue("team").cohort("pool").fungibility(fungibility)
                        .group(flavor("first", quota("cpu", "2")), flavor("second", quota("cpu", "4"))))
                .cq(clusterQueue("lender").cohort("pool").group(flavor("first", quota("cpu", "4")), flavor("second", quota("cpu", "0"))));
    }

    /** team: first and second with 2 cpu each; a low-priority workload fills first. */
    private static void preemptionSetup(Scenario s, FlavorFungibility fungibility) {
        s.flavors("first", "second").cq(clusterQueue("team").fungibility(fungibility)
                .preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER)
                .group(flavor("first", quota("cpu", "2")), flavor("second", quota("cpu", "2"))));
        s.run(s.w("team", "low").priority(0).request("cpu", "2"));
    }

    /**
     * Hierarchical cohorts: root holds cohorts left and right. team (in left, nominal 0 of both flavors,
     * may preempt lower priority while borrowing) borrows "near" from near-lender in its own cohort
     * (borrowing level 1) and "far" from far-lender under right, through root (level 2). The flavors
     * are listed in the given order.
     */
    private static void distanceSetup(Scenario s, FlavorFungibility fungibility, String firstFlavor, String secondFlavor) {
        s.flavors("near", "far")
                .cohort(Fixtures.cohort("left", "root"))
                .cohort(Fixtures.cohort("right", "root"))
                .cq(clusterQueue("team").cohort("left").fungibility(fungibility)
                        .preemption(new Preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER, PreemptionPolicy.LOWER_PRIORITY, null))
                        .group(flavor(firstFlavor, quota("cpu", "0")), flavor(secondFlavor, quota("cpu", "0"))))
                .cq(clusterQueue("near-lender").cohort("left").group(flavor("near", quota("cpu", "2")), flavor("far", quota("cpu", "0"))))
                .cq(clusterQueue("far-lender").cohort("right").group(flavor("near", quota("cpu", "0")), flavor("far", quota("cpu", "2"))));
    }

    /** first needs preemption (low fills it), second needs borrowing (nominal 0, the lender has 4). */
    private static void preferenceSetup(Scenario s, Preference preference) {
        s.flavors("first", "second")
                .cq(clusterQueue("team").cohort("pool")
                        .fungibility(new FlavorFungibility(Policy.TRY_NEXT_FLAVOR, Policy.TRY_NEXT_FLAVOR, preference))
                        .preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER)
                        .group(flavor("first", quota("cpu", "2")), flavor("second", quota("cpu", "0"))))
                .cq(clusterQueue("lender").cohort("pool").group(flavor("first", quota("cpu", "0")), flavor("second", quota("cpu", "4"))));
        s.run(s.w("team", "low").priority(0).request("cpu", "2"));
    }
}
