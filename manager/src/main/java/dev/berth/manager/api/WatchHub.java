package dev.berth.manager.api;

import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoreChange;
import dev.berth.manager.store.StoredObject;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Fans the store's changes out to the open watches, and keeps the most recent ones so a watch can
 * start from a resourceVersion a list answered with; a watch from before them gets a 410 Expired
 * ERROR event, after which client-go re-lists. Fed by {@link dev.berth.manager.store.ChangeFeedStore}
 * on the writing thread; handing a change to a watch never blocks. Bookmarks are offered under the
 * same lock as changes, so a bookmark's resourceVersion never runs ahead of a change still to come.
 */
public final class WatchHub implements Consumer<StoreChange> {
    public static final int DEFAULT_HISTORY = 4096;
    /** As kube-apiserver's watch cache, about once a minute. */
    public static final Duration DEFAULT_BOOKMARK_INTERVAL = Duration.ofMinutes(1);

    private final ObjectStore store;
    private final int historyLimit;
    private final Duration bookmarkInterval;
    private final ArrayDeque<StoreChange> history = new ArrayDeque<>();
    private final List<WatchStream> streams = new CopyOnWriteArrayList<>();
    /** The revision of the newest change dropped from the history; a watch from before it is too old. */
    private long forgottenUpTo;
    /** The revision of the newest change handed to the watches. */
    private long delivered;

    public WatchHub(ObjectStore store, int historyLimit) {
        this(store, historyLimit, DEFAULT_BOOKMARK_INTERVAL);
    }

    public WatchHub(ObjectStore store, int historyLimit, Duration bookmarkInterval) {
        this.store = store;
        this.historyLimit = historyLimit;
        this.bookmarkInterval = bookmarkInterval;
        this.forgottenUpTo = store.revision();
        this.delivered = forgottenUpTo;
    }

    @Override
    public synchronized void accept(StoreChange change) {
        history.addLast(change);
        while (history.size() > historyLimit) forgottenUpTo = history.removeFirst().object().resourceVersion();
        delivered = Math.max(delivered, change.object().resourceVersion());
        for (WatchStream stream : streams) stream.offer(change);
    }

    Duration bookmarkInterval() {
        return bookmarkInterval;
    }

    /** Offers the stream a BOOKMARK at the newest revision it has been handed; from any thread. */
    synchronized void bookmark(WatchStream stream) {
        stream.offerBookmark(delivered, false);
    }

    /**
     * Opens a watch: starting with every current object as ADDED (no resourceVersion, "0", or
     * sendInitialEvents=true, which then ends them with a bookmark), or with the changes after the
     * resourceVersion. Run on the state thread so no write falls between the two.
     */
    synchronized void open(WatchStream stream, WatchOptions options) {
        List<StoreChange> first = new ArrayList<>();
        long current = Math.max(delivered, store.revision());
        String requested = options.resourceVersion();
        long since = requested == null || requested.equals("0") ? 0 : ListOptions.parseResourceVersion(requested);
        if (options.startsWithCurrentState()) {
            if (since > current) {
                stream.fail(new ApiException(504, "Timeout", "Too large resource version: " + since + ", current: " + current,
                        null, null, null, List.of(new FieldCause("", "Too large resource version", "ResourceVersionTooLarge"))));
                return;
            }
            // what groups still syncing wrote is forced and handed to the watches first: a list shows only durable writes
            store.syncNow();
            for (StoredObject object : store.list(stream.resource(), stream.namespaceOrNull())) {
                first.add(new StoreChange(StoreChange.Type.ADDED, object));
            }
        } else if (requested != null) {
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
        if (options.marksInitialEventsEnd()) stream.offerBookmark(current, true);
        streams.add(stream);
        stream.onClose(() -> streams.remove(stream));
    }

    /** Ends every open watch cleanly (a shutdown): client-go re-watches from the resourceVersion it reached. */
    void endAll() {
        for (WatchStream stream : streams) stream.close();
    }

    int openWatches() {
        return streams.size();
    }
}
