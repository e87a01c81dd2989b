package dev.berth.manager.api;

import dev.berth.manager.store.StoredObject;

/**
 * A kind's hooks for {@code dryRun=All}: validation, admission and the deletion hold run, the after-write
 * notifications do not.
 */
final class DryRunHooks extends ForwardingObjectHooks {
    DryRunHooks(ObjectHooks real) {
        super(real);
    }

    @Override
    public void stored(StoredObject object) { }

    @Override
    public void deleted(StoredObject object) { }

    @Override
    public void statusStored(StoredObject object) { }
}
