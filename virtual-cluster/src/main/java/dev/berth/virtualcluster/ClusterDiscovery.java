package dev.berth.virtualcluster;

import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupList;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kubernetes' discovery documents for a virtual cluster ({@code /api}, {@code /api/v1}, {@code /apis} and
 * {@code /apis/<group>/<version>}), so that kubectl works against it as against a real cluster: the CRUD mock
 * answers those paths with a list of every object it holds, which kubectl cannot read ("the server doesn't
 * have a resource type"). Served: the built-in kinds the simulator and its clients use, and every stored
 * CustomResourceDefinition's served versions.
 */
final class ClusterDiscovery {
    static final String CRDS_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    private static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    /** One resource at one group and version, as an APIResourceList names it. */
    record Served(String group, String version, String kind, String plural, boolean namespaced, List<String> shortNames) {
        String groupVersion() {
            return group.isEmpty() ? version : group + "/" + version;
        }
    }

    static final List<Served> BUILT_IN = List.of(
            new Served("", "v1", "Pod", "pods", true, List.of("po")),
            new Served("", "v1", "Node", "nodes", false, List.of("no")),
            new Served("", "v1", "Namespace", "namespaces", false, List.of("ns")),
            new Served("", "v1", "Event", "events", true, List.of("ev")),
            new Served("", "v1", "Secret", "secrets", true, List.of()),
            new Served("", "v1", "ConfigMap", "configmaps", true, List.of("cm")),
            new Served("", "v1", "Service", "services", true, List.of("svc")),
            new Served("", "v1", "ServiceAccount", "serviceaccounts", true, List.of("sa")),
            new Served("batch", "v1", "Job", "jobs", true, List.of()),
            new Served("apps", "v1", "Deployment", "deployments", true, List.of("deploy")),
            new Served("apps", "v1", "StatefulSet", "statefulsets", true, List.of("sts")),
            new Served("apps", "v1", "ReplicaSet", "replicasets", true, List.of("rs")),
            new Served("coordination.k8s.io", "v1", "Lease", "leases", true, List.of()),
            new Served("apiextensions.k8s.io", "v1", "CustomResourceDefinition", "customresourcedefinitions", false, List.of("crd", "crds")));

    private ClusterDiscovery() {}

    /** Whether a request path (with or without its query) is one of the discovery paths. */
    static boolean isDiscovery(String path) {
        if (withoutQuery(path).startsWith("/openapi/")) return true;
        String[] parts = withoutQuery(path).split("/");
        return switch (parts.length) {
            case 2 -> parts[1].equals("api") || parts[1].equals("apis");
            case 3 -> parts[1].equals("api");
            case 4 -> parts[1].equals("apis");
            default -> false;
        };
    }

    /**
     * The discovery document at a path, given the CustomResourceDefinitions stored (a CRD list's JSON); empty
     * when the path names a group and version nothing serves (the caller answers 404).
     */
    static Optional<String> document(String path, String crdList) {
        List<Served> served = new ArrayList<>(BUILT_IN);
        served.addAll(customResources(crdList));
        if (withoutQuery(path).startsWith("/openapi/")) return Optional.empty();
        String[] parts = withoutQuery(path).split("/");
        if (parts.length == 2 && parts[1].equals("api")) return Optional.of(apiVersions());
        if (parts.length == 2) return Optional.of(groupList(served));
        String groupVersion = parts.length == 3 ? parts[2] : parts[2] + "/" + parts[3];
        List<Served> inVersion = served.stream().filter(s -> s.groupVersion().equals(groupVersion)).toList();
        if (inVersion.isEmpty()) return Optional.empty();
        return Optional.of(resourceList(groupVersion, inVersion));
    }

    /** The resources of the stored CRDs, at each served version. */
    static List<Served> customResources(String crdList) {
        List<Served> served = new ArrayList<>();
        for (CustomResourceDefinition crd : JSON.unmarshal(crdList, CustomResourceDefinitionList.class).getItems()) {
            var spec = crd.getSpec();
            List<String> shortNames = spec.getNames().getShortNames() == null ? List.of() : spec.getNames().getShortNames();
            for (CustomResourceDefinitionVersion version : spec.getVersions()) {
                if (Boolean.FALSE.equals(version.getServed())) continue;
                served.add(new Served(spec.getGroup(), version.getName(), spec.getNames().getKind(), spec.getNames().getPlural(),
                        !"Cluster".equals(spec.getScope()), shortNames));
            }
        }
        return served;
    }

    private static String apiVersions() {
        return JSON.asJson(new APIVersionsBuilder().withVersions("v1").build());
    }

    private static String groupList(List<Served> served) {
        Map<String, List<String>> versionsByGroup = new LinkedHashMap<>();
        for (Served s : served) {
            if (s.group().isEmpty()) continue;
            List<String> versions = versionsByGroup.computeIfAbsent(s.group(), g -> new ArrayList<>());
            if (!versions.contains(s.version())) versions.add(s.version());
        }
        APIGroupListBuilder list = new APIGroupListBuilder();
        versionsByGroup.forEach((group, versions) -> list.addToGroups(new APIGroupBuilder().withName(group)
                .withVersions(versions.stream().map(v -> new GroupVersionForDiscovery(group + "/" + v, v)).toList())
                .withPreferredVersion(new GroupVersionForDiscovery(group + "/" + versions.get(0), versions.get(0))).build()));
        APIGroupList groups = list.build();
        return JSON.asJson(groups);
    }

    private static String resourceList(String groupVersion, List<Served> served) {
        List<APIResource> resources = new ArrayList<>();
        for (Served s : served) {
            resources.add(new APIResourceBuilder().withName(s.plural()).withSingularName(s.kind().toLowerCase(java.util.Locale.ROOT))
                    .withNamespaced(s.namespaced()).withKind(s.kind()).withVerbs(VERBS).withShortNames(s.shortNames()).build());
            resources.add(new APIResourceBuilder().withName(s.plural() + "/status").withSingularName("").withNamespaced(s.namespaced())
                    .withKind(s.kind()).withVerbs("get", "patch", "update").build());
        }
        return JSON.asJson(new APIResourceListBuilder().withGroupVersion(groupVersion).withResources(resources).build());
    }

    private static String withoutQuery(String path) {
        int query = path.indexOf('?');
        String bare = query < 0 ? path : path.substring(0, query);
        return bare.endsWith("/") && bare.length() > 1 ? bare.substring(0, bare.length() - 1) : bare;
    }
}
