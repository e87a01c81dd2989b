package dev.berth.manager.controller;

import static dev.berth.manager.controller.DispatchScenario.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.clusters.FakeWorkerCluster.Creates;
import dev.berth.manager.controller.DispatchScenario.Row;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Single-cluster dispatch (the Default strategy): placement, the write-ahead record, creates and their retries. */
class DispatchScenarioBasicsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void dispatches(Row row) {
        row.run();
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("architecture.md: Dispatch", "an admitted workload is dispatched once, committed, to the first cluster that fits", s -> {
                    s.clusters("a", "b").start();
                    s.submit("job-1", 2);
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                    assertThat(s.cluster("a").reservationOf(s.workload("job-1"))).isNotEqualTo(Boolean.TRUE);
                    assertThat(s.dispatch("job-1").cluster()).isEqualTo("a");
                    assertThat(s.dispatch("job-1").attemptId()).isEqualTo(s.cluster("a").attemptOf(s.workload("job-1")));
                    assertThat(s.check("job-1")).isEqualTo("Pending");
                    assertThat(s.checkMessage("job-1")).contains("dispatched to cluster a");
                    s.report("a", "job-1", "Running").advance(Duration.ofSeconds(1));
                    assertThat(s.check("job-1")).isEqualTo("Ready");
                    assertThat(s.condition("job-1", "Admitted")).startsWith("True");
                    assertThat(s.createdOn("job-1")).containsExactly("a");
                })
        );
    }
}
