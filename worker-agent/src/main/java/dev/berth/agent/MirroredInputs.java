package dev.berth.agent;

import dev.berth.protocol.crd.RemoteWorkload;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What each running attempt's status was last found current for: the RemoteWorkload's resourceVersion and the
 * resourceVersions of its created objects and pods. A running attempt's status is a function of exactly these
 * (and of the time, read only when the phase moves, which changes them): while none changed, composing the status
 * again and comparing it with the one written can only find them equal, so a pass skips both. Before this, every
 * pass composed and serialised every running attempt's status twice to find nothing to write.
 *
 * <p>Inputs are remembered only when a pass found the written status current, never right after a write: the pass
 * after a write composes once more from the written object and confirms it. An attempt not looked at in a pass is
 * forgotten at its end. Owned by the reconciler and touched by the agent's thread only.
 */
final class MirroredInputs {
    /** One object's or pod's version. Its strings are the cached object's own, so comparing them is mostly identity. */
    record Version(Object uid, Object resourceVersion) {}

    /** The versions a status was composed from; objects and pods in no particular order. */
    record Inputs(String uid, String resourceVersion, Set<Version> objects, Set<Version> pods) {
        /** Empty when any version is missing (nothing to tell a change by): such an attempt is composed every pass. */
        static Optional<Inputs> of(RemoteWorkload rw, List<Map<String, Object>> objects, List<Pod> pods) {
            String version = rw.getMetadata().getResourceVersion();
            if (version == null) return Optional.empty();
            Set<Version> objectVersions = new HashSet<>();
            for (Map<String, Object> object : objects) {
                Map<String, Object> metadata = TemplatePods.map(object, "metadata").orElse(Map.of());
                Object uid = metadata.get("uid");
                Object objectVersion = metadata.get("resourceVersion");
                if (uid == null || objectVersion == null) return Optional.empty();
                objectVersions.add(new Version(uid, objectVersion));
            }
            Set<Version> podVersions = new HashSet<>();
            for (Pod pod : pods) {
                String uid = pod.getMetadata().getUid();
                String podVersion = pod.getMetadata().getResourceVersion();
                if (uid == null || podVersion == null) return Optional.empty();
                podVersions.add(new Version(uid, podVersion));
            }
            return Optional.of(new Inputs(rw.getMetadata().getUid(), version, objectVersions, podVersions));
        }
    }

    private Map<String, Inputs> current = new HashMap<>();
    private Map<String, Inputs> next = new HashMap<>();

    /** True when the attempt's status was found current for exactly these inputs in the previous pass (or this one). */
    boolean unchanged(String attempt, Inputs inputs) {
        if (!inputs.equals(current.get(attempt))) return false;
        next.put(attempt, inputs);
        return true;
    }

    /** The attempt's status, composed from these inputs, equals the one written: later passes may skip it. */
    void current(String attempt, Inputs inputs) {
        next.put(attempt, inputs);
    }

    /** Ends a pass: only the attempts it found current are remembered. */
    void endPass() {
        current = next;
        next = new HashMap<>();
    }
}
