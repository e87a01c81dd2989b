package dev.berth.manager.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.berth.manager.testing.ExternalTool;
import dev.berth.manager.testing.NeedsPrometheus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The alert rules in deploy/monitoring: promtool accepts them, its unit tests (each alert firing for
 * one queue and quiet for another) pass, and the PrometheusRule carries exactly the plain file's rules.
 */
@NeedsPrometheus
class AlertRulesTest {
    static final Path MONITORING = repositoryRoot().resolve("deploy").resolve("monitoring");
    static final Path RULES = MONITORING.resolve("berth-alerts.rules.yml");
    private static final Path PROMETHEUS_RULE = MONITORING.resolve("prometheusrule.yaml");
    private static final Path UNIT_TESTS = MONITORING.resolve("tests").resolve("berth-alerts.test.yml");
    private static final String INSTALL = "Install Debian's prometheus package (it brings promtool).";
    private static final YAMLMapper YAML = new YAMLMapper();

    @Test
    void promtoolAcceptsTheRules() throws Exception {
        Path promtool = ExternalTool.require("promtool", INSTALL);
        String output = run(List.of(promtool.toString(), "check", "rules", RULES.toString()), MONITORING);
        assertThat(output).contains("SUCCESS: 2 rules found");
    }

    @Test
    void promtoolUnitTestsFireEachAlertAndKeepTheOthersQuiet() throws Exception {
        Path promtool = ExternalTool.require("promtool", INSTALL);
        String output = run(List.of(promtool.toString(), "test", "rules", UNIT_TESTS.getFileName().toString()), UNIT_TESTS.getParent());
        assertThat(output).contains("SUCCESS");
    }

    @Test
    void thePrometheusRuleHoldsTheSameRulesAsThePlainFile() throws IOException {
        JsonNode plain = YAML.readTree(RULES.toFile());
        JsonNode operator = YAML.readTree(PROMETHEUS_RULE.toFile());
        assertThat(operator.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(operator.path("kind").asText()).isEqualTo("PrometheusRule");
        assertThat(operator.path("spec").path("groups")).isEqualTo(plain.path("groups"));
        assertThat(plain.path("groups").findValuesAsText("alert"))
                .containsExactly("KueueAdmissionWaitTimeHigh", "KueueQueueFullyUtilized");
    }

    /** Runs a command to completion (bounded) and returns its output; a non-zero exit fails the test with it. */
    private static String run(List<String> command, Path directory) throws Exception {
        Path log = Files.createTempFile("promtool", ".log");
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        Files.delete(log);
        assertThat(process.exitValue()).as("exit status of %s; output:%n%s", command, output).isZero();
        return output;
    }

    static Path repositoryRoot() {
        Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
        Path root = module.getParent();
        if (root == null || !Files.isDirectory(root.resolve("deploy"))) {
            throw new AssertionError("cannot find deploy/ next to " + module);
        }
        return root;
    }
}
