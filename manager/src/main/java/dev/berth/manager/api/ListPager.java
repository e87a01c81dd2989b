package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Cuts a LIST into pages as kube-apiserver does. The first page reads the store at its current
 * revision; when more remain, the rest is kept in {@link ListSnapshots} and every later page is read
 * from there, so objects created, changed or deleted while a client pages neither appear nor vanish
 * mid-way. Also answers resourceVersion/resourceVersionMatch (see docs/semantics.md, "Lists and
 * watches"). Confined to one thread: the state thread, or the read thread of a store whose reads show only durable
 * writes (ApiServer#readingFromTheStore). There writes run meanwhile on the state thread; the revision is read before
 * the objects, so a list may hold an object newer than its resourceVersion, which a watch from that resourceVersion
 * then replays once more: a change is repeated, never missed, as on a follower.
 */
final class ListPager {
    /** One page: items rendered, the revision it was read at, and what the list metadata says. */
    record Page(List<ObjectNode> items, long resourceVersion, String continueOrNull, Long remainingOrNull) {
        /** The page as a {@code <Kind>List} with its list metadata. */
        ObjectNode asList(String listKind, String apiVersion) {
            ObjectNode list = JsonNodeFactory.instance.objectNode().put("kind", listKind).put("apiVersion", apiVersion);
            ObjectNode metadata = list.putObject("metadata").put("resourceVersion", Long.toString(resourceVersion));
            if (continueOrNull != null) metadata.put("continue", continueOrNull);
            if (remainingOrNull != null) metadata.put("remainingItemCount", remainingOrNull);
            list.putArray("items").addAll(items);
            return list;
        }
    }

    private final ListSnapshots snapshots;

    ListPager(ListSnapshots snapshots) {
        this.snapshots = snapshots;
    }

    /**
     * render: the object as the caller answers it, or empty when the selectors do not match it.
     */
    Page page(ObjectStore store, String resource, String namespaceOrNull, ListOptions options,
              Function<StoredObject, Optional<ObjectNode>> render) {
        String namespace = namespaceOrNull == null ? "" : namespaceOrNull;
        if (options.continueToken() != null) return continued(store, resource, namespace, namespaceOrNull, options, render);
        long current = store.revision();
        checkReadable(options, current);
        List<StoredObject> all = store.list(resource, namespaceOrNull);
        Cut cut = cut(all, 0, options, render);
        if (!cut.hasMore()) return new Page(cut.items(), current, null, null);
        List<StoredObject> remainder = all.subList(cut.next(), all.size());
        String token = snapshots.keep(resource, namespace, current, remainder)
                .map(s -> ContinueToken.consistent(current, cut.lastKey(), s.id()))
                .orElseGet(() -> ContinueToken.inconsistent(cut.lastKey())).encode();
        return new Page(cut.items(), current, token, remaining(options, remainder.size()));
    }

    private Page continued(ObjectStore store, String resource, String namespace, String namespaceOrNull, ListOptions options,
                           Function<StoredObject, Optional<ObjectNode>> render) {
        ContinueToken token = ContinueToken.decode(options.continueToken());
        if (!token.isConsistent()) {
            long current = store.revision();
            List<StoredObject> all = store.list(resource, namespaceOrNull);
            Cut cut = cut(all, after(all, token.startAfter()), options, render);
            String next = cut.hasMore() ? ContinueToken.inconsistent(cut.lastKey()).encode() : null;
            return new Page(cut.items(), current, next, cut.hasMore() ? remaining(options, all.size() - cut.next()) : null);
        }
        ListSnapshots.Snapshot snapshot = snapshots.find(token.snapshotId())
                .orElseThrow(() -> new ExpiredListException(ContinueToken.inconsistent(token.startAfter()).encode()));
        if (!snapshot.resource().equals(resource) || !snapshot.namespaceOrEmpty().equals(namespace)
                || snapshot.resourceVersion() != token.resourceVersion()) {
            throw ApiException.badRequest("continue key is not valid: the token was issued for another list");
        }
        List<StoredObject> rest = snapshot.remainder();
        Cut cut = cut(rest, after(rest, token.startAfter()), options, render);
        if (!cut.hasMore()) {
            snapshots.release(snapshot.id());
            return new Page(cut.items(), snapshot.resourceVersion(), null, null);
        }
        String next = ContinueToken.consistent(snapshot.resourceVersion(), cut.lastKey(), snapshot.id()).encode();
        return new Page(cut.items(), snapshot.resourceVersion(), next, remaining(options, rest.size() - cut.next()));
    }

    /**
     * A list without continue reads the current state, which satisfies any resourceVersion not newer
     * than it under NotOlderThan; Exact is served only at the current revision (Berth keeps no older
     * states outside paged lists' snapshots).
     */
    private static void checkReadable(ListOptions options, long current) {
        String requested = options.resourceVersion();
        if (requested == null || requested.equals("0")) return;
        long version = ListOptions.parseResourceVersion(requested);
        if (version > current) {
            throw new ApiException(504, "Timeout", "Too large resource version: " + version + ", current: " + current,
                    null, null, null, List.of(new FieldCause("", "Too large resource version", "ResourceVersionTooLarge")));
        }
        if (ListOptions.EXACT.equals(options.resourceVersionMatch()) && version != current) {
            throw new ApiException(410, "Expired", "too old resource version: " + version + " (" + current + ")",
                    null, null, null, List.of());
        }
    }

    private record Cut(List<ObjectNode> items, int next, String lastKey, boolean hasMore) {}

    /** Up to limit matching items from index from on; next is the index after the last one examined. */
    private static Cut cut(List<StoredObject> source, int from, ListOptions options,
                           Function<StoredObject, Optional<ObjectNode>> render) {
        List<ObjectNode> items = new ArrayList<>();
        int i = from;
        String lastKey = null;
        while (i < source.size() && (!options.paged() || items.size() < options.limit())) {
            StoredObject object = source.get(i++);
            Optional<ObjectNode> rendered = render.apply(object);
            if (rendered.isEmpty()) continue;
            items.add(rendered.get());
            lastKey = startKey(object.key());
        }
        boolean hasMore = options.paged() && i < source.size() && lastKey != null;
        return new Cut(items, i, lastKey, hasMore);
    }

    private static Long remaining(ListOptions options, int remaining) {
        return options.hasSelectors() ? null : (long) remaining;
    }

    static String startKey(ObjectKey key) {
        return key.namespace() + "/" + key.name();
    }

    /** The index of the first object after the start key in a list sorted by namespace, then name. */
    private static int after(List<StoredObject> sorted, String startAfter) {
        int slash = startAfter.indexOf('/');
        if (slash < 0) throw ApiException.badRequest("continue key is not valid: invalid start key");
        String namespace = startAfter.substring(0, slash);
        String name = startAfter.substring(slash + 1);
        int low = 0;
        int high = sorted.size();
        while (low < high) {
            int middle = (low + high) >>> 1;
            ObjectKey key = sorted.get(middle).key();
            int order = key.namespace().compareTo(namespace);
            if (order == 0) order = key.name().compareTo(name);
            if (order <= 0) low = middle + 1;
            else high = middle;
        }
        return low;
    }
}
