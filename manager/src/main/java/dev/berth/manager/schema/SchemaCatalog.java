package dev.berth.manager.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * The structural schema of every kind Berth serves, by group, version and kind: the CustomResourceDefinitions of Kueue,
 * JobSet, Kubeflow (PyTorchJob, MPIJob, Trainer v2's TrainJob and runtimes), KubeRay, LeaderWorkerSet and AppWrapper,
 * and the subset of Kubernetes' own OpenAPI the built-in kinds (apps/v1 Deployment and StatefulSet among them) need, all
 * vendored under {@code resources/schemas} (see its README for versions and licence). Read on first
 * use, then immutable; {@link #bundled()} shares one catalog per process.
 */
public final class SchemaCatalog {
    static final String OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> CRDS = List.of(
            "kueue/admissionchecks", "kueue/clusterqueues", "kueue/cohorts", "kueue/localqueues",
            "kueue/multikueueclusters", "kueue/multikueueconfigs", "kueue/provisioningrequestconfigs", "kueue/resourceflavors", "kueue/topologies",
            "kueue/workloadpriorityclasses", "kueue/workloads", "jobset/jobsets",
            "kubeflow/pytorchjobs", "kubeflow/mpijobs",
            "ray/rayjobs", "ray/rayclusters",
            "lws/leaderworkersets",
            "appwrapper/appwrappers",
            "trainer/trainjobs", "trainer/trainingruntimes", "trainer/clustertrainingruntimes");
    private static final String KUBERNETES = "kubernetes/swagger-v1.32-subset.json.gz";

    private final Definitions definitions;
    private final Map<GroupVersionKind, KindSchema> kinds;

    private SchemaCatalog(Definitions definitions, Map<GroupVersionKind, KindSchema> kinds) {
        this.definitions = definitions;
        this.kinds = Map.copyOf(kinds);
    }

    private static final class Bundled {
        static final SchemaCatalog CATALOG = load();
    }

    /** The catalog of the vendored schemas, loaded the first time it is asked for. */
    public static SchemaCatalog bundled() {
        return Bundled.CATALOG;
    }

    /** The schema of a kind at a version, if Berth has one. */
    public Optional<KindSchema> schema(String group, String version, String kind) {
        return Optional.ofNullable(kinds.get(new GroupVersionKind(group, version, kind)));
    }

    /** Kubernetes' definitions (ObjectMeta and what the built-in kinds use), by their OpenAPI name. */
    public Definitions definitions() {
        return definitions;
    }

    static SchemaCatalog load() {
        ObjectNode swagger = (ObjectNode) read(KUBERNETES);
        Definitions definitions = new Definitions((ObjectNode) swagger.get("definitions"));
        Map<GroupVersionKind, KindSchema> kinds = new HashMap<>();
        definitions.names().forEach(name -> {
            JsonNode definition = definitions.get(name).orElseThrow();
            for (JsonNode gvk : definition.path("x-kubernetes-group-version-kind")) {
                GroupVersionKind key = new GroupVersionKind(gvk.path("group").asText(), gvk.path("version").asText(), gvk.path("kind").asText());
                kinds.put(key, KindSchema.builtIn(key, name, definitions));
            }
        });
        for (String crd : CRDS) {
            JsonNode definition = read(crd + ".json.gz");
            String group = definition.path("spec").path("group").asText();
            String kind = definition.path("spec").path("names").path("kind").asText();
            for (JsonNode version : definition.path("spec").path("versions")) {
                if (!version.path("served").asBoolean(true)) continue;
                GroupVersionKind key = new GroupVersionKind(group, version.path("name").asText(), kind);
                ObjectNode schema = (ObjectNode) version.path("schema").path("openAPIV3Schema");
                if (kind.equals("Workload")) BerthStatusFields.addTo(schema);
                kinds.put(key, KindSchema.custom(key, schema, definitions));
            }
        }
        return new SchemaCatalog(definitions, kinds);
    }

    private static JsonNode read(String resource) {
        try (InputStream in = SchemaCatalog.class.getResourceAsStream("/schemas/" + resource)) {
            if (in == null) throw new IllegalStateException("schema resource missing: /schemas/" + resource);
            return JSON.readTree(new GZIPInputStream(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read schema /schemas/" + resource, e);
        }
    }

    /** A kind at one version. */
    public record GroupVersionKind(String group, String version, String kind) {}
}
