package dev.berth.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The decision classes stay pure: no Vert.x, no API client, no logging, no clock reads of their own. */
class DecisionLayeringTest {
    @ParameterizedTest
    @ValueSource(strings = {"ResourceAmount", "NodeState", "ClusterSnapshot", "NodeRequirement", "CapacityCalculator",
            "PodDemand", "AdmissionResult", "AttemptAdmission", "AttemptDemand", "UnboundPods", "FencingGuard", "LeaseClock",
            "TemplatePods", "TemplateRenderer", "RenderedObject", "AttemptOwner", "AttemptStatusComposer",
            "TopologyCapacityCalculator", "TopologyTree", "TopologyDomain", "TopologyAssigner", "TopologyPlacement", "TopologyPinning", "TopologyReport"})
    void decisionClassImportsNoIo(String className) throws IOException {
        String source = Files.readString(Path.of("src/main/java/dev/berth/agent/" + className + ".java"));

        assertThat(source).doesNotContain("import io.vertx").doesNotContain("import io.fabric8.kubernetes.client")
                .doesNotContain("import org.slf4j").doesNotContain("Instant.now()").doesNotContain("System.currentTimeMillis");
    }
}
