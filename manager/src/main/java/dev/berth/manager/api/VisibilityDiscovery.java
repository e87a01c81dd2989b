package dev.berth.manager.api;

import dev.berth.protocol.KueueApi;
import dev.berth.protocol.VisibilityApi;
import java.util.ArrayList;
import java.util.List;

/**
 * Kueue's visibility API (visibility.kueue.x-k8s.io) as discovery lists it: served by routes of its
 * own (server.VisibilityEndpoints), in both versions, the preferred first. Exactly as Kueue's
 * visibility server registers them (its CqREST and LqREST): clusterqueues and localqueues exist only
 * to carry their pendingworkloads subresources, so they have no verbs (and {@code kubectl api-resources},
 * which skips verb-less resources, lists them for Kueue no more than for Berth), and every entry's
 * kind is PendingWorkloadsSummary; the subresources answer get.
 */
final class VisibilityDiscovery {
    /** One resource (or {@code resource/subresource}) of a group version. */
    record Resource(String group, String version, String name, String singularName, boolean namespaced, String kind,
                    List<String> verbs) {
        boolean subresource() {
            return name.contains("/");
        }
    }

    static final List<String> VERSIONS = List.of(KueueApi.V1BETA2, KueueApi.V1BETA1);
    static final List<Resource> RESOURCES = resources();

    private VisibilityDiscovery() {}

    private static List<Resource> resources() {
        String group = VisibilityApi.KUEUE_VISIBILITY_GROUP;
        List<Resource> resources = new ArrayList<>();
        for (String version : VERSIONS) {
            resources.add(new Resource(group, version, "clusterqueues", "clusterqueue", false, VisibilityApi.PENDING_WORKLOADS_SUMMARY, List.of()));
            resources.add(new Resource(group, version, "clusterqueues/pendingworkloads", "", false,
                    VisibilityApi.PENDING_WORKLOADS_SUMMARY, List.of("get")));
            resources.add(new Resource(group, version, "localqueues", "localqueue", true, VisibilityApi.PENDING_WORKLOADS_SUMMARY, List.of()));
            resources.add(new Resource(group, version, "localqueues/pendingworkloads", "", true,
                    VisibilityApi.PENDING_WORKLOADS_SUMMARY, List.of("get")));
        }
        return List.copyOf(resources);
    }
}
