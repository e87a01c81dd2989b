package dev.berth.manager.clusters;

import java.util.HashMap;
import java.util.Map;

/** Which clusters an operator cordoned or is draining, kept apart from connections (a reconnect keeps them). */
final class OperatorMarks {
    private record Marks(boolean cordoned, boolean draining) {
    }

    private final Map<String, Marks> byCluster = new HashMap<>();

    void set(String cluster, boolean cordoned, boolean draining) {
        if (!cordoned && !draining) byCluster.remove(cluster);
        else byCluster.put(cluster, new Marks(cordoned || draining, draining));
    }

    /** Draining implies cordoned. */
    boolean cordoned(String cluster) {
        Marks marks = byCluster.get(cluster);
        return marks != null && marks.cordoned();
    }

    boolean draining(String cluster) {
        Marks marks = byCluster.get(cluster);
        return marks != null && marks.draining();
    }
}
