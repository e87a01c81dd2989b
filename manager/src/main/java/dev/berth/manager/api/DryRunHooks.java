package dev.berth.manager.api;

import dev.berth.manager.store.StoredObject;

/** A kind's hooks for {@code dryRun=All}: validation and admission run, the after-write notifications do not. */
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

    /** Not asked so far: a dry-run delete of a held object answers as if nothing held it. */
    @Override
    public String finalizerHoldingDeletion(StoredObject existing) {
        return null;
    }
}
