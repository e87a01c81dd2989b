package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.StoredObject;
import java.util.List;
import java.util.Optional;

/**
 * Hooks that pass every call to the hooks they wrap; a decorator overrides only what it changes.
 * Every method of {@link ObjectHooks} is forwarded here, so a hook method added later reaches the
 * wrapped hooks through every decorator (ForwardingObjectHooksTest checks that none is missing).
 */
public abstract class ForwardingObjectHooks implements ObjectHooks {
    private final ObjectHooks delegate;

    protected ForwardingObjectHooks(ObjectHooks delegate) {
        this.delegate = delegate;
    }

    /** The hooks this decorator wraps. */
    protected final ObjectHooks delegate() {
        return delegate;
    }

    @Override
    public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
        return delegate.admit(incoming, existing, op);
    }

    @Override
    public List<String> warnings(ObjectNode admitted, Optional<StoredObject> existing, Operation op) {
        return delegate.warnings(admitted, existing, op);
    }

    @Override
    public void stored(StoredObject object) {
        delegate.stored(object);
    }

    @Override
    public String finalizerHoldingDeletion(StoredObject existing) {
        return delegate.finalizerHoldingDeletion(existing);
    }

    @Override
    public void deleted(StoredObject object) {
        delegate.deleted(object);
    }

    @Override
    public ObjectNode admitStatus(ObjectNode status, StoredObject existing) {
        return delegate.admitStatus(status, existing);
    }

    @Override
    public void statusStored(StoredObject object) {
        delegate.statusStored(object);
    }

    @Override
    public boolean readable() {
        return delegate.readable();
    }
}
