package dev.berth.system.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The contract judges unused grants only when every end-to-end suite ran. */
class SuiteSelectionTest {
    private static final List<String> SUITES = List.of("dev.berth.system.DispatchSystemTest", "dev.berth.system.FailoverSystemTest");

    @Test
    void noSelectionRunsEverySuite() {
        assertThat(SuiteSelection.includesEverySuite(null, SUITES)).isTrue();
        assertThat(SuiteSelection.includesEverySuite(" ", SUITES)).isTrue();
    }

    @Test
    void patternsMustCoverEverySuite() {
        assertThat(SuiteSelection.includesEverySuite("*SystemTest,WorkerRbacContractTest", SUITES)).isTrue();
        assertThat(SuiteSelection.includesEverySuite("DispatchSystemTest,FailoverSystemTest", SUITES)).isTrue();
        assertThat(SuiteSelection.includesEverySuite("dev.berth.system.*", SUITES)).isTrue();
        assertThat(SuiteSelection.includesEverySuite("DispatchSystemTest,WorkerRbacContractTest", SUITES)).isFalse();
        assertThat(SuiteSelection.includesEverySuite("WorkerRbacContractTest", SUITES)).isFalse();
    }

    @Test
    void aMethodSelectionOrAnExclusionIsPartial() {
        assertThat(SuiteSelection.includesEverySuite("*SystemTest#aJob*", SUITES)).isFalse();
        assertThat(SuiteSelection.includesEverySuite("*SystemTest,!FailoverSystemTest", SUITES)).isFalse();
    }
}
