package dev.berth.manager.store;

import static dev.berth.manager.store.ObjectStoreContract.CLOCK;
import static dev.berth.manager.store.ObjectStoreContract.key;
import static dev.berth.manager.store.ObjectStoreContract.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipelined group commit: a {@link ChangeFeedStore} built with deliveries (the manager's state thread) does not
 * wait for a group's journal force; the journal's sync thread forces, and the group's changes and whenDurable
 * actions are told on the deliveries thread afterwards, in the order they were made, behind every group still
 * syncing. Here a single-thread executor plays the state thread: groups run on it, as in the manager.
 */
class PipelinedGroupCommitTest {
    private static final Duration BOUND = Duration.ofSeconds(10);

    @TempDir
    Path directory;
    private final ExecutorService stateThread = Executors.newSingleThreadExecutor(task -> new Thread(task, "test-state"));
    private FileObjectStore store;
    private ChangeFeedStore feed;
    private final List<String> told = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws InterruptedException {
        if (store != null) store.close();
        stateThread.shutdown();
        assertThat(stateThread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private void open() {
        store = FileObjectStore.open(directory, CLOCK);
        feed = new ChangeFeedStore(store, stateThread);
        feed.listenOnceDurable(change -> told.add(change.type() + " " + change.object().key().name()
                + " forced=" + (store.journalForces() > 0) + " on " + Thread.currentThread().getName()));
    }

    private void onStateThread(Runnable work) throws Exception {
        stateThread.submit(work).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aGroupsChangesAndActionsAreToldOnTheStateThreadOnlyAfterItsForce() throws Exception {
        open();
        long before = store.journalForces();
        AtomicReference<String> actionRan = new AtomicReference<>();

        onStateThread(() -> feed.inOneSync(() -> {
            feed.create(key("a"), queue("a", 1));
            feed.whenDurable(() -> actionRan.set("forces=" + (store.journalForces() - before) + " on " + Thread.currentThread().getName()));
            return null;
        }));

        await().atMost(BOUND).until(() -> actionRan.get() != null);
        assertThat(actionRan.get()).isEqualTo("forces=1 on test-state");
        assertThat(told).containsExactly("ADDED a forced=true on test-state");
    }

    @Test
    void whatFollowsAGroupStillSyncingIsToldAfterItInTheOrderItWasMade() throws Exception {
        open();
        List<String> order = new CopyOnWriteArrayList<>();
        feed.listenOnceDurable(change -> order.add("watch " + change.object().key().name()));

        onStateThread(() -> {
            feed.inOneSync(() -> {
                feed.create(key("a"), queue("a", 1));
                feed.whenDurable(() -> order.add("reply a"));
                return null;
            });
            feed.create(key("b"), queue("b", 1)); // outside a group: forced before it returns, told behind "a"
            feed.whenDurable(() -> order.add("send after b"));
            feed.inOneSync(() -> {
                feed.whenDurable(() -> order.add("reply of a read")); // a group that wrote nothing
                return null;
            });
            feed.inOneSync(() -> {
                feed.create(key("c"), queue("c", 1));
                feed.whenDurable(() -> order.add("reply c"));
                return null;
            });
        });

        await().atMost(BOUND).until(() -> order.size() == 7);
        assertThat(order).containsExactly("watch a", "reply a", "watch b", "send after b", "reply of a read", "watch c", "reply c");
    }

    @Test
    void syncNowForcesAndTellsEverythingStillSyncingBeforeItReturns() throws Exception {
        open();
        CountDownLatch syncerMayGo = new CountDownLatch(1);
        List<String> seenBySyncNow = new CopyOnWriteArrayList<>();

        onStateThread(() -> {
            feed.inOneSync(() -> {
                feed.create(key("a"), queue("a", 1));
                return null;
            });
            feed.syncNow();
            seenBySyncNow.addAll(told);
            syncerMayGo.countDown();
        });

        assertThat(syncerMayGo.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(seenBySyncNow).containsExactly("ADDED a forced=true on test-state");
        assertThat(told).as("told once, not again when the sync thread's force ends").hasSize(1);
    }

    @Test
    void aGroupsWritesAreOnDiskAfterClosingEvenIfItsForceWasStillToCome() throws Exception {
        open();
        onStateThread(() -> feed.inOneSync(() -> {
            for (int i = 0; i < 50; i++) feed.create(key("q" + i), queue("q" + i, i));
            return null;
        }));
        store.close();
        store = FileObjectStore.open(directory, CLOCK);

        assertThat(store.list(ObjectStoreContract.QUEUES, null)).hasSize(50);
    }

    @Test
    void aFailedForceTellsEveryGroupWaitingForItAndEveryOneAskedLaterThatItIsLost() throws Exception {
        AtomicReference<IOException> failure = new AtomicReference<>();
        List<String> ran = new CopyOnWriteArrayList<>();
        JournalSyncer syncer = new JournalSyncer("test-sync", () -> {
            throw new IOException("disk gone");
        }, failure::set);
        try {
            syncer.afterNextForce(outcome("first", ran));
            await().atMost(BOUND).until(() -> failure.get() != null);
            syncer.afterNextForce(outcome("later", ran));
        } finally {
            syncer.close();
        }

        assertThat(failure.get()).hasMessage("disk gone");
        assertThat(ran).containsExactly("first lost: disk gone", "later lost: disk gone");
    }

    private static SyncOutcome outcome(String name, List<String> ran) {
        return new SyncOutcome() {
            @Override
            public void durable() {
                ran.add(name + " durable");
            }

            @Override
            public void lost(RuntimeException cause) {
                ran.add(name + " lost: " + cause.getCause().getMessage());
            }
        };
    }

    @Test
    void oneForceServesEveryGroupWaitingForIt() throws Exception {
        List<String> ran = new CopyOnWriteArrayList<>();
        CountDownLatch forceStarted = new CountDownLatch(1);
        CountDownLatch forceMayEnd = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger forces = new java.util.concurrent.atomic.AtomicInteger();
        JournalSyncer syncer = new JournalSyncer("test-sync", () -> {
            forces.incrementAndGet();
            forceStarted.countDown();
            try {
                forceMayEnd.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, cause -> { });
        try {
            syncer.afterNextForce(() -> ran.add("1"));
            assertThat(forceStarted.await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 2; i <= 5; i++) {
                String name = Integer.toString(i);
                syncer.afterNextForce(() -> ran.add(name)); // asked while the first force runs: the next force covers them
            }
            forceMayEnd.countDown();
            await().atMost(BOUND).until(() -> ran.size() == 5);
        } finally {
            syncer.close();
        }

        assertThat(ran).containsExactly("1", "2", "3", "4", "5");
        assertThat(forces.get()).isEqualTo(2);
    }
}
