package dev.berth.virtualcluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The simulated AppWrapper controller's decisions: components created, phase and conditions from the pods, failure cleans up. */
class AppWrapperRulesTest {
    private static final String NOW = "2026-01-01T00:00:00Z";

    private static Map<String, Object> appWrapper(boolean suspend, Map<String, Object> status) {
        return Map.of("spec", Map.of("suspend", suspend, "components", List.of()), "status", status);
    }

    private static String condition(Map<String, Object> status, String type) {
        for (Object c : (List<?>) status.get("conditions")) {
            Map<?, ?> condition = (Map<?, ?>) c;
            if (type.equals(condition.get("type"))) return String.valueOf(condition.get("status"));
        }
        return null;
    }

    @Test
    void anUnsuspendedAppWrapperHasItsMissingComponentsCreatedAndRuns() {
        AppWrapperRules.Decision decision = AppWrapperRules.decide(appWrapper(false, Map.of()), 3, List.of(true, false), List.of(), NOW);

        assertThat(decision.create()).containsExactly(1);
        assertThat(decision.deleteComponents()).isFalse();
        assertThat(decision.status()).containsEntry("phase", "Running");
        assertThat(condition(decision.status(), "QuotaReserved")).isEqualTo("True");
        assertThat(condition(decision.status(), "ResourcesDeployed")).isEqualTo("True");
        assertThat(condition(decision.status(), "PodsReady")).isEqualTo("False");
    }

    @Test
    void podsReadyOnceEveryCountedPodRunsOrSucceeded() {
        AppWrapperRules.Decision decision = AppWrapperRules.decide(appWrapper(false, Map.of()), 2, List.of(true),
                List.of(PodPhases.RUNNING, PodPhases.SUCCEEDED), NOW);

        assertThat(condition(decision.status(), "PodsReady")).isEqualTo("True");
        assertThat(decision.status()).containsEntry("phase", "Running");
    }

    @Test
    void succeedsWhenAsManyPodsSucceededAsItsPodSetsCount() {
        AppWrapperRules.Decision decision = AppWrapperRules.decide(appWrapper(false, Map.of()), 2, List.of(true),
                List.of(PodPhases.SUCCEEDED, PodPhases.SUCCEEDED), NOW);

        assertThat(decision.status()).containsEntry("phase", "Succeeded");
        assertThat(decision.create()).isEmpty();
    }

    @Test
    void oneFailedPodFailsItAndItsComponentsAreDeleted() {
        AppWrapperRules.Decision decision = AppWrapperRules.decide(appWrapper(false, Map.of()), 2, List.of(true),
                List.of(PodPhases.FAILED, PodPhases.RUNNING), NOW);

        assertThat(decision.status()).containsEntry("phase", "Failed");
        assertThat(decision.deleteComponents()).isTrue();
        assertThat(condition(decision.status(), "ResourcesDeployed")).isEqualTo("False");
        assertThat(condition(decision.status(), "Unhealthy")).isEqualTo("True");
    }

    @Test
    void aFinishedAppWrapperStaysAsItIs() {
        Map<String, Object> succeeded = Map.of("phase", "Succeeded");

        AppWrapperRules.Decision decision = AppWrapperRules.decide(appWrapper(false, succeeded), 1, List.of(true), List.of(), NOW);

        assertThat(decision.status()).isEqualTo(succeeded);
        assertThat(decision.create()).isEmpty();
        assertThat(decision.deleteComponents()).isFalse();
    }

    @Test
    void aSuspendedAppWrapperCreatesNothing() {
        AppWrapperRules.Decision decision = AppWrapperRules.decide(appWrapper(true, Map.of()), 1, List.of(false), List.of(), NOW);

        assertThat(decision.create()).isEmpty();
        assertThat(decision.status()).containsEntry("phase", "Suspended");
    }

    @Test
    void aComponentIsNamedByItsTemplateElseByTheAppWrapperAndIndex() {
        assertThat(AppWrapperRules.componentName("aw", Map.of("template", Map.of("metadata", Map.of("name", "job"))), 0)).isEqualTo("job");
        assertThat(AppWrapperRules.componentName("aw", Map.of("template", Map.of()), 2)).isEqualTo("aw-2");
    }
}
