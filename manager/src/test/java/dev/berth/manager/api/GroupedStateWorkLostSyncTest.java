package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.berth.manager.store.ChangeFeedStore;
import dev.berth.manager.store.HeldSyncStore;
import dev.berth.manager.store.ObjectKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An API request whose group's sync failed is answered with the failure, not left waiting for ever. */
class GroupedStateWorkLostSyncTest {
    private final ExecutorService stateThread = Executors.newSingleThreadExecutor(task -> new Thread(task, "test-state"));
    private final HeldSyncStore store = new HeldSyncStore();
    private final ChangeFeedStore feed = new ChangeFeedStore(store, stateThread);
    private final GroupedStateWork work = new GroupedStateWork(stateThread, feed);

    @AfterEach
    void close() throws InterruptedException {
        stateThread.shutdown();
        assertThat(stateThread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aRequestWhoseGroupIsLostFailsWithTheCause() throws Exception {
        CompletableFuture<String> created = work.submit(() -> {
            feed.create(new ObjectKey("/configmaps", "default", "a"), JsonNodeFactory.instance.objectNode());
            return "created";
        });
        store.nextSync().lost(new UncheckedIOException(new IOException("disk gone")));

        await().atMost(Duration.ofSeconds(10)).until(created::isDone);
        assertThat(created).isCompletedExceptionally();
        try {
            created.get();
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(UncheckedIOException.class).hasRootCauseMessage("disk gone");
        }
        CompletableFuture<String> later = work.submit(() -> "read");
        await().atMost(Duration.ofSeconds(10)).until(later::isDone);
        assertThat(later).as("a read after the lost group saw writes that may not be on disk").isCompletedExceptionally();
    }

    @Test
    void aRequestWhoseGroupIsDurableIsAnswered() throws Exception {
        CompletableFuture<String> created = work.submit(() -> {
            feed.create(new ObjectKey("/configmaps", "default", "a"), JsonNodeFactory.instance.objectNode());
            return "created";
        });
        store.nextSync().durable();

        assertThat(created.get(10, TimeUnit.SECONDS)).isEqualTo("created");
    }
}
