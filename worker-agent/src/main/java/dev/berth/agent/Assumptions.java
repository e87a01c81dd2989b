package dev.berth.agent;

import dev.berth.protocol.crd.RemoteWorkload;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the agent wrote that its informer caches may not show yet (Kueue's assume/forget, per object): the statuses it
 * wrote, and the attempts whose objects it created. Owned by the reconciler and touched by the agent's thread only.
 *
 * <p>Why a pass may read caches and still never admit two attempts into the same room: capacity comes from the pods
 * the pass sees (bound pods count on their nodes) plus, for every attempt the pass counts as running, its pods not
 * bound yet ({@link UnboundPods}). A cache only lags: it may miss a pod that exists or show one that is gone, never
 * show one that does not exist yet. A missing pod of an attempt counted as running is held as unbound, so it is
 * counted once either way; a pod shown after it finished holds more than needed, which is safe. The remaining danger
 * is an attempt not counted as running at all because the caches show neither its Admitted status nor its objects:
 * the agent created them in an earlier pass and the events are still on their way. That is what this class closes:
 * <ul>
 *   <li>A status write is remembered with the resourceVersion it replaced. While the cache still shows that version
 *       the written object is used instead; once the cache shows any other version it has caught up (the server's
 *       history of an object is linear, and a status write needs the version it replaces, so the next version the
 *       cache can show is this write or a later one). Successive writes keep every version they replaced.</li>
 *   <li>An attempt whose objects are being created is remembered from before the first create: it counts as running,
 *       holding its whole demand, until a pass sees any of its objects or pods, its RemoteWorkload is gone, or
 *       {@link #CREATE_HORIZON} has passed (a create that failed outright leaves nothing to see; the attempt then
 *       waits and is admitted again).</li>
 * </ul>
 * Within one pass the admission steps already carry the capacity they take forward ({@code fits.after()}), as before.
 */
public final class Assumptions {
    /** How long an attempt the agent created counts as running while no cache shows any of its objects. */
    public static final Duration CREATE_HORIZON = Duration.ofSeconds(30);

    private record Written(String uid, Set<String> replacedVersions, RemoteWorkload written) {}

    private final Map<String, Written> written = new HashMap<>();
    private final Map<String, Instant> created = new HashMap<>();

    /**
     * Remembers a status write: {@code replacedVersion} is the resourceVersion the write replaced. A write over the
     * agent's own earlier write keeps the versions that one replaced: the cache may still show any of them.
     */
    public void wrote(String replacedVersion, RemoteWorkload result) {
        String uid = result.getMetadata().getUid();
        Set<String> replaced = new HashSet<>();
        Written earlier = written.get(key(result));
        if (earlier != null && Objects.equals(earlier.uid(), uid)) replaced.addAll(earlier.replacedVersions());
        replaced.add(replacedVersion);
        written.put(key(result), new Written(uid, replaced, result));
    }

    /** Remembers that objects are being created for an attempt. */
    public void creating(String namespace, String attemptId, Instant now) {
        created.put(namespace + "/" + attemptId, now);
    }

    /**
     * The RemoteWorkloads a pass works on: each cached one copied (the pass sets statuses on its own objects, never on
     * the cache's), or the agent's own write where the cache has not caught up with it. Forgets writes the cache shows.
     */
    public List<RemoteWorkload> current(List<RemoteWorkload> cached) {
        List<RemoteWorkload> result = new ArrayList<>(cached.size());
        Map<String, Written> still = new HashMap<>();
        for (RemoteWorkload rw : cached) {
            String key = key(rw);
            Written mine = written.get(key);
            if (mine != null && Objects.equals(mine.uid(), rw.getMetadata().getUid())
                    && mine.replacedVersions().contains(rw.getMetadata().getResourceVersion())) {
                still.put(key, mine);
                result.add(copy(mine.written()));
            } else {
                result.add(copy(rw));
            }
        }
        written.clear();
        written.putAll(still);
        return result;
    }

    /**
     * Forgets created attempts that a pass sees objects of ({@code visible}, as namespace/attemptId), whose
     * RemoteWorkload is gone ({@code current}), or that are older than {@link #CREATE_HORIZON}.
     */
    public void forget(Set<String> visible, Set<String> current, Instant now) {
        created.entrySet().removeIf(e -> visible.contains(e.getKey()) || !current.contains(e.getKey())
                || !e.getValue().plus(CREATE_HORIZON).isAfter(now));
    }

    /** True while the agent created the attempt's objects and no cache shows them yet. */
    public boolean createdUnseen(String namespace, String attemptId) {
        return created.containsKey(namespace + "/" + attemptId);
    }

    private static String key(RemoteWorkload rw) {
        return rw.getMetadata().getNamespace() + "/" + rw.getMetadata().getName();
    }

    /** A copy whose metadata and status can be set without touching the original; the spec is only read. */
    private static RemoteWorkload copy(RemoteWorkload rw) {
        RemoteWorkload copy = new RemoteWorkload();
        copy.setApiVersion(rw.getApiVersion());
        copy.setKind(rw.getKind());
        copy.setMetadata(new ObjectMetaBuilder(rw.getMetadata()).build());
        copy.setSpec(rw.getSpec());
        copy.setStatus(rw.getStatus());
        return copy;
    }
}
