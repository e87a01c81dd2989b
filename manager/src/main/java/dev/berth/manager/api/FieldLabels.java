package dev.berth.manager.api;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The field labels each kind can be selected by, as kube-apiserver's per-kind GetAttrs allow them:
 * metadata.name for every kind, metadata.namespace for namespaced ones, plus the kind's own (Pod,
 * Event, Job, Namespace, Secret). Each label maps to the dotted path of the object it reads and the
 * value an absent field reads as. Another kind's labels are one more row in {@link #BY_KIND}.
 */
final class FieldLabels {
    /** Where a field label reads its value from. */
    record Field(String path, String absent) {
        static Field at(String path) {
            return new Field(path, "");
        }
    }

    /** Keyed by {@code group/Kind} ("" group for core). */
    private static final Map<String, Map<String, Field>> BY_KIND = Map.of(
            "/Pod", fields(
                    "spec.nodeName", Field.at("spec.nodeName"),
                    "spec.restartPolicy", Field.at("spec.restartPolicy"),
                    "spec.schedulerName", Field.at("spec.schedulerName"),
                    "spec.serviceAccountName", Field.at("spec.serviceAccountName"),
                    "spec.hostNetwork", new Field("spec.hostNetwork", "false"),
                    "status.phase", Field.at("status.phase"),
                    "status.podIP", Field.at("status.podIP"),
                    "status.nominatedNodeName", Field.at("status.nominatedNodeName")),
            "/Event", fields(
                    "involvedObject.kind", Field.at("involvedObject.kind"),
                    "involvedObject.namespace", Field.at("involvedObject.namespace"),
                    "involvedObject.name", Field.at("involvedObject.name"),
                    "involvedObject.uid", Field.at("involvedObject.uid"),
                    "involvedObject.apiVersion", Field.at("involvedObject.apiVersion"),
                    "involvedObject.resourceVersion", Field.at("involvedObject.resourceVersion"),
                    "involvedObject.fieldPath", Field.at("involvedObject.fieldPath"),
                    "reason", Field.at("reason"),
                    "reportingComponent", Field.at("reportingComponent"),
                    "source", Field.at("source.component"),
                    "type", Field.at("type")),
            "batch/Job", fields("status.successful", new Field("status.succeeded", "0")),
            "/Namespace", fields("status.phase", Field.at("status.phase")),
            "/Secret", fields("type", Field.at("type")));

    private FieldLabels() {}

    /** The labels of a kind, or null when it allows no such label. */
    static Field of(ResourceType type, String label) {
        if (label.equals("metadata.name")) return Field.at("metadata.name");
        if (label.equals("metadata.namespace") && type.namespaced()) return Field.at("metadata.namespace");
        return BY_KIND.getOrDefault(type.group() + "/" + type.kind(), Map.of()).get(label);
    }

    private static Map<String, Field> fields(Object... pairs) {
        Map<String, Field> fields = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) fields.put((String) pairs[i], (Field) pairs[i + 1]);
        return Map.copyOf(fields);
    }
}
