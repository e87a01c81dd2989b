package dev.berth.manager.ha;

import io.vertx.core.json.JsonObject;

/** Who leads: published by the leader in the cluster-wide map once it is scheduling and serving. */
record LeaderRecord(String replicaId, String url, long epoch) {
    JsonObject toJson() {
        return new JsonObject().put("replicaId", replicaId).put("url", url).put("epoch", epoch);
    }

    static LeaderRecord fromJson(String json) {
        JsonObject o = new JsonObject(json);
        return new LeaderRecord(o.getString("replicaId"), o.getString("url"), o.getLong("epoch", 0L));
    }
}
