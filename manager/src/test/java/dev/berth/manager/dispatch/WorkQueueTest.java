package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The dispatcher's work queue: a failed key comes back after a doubling backoff, the others go on, and a resync comes due. */
class WorkQueueTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T12:00:00Z"));
    private final WorkQueue<String> queue = new WorkQueue<>(clock, WorkQueueOptions.DEFAULTS);

    @Test
    void anAddedKeyIsReadyOnceHoweverOftenItWasAdded() {
        queue.add("a");
        queue.add("b");
        queue.add("a");

        assertThat(queue.hasReady()).isTrue();
        assertThat(queue.takeReady()).containsExactly("a", "b");
        assertThat(queue.hasReady()).isFalse();
        assertThat(queue.takeReady()).isEmpty();
    }

    @Test
    void aFailedKeyIsRetriedAfterItsBackoffWhileTheOtherKeysGoOn() {
        queue.addAll(java.util.List.of("fails", "works"));
        assertThat(queue.takeReady()).containsExactly("fails", "works");
        assertThat(queue.failed("fails")).isEqualTo(1);
        queue.forget("works");
        queue.add("works");

        assertThat(queue.takeReady()).as("only the key that did not fail, before the backoff").containsExactly("works");
        clock.advance(Duration.ofMillis(99));
        assertThat(queue.hasReady()).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(queue.hasReady()).isTrue();
        assertThat(queue.takeReady()).containsExactly("fails");
        assertThat(queue.hasReady()).as("a retry is taken once").isFalse();
    }

    @Test
    void theBackoffDoublesWithEachFailureInARowUpToThirtySecondsAndASuccessResetsIt() {
        assertThat(queue.failed("a")).isEqualTo(1);
        assertThat(queue.nextRetryAt()).isEqualTo(clock.instant().plusMillis(100));
        queue.failed("a");
        assertThat(queue.nextRetryAt()).isEqualTo(clock.instant().plusMillis(200));
        queue.failed("a");
        assertThat(queue.nextRetryAt()).isEqualTo(clock.instant().plusMillis(400));
        for (int i = 0; i < 20; i++) queue.failed("a");
        assertThat(queue.failures("a")).isEqualTo(23);
        assertThat(queue.nextRetryAt()).isEqualTo(clock.instant().plusSeconds(30));

        queue.forget("a");
        assertThat(queue.failures("a")).isZero();
        assertThat(queue.nextRetryAt()).as("a success drops the waiting retry").isNull();
        queue.failed("a");
        assertThat(queue.nextRetryAt()).as("and the next failure starts over").isEqualTo(clock.instant().plusMillis(100));
    }

    @Test
    void anEventForAKeyWaitingForARetryMakesItReadyAtOnce() {
        queue.failed("a");
        queue.add("a");

        assertThat(queue.takeReady()).containsExactly("a");
        assertThat(queue.failures("a")).as("failures in a row count until a success").isEqualTo(1);
    }

    @Test
    void aResyncComesDueOncePerInterval() {
        WorkQueue<String> resyncing = new WorkQueue<>(clock, new WorkQueueOptions(Duration.ofMillis(100), Duration.ofSeconds(30),
                Duration.ofMinutes(5)));
        assertThat(resyncing.resyncDue()).as("not at start: the manager just recovered every workload").isFalse();
        clock.advance(Duration.ofMinutes(5).minusMillis(1));
        assertThat(resyncing.resyncDue()).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(resyncing.resyncDue()).isTrue();
        assertThat(resyncing.resyncDue()).as("once per interval").isFalse();
        clock.advance(Duration.ofMinutes(5));
        assertThat(resyncing.resyncDue()).isTrue();
    }

    @Test
    void optionsThatCannotWorkAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> new WorkQueueOptions(Duration.ZERO, Duration.ofSeconds(30), Duration.ofMinutes(5)))
                .hasMessageContaining("firstRetry");
        assertThatThrownBy(() -> new WorkQueueOptions(Duration.ofSeconds(1), Duration.ofMillis(10), Duration.ofMinutes(5)))
                .hasMessageContaining("maxRetry");
        assertThatThrownBy(() -> new WorkQueueOptions(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ZERO))
                .hasMessageContaining("resyncInterval");
    }
}
