package dev.berth.manager.core;

import static dev.berth.manager.core.Scenario.key;
import static dev.berth.manager.core.Scenario.row;
import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.Scenario.Row;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.StopPolicy;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 20, rule 4: an evicted workload whose copy runs on a worker cluster keeps its quota (Evicted=True,
 * QuotaReserved=True) until the copy is confirmed stopped, as Kueue's job reconciler unsets QuotaReserved
 * only once the evicted job is no longer active; the preemptor waits ("Pending the preemption") meanwhile.
 */
class RemoteCopyStopSemanticsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void behavesLikeKueue(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("a preempted workload whose copy runs remotely keeps its quota, Evicted and QuotaReserved both True", s -> {
                    Set<WorkloadKey> running = remotelyRunning(s);
                    preemption(s, running);
                    assertThat(s.evicted("team/low")).isTrue();
                    assertThat(s.condition("team/low", Conditions.EVICTED).reason()).isEqualTo("Preempted");
                    assertThat(s.condition("team/low", Conditions.PREEMPTED).reason()).isEqualTo("InClusterQueue");
                    assertThat(s.reserved("team/low")).isTrue();
                    assertThat(s.admitted("team/low")).isTrue();
                    assertThat(s.usage("team", "default/cpu")).isEqualTo(4000);
                }),
                row("the preemptor is not admitted while the preempted copy stops, and says it waits for the preemption", s -> {
                    preemption(s, remotelyRunning(s));
                    for (int i = 0; i < 3; i++) s.schedule();
                    assertThat(s.reserved("team/high")).isFalse();
                    assertThat(s.pendingMessage("team/high")).contains("Pending the preemption of 1 workload(s)");
                }),
                row("once the copy is confirmed stopped the quota is released, the victim requeued and the preemptor admitted", s -> {
                    Set<WorkloadKey> running = remotelyRunning(s);
                    preemption(s, running);
                    running.remove(key("team/low"));
                    s.controller.copyStopped(key("team/low"));
                    assertThat(s.reserved("team/low")).isFalse();
                    assertThat(s.condition("team/low", Conditions.REQUEUED).status()).isTrue();
                    s.schedule();
                    assertThat(s.admitted("team/high")).isTrue();
                    assertThat(s.reserved("team/low")).isFalse();
                }),
                row("a victim still stopping is evicted once: later cycles neither evict it again nor pick another victim", s -> {
                    preemption(s, remotelyRunning(s));
                    for (int i = 0; i < 3; i++) s.schedule();
                    assertThat(s.sink.preemptions.get(key("team/low"))).hasSize(1);
                    assertThat(s.condition("team/low", Conditions.EVICTED).reason()).isEqualTo("Preempted");
                }),
                row("the preemptor waiting for a stopping victim is parked, not offered again in every cycle of the pass", s -> {
                    preemption(s, remotelyRunning(s));
                    CycleReport report = s.schedule();
                    assertThat(report.cycles()).isLessThanOrEqualTo(2);
                    assertThat(report.preempted()).isZero();
                }),
                row("a workload with no remote copy is released at once, as before", s -> {
                    preemption(s, new HashSet<>());
                    assertThat(s.reserved("team/low")).isFalse();
                    assertThat(s.admitted("team/high")).isTrue();
                }),
                row("deactivating a workload whose copy runs keeps its quota until the copy stopped; then it is not requeued", s -> {
                    s.flavors("default").cq(clusterQueue("team").group(flavor("default", quota("cpu", "4"))));
                    Set<WorkloadKey> running = remotelyRunning(s);
                    s.run(s.w("team", "w").request("cpu", "4"));
                    running.add(key("team/w"));
                    s.controller.setActive(key("team/w"), false);
                    assertThat(s.condition("team/w", Conditions.EVICTED).reason()).isEqualTo("Deactivated");
                    assertThat(s.reserved("team/w")).isTrue();
                    s.controller.copyStopped(key("team/w"));
                    assertThat(s.reserved("team/w")).isFalse();
                    assertThat(s.usage("team", "default/cpu")).isZero();
                    s.schedule();
                    assertThat(s.reserved("team/w")).isFalse();
                }),
                row("ClusterQueue HoldAndDrain keeps a running remote copy's quota until the copy stopped", s -> {
                    s.flavors("default").cq(clusterQueue("team").group(flavor("default", quota("cpu", "4"))));
                    Set<WorkloadKey> running = remotelyRunning(s);
                    s.run(s.w("team", "w").request("cpu", "1"));
                    running.add(key("team/w"));
                    s.cq(clusterQueue("team").stopPolicy(StopPolicy.HOLD_AND_DRAIN).group(flavor("default", quota("cpu", "4"))));
                    s.schedule();
                    assertThat(s.condition("team/w", Conditions.EVICTED).reason()).isEqualTo("ClusterQueueStopped");
                    assertThat(s.usage("team", "default/cpu")).isEqualTo(1000);
                    s.controller.copyStopped(key("team/w"));
                    assertThat(s.usage("team", "default/cpu")).isZero();
                }),
                row("a preemptor takes a workload already evicted and stopping before any other candidate (Kueue's ordering)", s -> {
                    s.flavors("default").cq(clusterQueue("team").preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER)
                            .group(flavor("default", quota("cpu", "8"))));
                    Set<WorkloadKey> running = remotelyRunning(s);
                    s.run(s.w("team", "low").priority(0).request("cpu", "4"));
                    s.run(s.w("team", "mid").priority(5).request("cpu", "4"));
                    running.add(key("team/low"));
                    running.add(key("team/mid"));
                    s.controller.setActive(key("team/mid"), false);
                    assertThat(s.reserved("team/mid")).isTrue();
                    s.run(s.w("team", "high").priority(10).request("cpu", "4"));
                    assertThat(s.evicted("team/low")).as("low is not evicted: mid's quota is on its way").isFalse();
                    assertThat(s.pendingMessage("team/high")).contains("Pending the preemption of 1 workload(s)");
                    s.controller.copyStopped(key("team/mid"));
                    s.schedule();
                    assertThat(s.admitted("team/high")).isTrue();
                    assertThat(s.admitted("team/low")).isTrue();
                }),
                row("a restarted controller keeps an evicted workload's quota until its copy is confirmed stopped", s -> {
                    preemption(s, remotelyRunning(s));
                    WorkloadStatus stored = s.status("team/low");
                    Scenario restarted = new Scenario();
                    restarted.flavors("default").cq(clusterQueue("team").preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER)
                            .group(flavor("default", quota("cpu", "4"))));
                    restarted.controller.submit(restarted.w("team", "low").priority(0).request("cpu", "4").build(), true, stored);
                    restarted.run(restarted.w("team", "high").priority(10).request("cpu", "4"));
                    assertThat(restarted.reserved("team/high")).isFalse();
                    assertThat(restarted.usage("team", "default/cpu")).isEqualTo(4000);
                    restarted.controller.copyStopped(key("team/low"));
                    assertThat(restarted.condition("team/low", Conditions.EVICTED).reason()).isEqualTo("Preempted");
                    restarted.schedule();
                    assertThat(restarted.admitted("team/high")).isTrue();
                }),
                row("an eviction for a lost or drained cluster releases at once: the dispatcher fences that copy itself", s -> {
                    s.flavors("default").cq(clusterQueue("team").group(flavor("default", quota("cpu", "4"))));
                    Set<WorkloadKey> running = remotelyRunning(s);
                    s.run(s.w("team", "w").request("cpu", "1"));
                    running.add(key("team/w"));
                    s.controller.evict(key("team/w"), "ClusterLost", "worker cluster lost");
                    assertThat(s.reserved("team/w")).isFalse();
                })
        );
    }

    /** The dispatcher's view in these rows: the keys in the returned set have a copy running on a worker. */
    private static Set<WorkloadKey> remotelyRunning(Scenario s) {
        return s.remotelyRunning;
    }

    /** team/low (priority 0, 4 cpu, running remotely when asked) then team/high (priority 10, 4 cpu) in a 4-cpu queue. */
    private static void preemption(Scenario s, Set<WorkloadKey> running) {
        s.flavors("default").cq(clusterQueue("team").preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER)
                .group(flavor("default", quota("cpu", "4"))));
        s.run(s.w("team", "low").priority(0).request("cpu", "4"));
        running.add(key("team/low"));
        s.run(s.w("team", "high").priority(10).request("cpu", "4"));
    }
}
