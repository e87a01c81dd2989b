package dev.berth.manager.core;

import static org.assertj.core.api.Assertions.fail;

import dev.berth.protocol.Conditions;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Random sequences of submissions, finishes, deletions, (de)activations, admission check results
 * and ClusterQueue edits over 2 cohorts of 3 ClusterQueues, with random preemption policies,
 * borrowing and lending limits. After every step and schedule(), the invariants below must hold;
 * they are computed from the statuses the sink received, not from the controller's quota tree.
 * A failure prints the seed and the steps so far, to be shrunk by hand into a table row.
 */
class AdmissionInvariantsPropertyTest {
    private static final int RUNS = Integer.getInteger("berth.property.runs", 100);
    /**
     * Seeds whose histories once reached a preemption loop among workloads of different queues in one
     * cohort, before a preemptor kept the quota its victims freed until it was nominated again.
     */
    private static final Set<Long> KNOWN_PREEMPTION_LOOPS = Set.of(20260108L, 20260178L, 20260189L, 20260263L, 20260267L);

    /** Thousands of admissions per run: log them at WARN only, so the run is fast and its output readable. */
    @BeforeAll
    static void quietLogs() {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(AdmissionController.class.getPackageName())).setLevel(ch.qos.logback.classic.Level.WARN);
    }

    @AfterAll
    static void restoreLogs() {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(AdmissionController.class.getPackageName())).setLevel(null);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void invariantsHoldOverRandomHistories() {
        long base = Long.getLong("berth.property.seed", 20260101L);
        for (int run = 0; run < RUNS; run++) {
            long seed = base + run;
            RandomAdmissionHistory history = new RandomAdmissionHistory(seed);
            try {
                history.play();
            } catch (AssertionError | RuntimeException failure) {
                fail("seed " + seed + " failed at step " + history.steps.size() + ":\n  "
                        + String.join("\n  ", history.steps) + "\n" + failure.getMessage(), failure);
            }
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void historiesThatOnceLoopedNowSettle() {
        for (long seed : KNOWN_PREEMPTION_LOOPS) {
            RandomAdmissionHistory history = new RandomAdmissionHistory(seed);
            try {
                history.play();
            } catch (AssertionError | RuntimeException failure) {
                fail("seed " + seed + " failed at step " + history.steps.size() + "\n" + failure.getMessage(), failure);
            }
        }
    }
}
