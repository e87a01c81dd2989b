package dev.berth.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.protocol.ManagerReplicas;
import java.net.http.HttpResponse;
import java.util.Optional;

/**
 * Which manager replica leads, as each replica describes itself on {@value #REPLICA_PATH}
 * ({@code {"replicaId": ..., "leader": true|false, "epoch": ...}}, the ha workstream's endpoint).
 * The path is the protocol's ({@code ManagerReplicas.REPLICA_PATH}); it was {@code /replica} here
 * before the drills with replicas first ran, so no leader was ever found.
 */
final class Leadership {
    static final String REPLICA_PATH = ManagerReplicas.REPLICA_PATH;
    private static final ObjectMapper JSON = new ObjectMapper();

    private Leadership() {}

    /** The live replica that says it leads, or null while none does. */
    static ManagerReplica leader(DrillEnvironment env) {
        for (ManagerReplica replica : env.replicas()) {
            Optional<HttpResponse<String>> answer = replica.api().trySend("GET", REPLICA_PATH, null, null);
            if (answer.isEmpty() || answer.get().statusCode() != 200) continue;
            try {
                JsonNode self = JSON.readTree(answer.get().body());
                if (self.path("leader").asBoolean(false)) return replica;
            } catch (Exception unreadable) {
                // not (yet) a replica's description
            }
        }
        return null;
    }
}
