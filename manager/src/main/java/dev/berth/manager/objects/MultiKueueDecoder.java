package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.KueueApi;
import java.util.ArrayList;
import java.util.List;

/** Decodes Kueue's MultiKueueCluster and MultiKueueConfig, and the MultiKueue parameters of an AdmissionCheck. */
public final class MultiKueueDecoder {
    static final List<String> LOCATION_TYPES = List.of("Secret", "Path");

    private MultiKueueDecoder() {}

    /** A worker cluster: where its kubeconfig is. */
    public record ClusterInfo(String name, String locationType, String location) {
        public boolean fromSecret() {
            return "Secret".equals(locationType);
        }
    }

    /** A set of worker clusters, and the Berth dispatch strategy (annotation; null means Default). */
    public record ConfigInfo(String name, List<String> clusters, String strategy) {
        public ConfigInfo {
            clusters = List.copyOf(clusters);
        }
    }

    public static ClusterInfo decodeCluster(ObjectNode object) {
        List<FieldCause> causes = new ArrayList<>();
        FieldReader root = FieldReader.root(object, causes);
        String name = ObjectNames.readName(root);
        FieldReader kubeConfig = root.field("spec").object().field("clusterSource").object().field("kubeConfig").object();
        String locationType = kubeConfig.field("locationType").isAbsent() ? "Secret" : kubeConfig.field("locationType").oneOf(LOCATION_TYPES);
        String location = kubeConfig.field("location").requiredText();
        root.throwIfInvalid(KueueApi.MULTIKUEUE_CLUSTER, name);
        return new ClusterInfo(name, locationType, location);
    }

    public static ConfigInfo decodeConfig(ObjectNode object) {
        List<FieldCause> causes = new ArrayList<>();
        FieldReader root = FieldReader.root(object, causes);
        String name = ObjectNames.readName(root);
        List<String> clusters = new ArrayList<>();
        for (FieldReader item : root.field("spec").object().field("clusters").items()) {
            String cluster = item.requiredText();
            if (cluster != null) clusters.add(cluster);
        }
        String strategy = object.path("metadata").path("annotations").path(Annotations.DISPATCH_STRATEGY).asText(null);
        try {
            dev.berth.manager.dispatch.DispatchStrategy.parse(strategy);
        } catch (IllegalArgumentException e) {
            causes.add(new FieldCause("metadata.annotations[" + Annotations.DISPATCH_STRATEGY + "]", e.getMessage(), "FieldValueNotSupported"));
        }
        root.throwIfInvalid(KueueApi.MULTIKUEUE_CONFIG, name);
        return new ConfigInfo(name, clusters, strategy);
    }

    /** The MultiKueueConfig an AdmissionCheck's spec.parameters names, or null when it names none. */
    public static String configOf(ObjectNode admissionCheck) {
        var parameters = admissionCheck.path("spec").path("parameters");
        if (!KueueApi.MULTIKUEUE_CONFIG.equals(parameters.path("kind").asText())) return null;
        String name = parameters.path("name").asText("");
        return name.isEmpty() ? null : name;
    }
}
