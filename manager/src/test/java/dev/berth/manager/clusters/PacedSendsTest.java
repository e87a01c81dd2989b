package dev.berth.manager.clusters;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PacedSendsTest {
    @Test
    void atMostTheLimitIsInFlightAndTheOthersStartInOrderAsEarlierOnesFinish() {
        PacedSends sends = new PacedSends(2);
        List<Promise<String>> started = new ArrayList<>();
        List<Future<String>> answers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            answers.add(sends.send(() -> {
                Promise<String> call = Promise.promise();
                started.add(call);
                return call.future();
            }));
        }
        assertThat(started).hasSize(2);
        assertThat(sends.waiting()).isEqualTo(3);

        started.get(1).complete("second");
        assertThat(answers.get(1).result()).isEqualTo("second");
        assertThat(started).as("the third starts once one finished").hasSize(3);
        started.get(0).fail("refused");
        started.get(2).complete("third");
        assertThat(answers.get(0).cause()).hasMessage("refused");
        assertThat(started).hasSize(5);
        assertThat(sends.waiting()).isZero();
    }

    @Test
    void manyWaitingCallsThatFailAtOnceDoNotDeepenTheStack() {
        PacedSends sends = new PacedSends(1);
        Promise<Void> first = Promise.promise();
        sends.send(() -> first.future());
        List<Future<Void>> refused = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) refused.add(sends.send(() -> Future.failedFuture("breaker open")));
        assertThat(sends.waiting()).isEqualTo(100_000);

        first.complete();
        assertThat(refused).allMatch(Future::failed);
        assertThat(sends.waiting()).isZero();
    }
}
