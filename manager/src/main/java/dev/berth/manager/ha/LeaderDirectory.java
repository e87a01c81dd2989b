package dev.berth.manager.ha;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;
import java.util.Optional;

/**
 * The cluster-wide record of the current leader (a Vert.x clustered AsyncMap, a Hazelcast IMap with a
 * backup). A newer epoch always replaces an older one; a replica removes only its own record.
 */
final class LeaderDirectory {
    private static final String MAP = "berth.manager.leader";
    private static final String KEY = "leader";

    private final Vertx vertx;

    LeaderDirectory(Vertx vertx) {
        this.vertx = vertx;
    }

    Future<Void> publish(LeaderRecord record) {
        return map().compose(m -> m.put(KEY, record.toJson().encode()));
    }

    Future<Optional<LeaderRecord>> leader() {
        return map().compose(m -> m.get(KEY)).map(json -> Optional.ofNullable(json).map(LeaderRecord::fromJson));
    }

    Future<Void> withdraw(LeaderRecord own) {
        return map().compose(m -> m.removeIfPresent(KEY, own.toJson().encode())).mapEmpty();
    }

    private Future<AsyncMap<String, String>> map() {
        return vertx.sharedData().getAsyncMap(MAP);
    }
}
