package dev.berth.manager.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoreUnavailableException;
import dev.berth.manager.store.StoredObject;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * A real store (wrapped) whose next read of one object, or next status write that matches, fails as an
 * unavailable database would: the fault injector of tests that show errors never drop or duplicate work.
 */
public final class FaultInjectingStore extends ForwardingStore {
    private volatile ObjectKey failNextGet;
    private final AtomicReference<Predicate<ObjectNode>> failNextStatus = new AtomicReference<>();
    /** How many operations failed on purpose. */
    public final AtomicInteger failures = new AtomicInteger();
    /** The status the last refused status write would have stored. */
    public volatile ObjectNode refusedStatus;

    public FaultInjectingStore(ObjectStore store) {
        super(store);
    }

    /** The next read of this object fails. */
    public void failNextGetOf(ObjectKey key) {
        failNextGet = key;
    }

    /** The next status write whose new status matches fails, and nothing of it is stored. */
    public void failNextStatusWhere(Predicate<ObjectNode> status) {
        failNextStatus.set(status);
    }

    @Override
    public Optional<StoredObject> get(ObjectKey key) {
        if (key.equals(failNextGet)) {
            failNextGet = null;
            throw injected();
        }
        return store.get(key);
    }

    @Override
    public StoredObject replaceStatus(ObjectKey key, ObjectNode status, String expectedResourceVersionOrNull) {
        Predicate<ObjectNode> matches = failNextStatus.get();
        if (matches != null && matches.test(status) && failNextStatus.compareAndSet(matches, null)) {
            refusedStatus = status.deepCopy();
            throw injected();
        }
        return store.replaceStatus(key, status, expectedResourceVersionOrNull);
    }

    private StoreUnavailableException injected() {
        failures.incrementAndGet();
        return new StoreUnavailableException("injected: store unavailable", null);
    }
}
