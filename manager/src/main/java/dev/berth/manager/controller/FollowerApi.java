package dev.berth.manager.controller;

import dev.berth.manager.api.ApiServer;
import dev.berth.manager.api.GracefulShutdown;
import dev.berth.manager.api.HealthEndpoints;
import dev.berth.manager.api.ObjectService;
import dev.berth.manager.security.edge.ApiSecurity;
import dev.berth.manager.store.ObjectStore;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.util.concurrent.ExecutorService;

/**
 * The API of a replica that follows: the same paths and renderings as the leader's, reading the shared
 * store. Its replica sends it reads only; every write goes to the leader, whose hooks feed the controller.
 */
public final class FollowerApi {
    private FollowerApi() {}

    /** replicaShutdown: the follower's /readyz fails once its replica begins to stop. */
    public static Router readRouter(Vertx vertx, ObjectStore store, ExecutorService readExecutor, GracefulShutdown replicaShutdown) {
        ObjectService service = new ObjectService(store, ManagerResources.registry(ManagerState.readOnly(store)));
        ApiServer reads = new ApiServer(service, readExecutor, ApiSecurity.limitsOnly());
        // a follower serves its own /readyz: ready while the shared store answers it
        reads.health().with(new HealthEndpoints.Check("store-readiness", store::unreachable, true));
        reads.shutdown().following(replicaShutdown);
        return reads.router(vertx);
    }
}
