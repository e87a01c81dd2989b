package dev.berth.manager.core;

import static dev.berth.manager.core.Scenario.key;
import static dev.berth.manager.core.Scenario.row;
import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.quota;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.Scenario.Row;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.CheckStates;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Berth's rule for a flavor no connected worker cluster offers (issue 20, rule 2; docs/semantics.md):
 * the dispatcher's Retry releases the quota as Kueue's admission-check Retry does, and the workload's
 * flavor assignment then skips that flavor, which Kueue's flavor assigner never does.
 */
class UnservedFlavorSemanticsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void releasesAndSkips(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("a workload avoiding its first flavor gets the next one in order", s -> {
                    s.flavors("h100", "a100").cq(clusterQueue("team")
                            .group(flavor("h100", quota("nvidia.com/gpu", "8")), flavor("a100", quota("nvidia.com/gpu", "8"))));
                    s.submit(s.w("team", "w").request("nvidia.com/gpu", "8"));
                    s.controller.avoidFlavors(key("team/w"), Set.of("h100"));
                    s.schedule();
                    assertThat(s.flavorOf("team/w", "nvidia.com/gpu")).isEqualTo("a100");
                }),
                row("a workload avoiding its only flavor waits, saying why, and is admitted once it no longer avoids it", s -> {
                    s.flavors("h100").cq(clusterQueue("team").group(flavor("h100", quota("nvidia.com/gpu", "8"))));
                    s.submit(s.w("team", "w").request("nvidia.com/gpu", "8"));
                    s.controller.avoidFlavors(key("team/w"), Set.of("h100"));
                    s.schedule();
                    assertThat(s.reserved("team/w")).isFalse();
                    assertThat(s.condition("team/w", Conditions.QUOTA_RESERVED).message())
                            .contains("flavor h100 skipped: no connected worker cluster offers it");
                    s.controller.avoidFlavors(key("team/w"), Set.of());
                    s.schedule();
                    assertThat(s.flavorOf("team/w", "nvidia.com/gpu")).isEqualTo("h100");
                }),
                row("Retry on an unserved flavor releases the quota to the next workload, and the retried one takes another flavor after its backoff", s -> {
                    s.flavors("h100", "a100").cq(clusterQueue("team").admissionCheck("dispatch")
                            .group(flavor("h100", quota("nvidia.com/gpu", "8")), flavor("a100", quota("nvidia.com/gpu", "8"))));
                    s.controller.applyAdmissionCheck("dispatch", true);
                    s.run(s.w("team", "first").request("nvidia.com/gpu", "8"));
                    s.run(s.w("team", "other").request("nvidia.com/gpu", "8"));
                    assertThat(s.flavorOf("team/first", "nvidia.com/gpu")).isEqualTo("h100");
                    assertThat(s.flavorOf("team/other", "nvidia.com/gpu")).isEqualTo("a100");
                    s.run(s.w("team", "third").request("nvidia.com/gpu", "8"));
                    assertThat(s.reserved("team/third")).isFalse();

                    s.controller.avoidFlavors(key("team/first"), Set.of("h100"));
                    s.controller.setAdmissionCheckState(key("team/first"), "dispatch", CheckStates.RETRY,
                            "no connected worker cluster offers flavor h100", 60);
                    assertThat(s.usage("team", "h100/nvidia.com/gpu")).isZero();
                    s.schedule();
                    assertThat(s.flavorOf("team/third", "nvidia.com/gpu")).as("the released quota goes to the next workload").isEqualTo("h100");
                    s.controller.setAdmissionCheckState(key("team/other"), "dispatch", CheckStates.READY, "");
                    s.finish("team/other");
                    s.schedule();
                    assertThat(s.reserved("team/first")).as("still backing off").isFalse();
                    s.clock.advance(java.time.Duration.ofSeconds(61));
                    s.schedule();
                    assertThat(s.flavorOf("team/first", "nvidia.com/gpu")).isEqualTo("a100");
                }));
    }
}
