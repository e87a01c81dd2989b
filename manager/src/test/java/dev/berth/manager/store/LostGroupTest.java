package dev.berth.manager.store;

import static dev.berth.manager.store.ObjectStoreContract.key;
import static dev.berth.manager.store.ObjectStoreContract.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A group whose sync failed is lost: a {@link ChangeFeedStore} with deliveries never tells its changes (they may not
 * be on disk), and tells its waiters, and every waiter after them, the failure instead of never answering them.
 */
class LostGroupTest {
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final RuntimeException DISK_GONE = new UncheckedIOException(new IOException("disk gone"));

    private final ExecutorService stateThread = Executors.newSingleThreadExecutor(task -> new Thread(task, "test-state"));
    private final HeldSyncStore store = new HeldSyncStore();
    private final ChangeFeedStore feed = new ChangeFeedStore(store, stateThread);
    private final List<String> told = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws InterruptedException {
        stateThread.shutdown();
        assertThat(stateThread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private void onStateThread(Runnable work) throws Exception {
        stateThread.submit(work).get(10, TimeUnit.SECONDS);
    }

    private void group(String name) throws Exception {
        onStateThread(() -> feed.inOneSync(() -> {
            feed.create(key(name), queue(name, 1));
            feed.whenDurable(() -> told.add("answered " + name), lost -> told.add("lost " + name + ": " + lost.getCause().getMessage()));
            return null;
        }));
    }

    @Test
    void aLostGroupsWaitersAndEveryWaiterAfterThemHearTheFailureAndItsChangesAreNeverTold() throws Exception {
        feed.listenOnceDurable(change -> told.add("watch " + change.object().key().name()));
        group("a");
        group("b");
        group("c");
        SyncOutcome a = store.nextSync();
        SyncOutcome b = store.nextSync();
        SyncOutcome c = store.nextSync();

        a.durable();
        await().atMost(BOUND).until(() -> told.size() == 2);
        b.lost(DISK_GONE);
        c.durable(); // a later group's sync cannot make up for the lost one before it
        await().atMost(BOUND).until(() -> told.size() == 4);
        onStateThread(() -> feed.whenDurable(() -> told.add("answered d"), lost -> told.add("lost d")));

        assertThat(told).containsExactly("watch a", "answered a", "lost b: disk gone", "lost c: disk gone", "lost d");
    }

    @Test
    void anActionWithoutAFailureHandlerIsDroppedWhenItsGroupIsLost() throws Exception {
        List<String> ran = new CopyOnWriteArrayList<>();
        onStateThread(() -> feed.inOneSync(() -> {
            feed.create(key("a"), queue("a", 1));
            feed.whenDurable(() -> ran.add("sent a"));
            return null;
        }));
        store.nextSync().lost(DISK_GONE);
        onStateThread(() -> feed.whenDurable(() -> ran.add("after")));
        onStateThread(() -> { });

        assertThat(ran).isEmpty();
    }
}
