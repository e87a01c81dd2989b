package dev.berth.manager.api;

import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoreChange;
import dev.berth.manager.store.StoredObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Fans the store's changes out to the open watches, and keeps the most recent ones so a watch can
 * start from a resourceVersion a list answered with. Fed by {@link dev.berth.manager.store.ChangeFeedStore}
 * on the writing thread; handing a change to a watch never blocks.
 */
public final class WatchHub implements Consumer<StoreChange> {
    public static final int DEFAULT_HISTORY = 4096;

    private final ObjectStore store;
    private final int historyLimit;
    private final ArrayDeque<StoreChange> history = new ArrayDeque<>();
    private final List<WatchStream> streams = new CopyOnWriteArrayList<>();
    /** The revision of the newest change dropped from the history; a watch from before it is too old. */
    private long forgottenUpTo;

    public WatchHub(ObjectStore store, int historyLimit) {
        this.store = store;
        this.historyLimit = historyLimit;
        this.forgottenUpTo = store.revision();
    }

    @Override
    public synchronized void accept(StoreChange change) {
        history.addLast(change);
        while (history.size() > historyLimit) forgottenUpTo = history.removeFirst().object().resourceVersion();
        for (WatchStream stream : streams) stream.offer(change);
    }

    /**
     * Opens a watch: without a resourceVersion (or "0") every current object arrives as ADDED first;
     * with one, the changes after it. Run on the state thread so no write falls between the two.
     */
    synchronized void open(WatchStream stream, String resourceVersion) {
        List<StoreChange> first = new ArrayList<>();
        if (resourceVersion == null || resourceVersion.isEmpty() || resourceVersion.equals("0")) {
            for (StoredObject object : store.list(stream.resource(), stream.namespaceOrNull())) {
                first.add(new StoreChange(StoreChange.Type.ADDED, object));
            }
        } else {
            long since;
            try {
                since = Long.parseLong(resourceVersion);
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("resourceVersion: Invalid value: \"" + resourceVersion + "\": must be an integer");
            }
            if (since < forgottenUpTo) {
                stream.fail(new ApiException(410, "Expired", "too old resource version: " + since + " (" + forgottenUpTo + ")",
                        null, null, null, List.of()));
                return;
            }
            for (StoreChange change : history) {
                if (change.object().resourceVersion() > since) first.add(change);
            }
        }
        stream.offerAll(first);
        streams.add(stream);
        stream.onClose(() -> streams.remove(stream));
    }

    int openWatches() {
        return streams.size();
    }
}
