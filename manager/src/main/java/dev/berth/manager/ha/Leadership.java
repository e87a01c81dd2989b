package dev.berth.manager.ha;

import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.controller.ManagerEpoch;
import dev.berth.manager.store.ObjectStore;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.Lock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Campaigns for, holds and gives up the leadership of the manager replicas, on its own thread.
 *
 * <p>Election: the cluster-wide Vert.x lock {@value #LOCK} (a Hazelcast IMap lock, released by the
 * cluster when its holder's member leaves). The winner builds a fresh {@link BerthManager}: it raises
 * the fencing epoch in the shared store, rebuilds the controller from the store, re-adopts the
 * attempts running on worker clusters, and starts scheduling and dispatching. It publishes itself in
 * the {@link LeaderDirectory} meanwhile, and serves the API on its own port as soon as its manager
 * listens; followers forward to it once the record is published.
 *
 * <p>Fencing: the leader closes its BerthManager (no more scheduling, dispatching or lease renewals)
 * as soon as it sees a higher epoch in the store, cannot read the store, drops below
 * minMembersToLead, or its Hazelcast member shuts down or merges after a split. Agents reject the
 * writes of any older epoch once the new leader's epoch reached them.
 */
final class Leadership implements AutoCloseable {
    static final String LOCK = "berth.manager.leader";
    private static final Logger log = LoggerFactory.getLogger(Leadership.class);

    /** One tenure: the manager that leads, the lock that makes it leader, and its epoch. */
    record Term(BerthManager manager, Lock lock, long epoch, LeaderRecord record) {}

    private final Vertx vertx;
    private final ObjectStore store;
    private final Supplier<BerthManager> managers;
    private final BooleanSupplier eligible;
    private final LeaderDirectory directory;
    private final String replicaId;
    private final Supplier<String> advertisedUrl;
    private final Duration checkInterval;
    private final Object wakeUp = new Object();
    private final Thread thread;
    private volatile Term term;
    private volatile boolean closed;
    /** True from winning the lock until the term starts or fails: a warm standby builds nothing meanwhile. */
    private volatile boolean takingOffice;

    Leadership(Vertx vertx, ObjectStore store, Supplier<BerthManager> managers, BooleanSupplier eligible,
               String replicaId, Supplier<String> advertisedUrl, Duration checkInterval) {
        this.vertx = vertx;
        this.store = store;
        this.managers = managers;
        this.eligible = eligible;
        this.directory = new LeaderDirectory(vertx);
        this.replicaId = replicaId;
        this.advertisedUrl = advertisedUrl;
        this.checkInterval = checkInterval;
        this.thread = new Thread(this::run, "berth-leadership-" + replicaId);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** The current term, or null when this replica follows. */
    Term term() {
        return term;
    }

    /** Where this replica stands now, for its warm standby. */
    dev.berth.manager.dispatch.WarmStandbyPlan.Role role() {
        if (term != null) return dev.berth.manager.dispatch.WarmStandbyPlan.Role.LEADING;
        return takingOffice ? dev.berth.manager.dispatch.WarmStandbyPlan.Role.TAKING_OFFICE : dev.berth.manager.dispatch.WarmStandbyPlan.Role.FOLLOWING;
    }

    LeaderDirectory directory() {
        return directory;
    }

    private void run() {
        while (!closed) {
            try {
                Term current = term;
                if (current == null) campaign();
                else verify(current);
            } catch (RuntimeException e) {
                log.atWarn().setMessage("leadership step failed").addKeyValue("replica", replicaId).setCause(e).log();
                stepDown("leadership step failed: " + e.getMessage());
                pause(checkInterval);
            }
        }
    }

    private void campaign() {
        if (!eligible.getAsBoolean()) {
            pause(checkInterval);
            return;
        }
        Lock lock;
        try {
            lock = vertx.sharedData().getLockWithTimeout(LOCK, checkInterval.toMillis())
                    .toCompletionStage().toCompletableFuture().get(checkInterval.toMillis() + 10_000, TimeUnit.MILLISECONDS);
        } catch (Exception notAcquired) {
            return;
        }
        if (closed || !eligible.getAsBoolean()) {
            lock.release();
            return;
        }
        takeOffice(lock);
    }

    private synchronized void takeOffice(Lock lock) {
        long started = System.nanoTime();
        BerthManager manager = null;
        takingOffice = true;
        try {
            manager = managers.get().leavingStoreOpen();
            long built = System.nanoTime();
            long epoch = manager.fencingEpoch();
            LeaderRecord record = new LeaderRecord(replicaId, advertisedUrl.get(), epoch);
            // Published while the API starts: right after a leader's death the put can wait seconds for
            // Hazelcast to promote the dead member's partitions. A follower that forwards to this replica
            // before it serves gets 503 and retries, as while no leader is known.
            CompletableFuture<Void> published = directory.publish(record).toCompletionStage().toCompletableFuture();
            manager.start(vertx, "127.0.0.1", 0).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            long listening = System.nanoTime();
            term = new Term(manager, lock, epoch, record);
            log.atInfo().setMessage("became leader: scheduling, dispatching and serving")
                    .addKeyValue("replica", replicaId)
                    .addKeyValue("epoch", epoch)
                    .addKeyValue("tookMillis", (listening - started) / 1_000_000)
                    .addKeyValue("buildMillis", (built - started) / 1_000_000)
                    .addKeyValue("listenMillis", (listening - built) / 1_000_000)
                    .log();
            awaitPublished(published, record, listening);
        } catch (Exception e) {
            log.atWarn().setMessage("could not take office").addKeyValue("replica", replicaId).setCause(e).log();
            if (term != null && term.manager() == manager) {
                stepDown("could not take office: " + e.getMessage());
            } else {
                if (manager != null) manager.close();
                lock.release();
            }
            pause(checkInterval);
        } finally {
            takingOffice = false;
        }
    }

    /** Followers forward writes to this replica once the record is published. */
    private void awaitPublished(CompletableFuture<Void> published, LeaderRecord record, long listening) throws Exception {
        published.get(10, TimeUnit.SECONDS);
        log.atInfo().setMessage("leadership published to the other replicas")
                .addKeyValue("replica", replicaId)
                .addKeyValue("epoch", record.epoch())
                .addKeyValue("afterServingMillis", (System.nanoTime() - listening) / 1_000_000)
                .log();
    }

    private void verify(Term current) {
        pause(checkInterval);
        if (term != current) return;
        if (!eligible.getAsBoolean()) {
            stepDown("no longer eligible (cluster member down or too few members)");
            return;
        }
        long stored = ManagerEpoch.current(store);
        if (stored != current.epoch()) stepDown("the store holds epoch " + stored + ", this leader has " + current.epoch());
    }

    /** Stops scheduling and dispatching now and releases the leadership; no-op when following. */
    synchronized void stepDown(String reason) {
        Term current = term;
        if (current == null) return;
        term = null;
        log.atWarn().setMessage("stepping down: fenced, no more scheduling or dispatching")
                .addKeyValue("replica", replicaId)
                .addKeyValue("epoch", current.epoch())
                .addKeyValue("reason", reason)
                .log();
        try {
            current.manager().close();
        } finally {
            try {
                current.lock().release();
            } catch (RuntimeException alreadyGoneWithTheMember) {
                log.atDebug().setMessage("lock release failed").setCause(alreadyGoneWithTheMember).log();
            }
            directory.withdraw(current.record());
        }
        synchronized (wakeUp) {
            wakeUp.notifyAll();
        }
    }

    private void pause(Duration duration) {
        synchronized (wakeUp) {
            if (closed) return;
            try {
                wakeUp.wait(Math.max(1, duration.toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                closed = true;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        synchronized (wakeUp) {
            wakeUp.notifyAll();
        }
        stepDown("replica closing");
        try {
            thread.join(15_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stepDown("replica closing");
    }
}
