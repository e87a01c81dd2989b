package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.dispatch.TopologyRequest;
import dev.berth.protocol.TopologyApi;
import java.util.List;

/**
 * A pod set's topology request (Kueue's TAS) in both its forms: the pod-template annotations
 * (podset-required/preferred/unconstrained-topology, podset-slice-required-topology with
 * podset-slice-size), validated with Kueue's rules and messages (jobframework's tas_validation), and
 * the Workload's spec.podSets[].topologyRequest they are carried into, validated as Kueue's Workload
 * webhook does.
 */
public final class PodSetTopologyRequests {
    static final int MAX_LEVEL_LENGTH = 63;

    private PodSetTopologyRequests() {}

    /** Checks a job's pod-template annotations; {@code metadataPath} is the template's metadata, e.g. spec.template.metadata. */
    public static void checkAnnotations(JsonNode template, String metadataPath, List<FieldCause> causes) {
        JsonNode annotations = template.path("metadata").path("annotations");
        String path = metadataPath + ".annotations";
        boolean required = annotations.has(TopologyApi.REQUIRED);
        boolean preferred = annotations.has(TopologyApi.PREFERRED);
        boolean unconstrained = annotations.has(TopologyApi.UNCONSTRAINED);
        boolean sliceRequired = annotations.has(TopologyApi.SLICE_REQUIRED);
        boolean sliceSize = annotations.has(TopologyApi.SLICE_SIZE);
        if ((required ? 1 : 0) + (preferred ? 1 : 0) + (unconstrained ? 1 : 0) > 1) {
            causes.add(FieldCause.invalid(path, "Invalid value: \"object\": must not contain more than one topology annotation: [\""
                    + TopologyApi.REQUIRED + "\", \"" + TopologyApi.PREFERRED + "\", \"" + TopologyApi.UNCONSTRAINED + "\"]"));
        }
        for (String key : List.of(TopologyApi.REQUIRED, TopologyApi.PREFERRED, TopologyApi.SLICE_REQUIRED)) {
            if (annotations.has(key)) LabelSyntax.validateKey(at(path, key), annotations.path(key).asText(""), causes);
        }
        if (unconstrained) {
            String value = annotations.path(TopologyApi.UNCONSTRAINED).asText("");
            if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false") && !List.of("1", "0", "t", "f", "T", "F").contains(value)) {
                causes.add(FieldCause.invalid(at(path, TopologyApi.UNCONSTRAINED), "Invalid value: " + FieldReader.quote(value)
                        + ": must be a boolean value"));
            }
        }
        if (sliceSize) {
            String value = annotations.path(TopologyApi.SLICE_SIZE).asText("");
            Integer size = parseInt(value);
            if (size == null) {
                causes.add(FieldCause.invalid(at(path, TopologyApi.SLICE_SIZE), "Invalid value: " + FieldReader.quote(value) + ": must be a numeric value"));
            } else if (size < 1) {
                causes.add(FieldCause.invalid(at(path, TopologyApi.SLICE_SIZE), "Invalid value: " + FieldReader.quote(value)
                        + ": must be greater than or equal to 1"));
            }
        }
        if (sliceRequired && !sliceSize) {
            causes.add(new FieldCause(at(path, TopologyApi.SLICE_SIZE), "Required value: must be set when '"
                    + TopologyApi.SLICE_REQUIRED + "' is specified", "FieldValueRequired"));
        }
        if (!sliceRequired && sliceSize) {
            causes.add(new FieldCause(at(path, TopologyApi.SLICE_SIZE), "Forbidden: may not be set when '"
                    + TopologyApi.SLICE_REQUIRED + "' is not specified", "FieldValueForbidden"));
        }
    }

    /** Kueue's upper bound: a slice is not larger than the pod set. */
    public static void checkSliceSizeAtMost(JsonNode template, int count, String metadataPath, List<FieldCause> causes) {
        Integer size = parseInt(template.path("metadata").path("annotations").path(TopologyApi.SLICE_SIZE).asText(""));
        if (size != null && size > count) {
            causes.add(FieldCause.invalid(at(metadataPath + ".annotations", TopologyApi.SLICE_SIZE), "Invalid value: \"" + size
                    + "\": must not be greater than pod set count " + count));
        }
    }

    /** The Workload topologyRequest the template's annotations ask for, or null when they ask for none. */
    public static ObjectNode fromAnnotations(JsonNode template) {
        JsonNode annotations = template.path("metadata").path("annotations");
        ObjectNode request = JsonNodeFactory.instance.objectNode();
        if (annotations.has(TopologyApi.REQUIRED)) request.put("required", annotations.path(TopologyApi.REQUIRED).asText());
        if (annotations.has(TopologyApi.PREFERRED)) request.put("preferred", annotations.path(TopologyApi.PREFERRED).asText());
        if (annotations.has(TopologyApi.UNCONSTRAINED) && isTrue(annotations.path(TopologyApi.UNCONSTRAINED).asText())) {
            request.put("unconstrained", true);
        }
        if (annotations.has(TopologyApi.SLICE_REQUIRED)) {
            request.put("podSetSliceRequiredTopology", annotations.path(TopologyApi.SLICE_REQUIRED).asText());
            Integer size = parseInt(annotations.path(TopologyApi.SLICE_SIZE).asText(""));
            if (size != null) request.put("podSetSliceSize", size);
        }
        return request.isEmpty() ? null : request;
    }

    /** Validates spec.podSets[i].topologyRequest of a Workload written directly. */
    public static void validate(JsonNode request, String path, int count, List<FieldCause> causes) {
        if (request.isMissingNode() || request.isNull()) return;
        for (String field : List.of("required", "preferred", "podSetSliceRequiredTopology")) {
            String value = request.path(field).asText("");
            if (value.length() > MAX_LEVEL_LENGTH) {
                causes.add(FieldCause.invalid(path + "." + field, "Too long: may not be more than " + MAX_LEVEL_LENGTH + " bytes"));
            }
        }
        int forms = (request.hasNonNull("required") ? 1 : 0) + (request.hasNonNull("preferred") ? 1 : 0)
                + (request.path("unconstrained").asBoolean(false) ? 1 : 0);
        if (forms > 1) {
            causes.add(FieldCause.invalid(path, "Invalid value: \"object\": must set at most one of required, preferred and unconstrained"));
        }
        JsonNode size = request.path("podSetSliceSize");
        if (request.hasNonNull("podSetSliceRequiredTopology")) {
            if (size.isMissingNode() || size.isNull()) {
                causes.add(new FieldCause(path + ".podSetSliceSize", "Required value: must be set when podSetSliceRequiredTopology is specified",
                        "FieldValueRequired"));
            } else if (!size.canConvertToInt() || size.asInt() <= 0) {
                causes.add(FieldCause.invalid(path + ".podSetSliceSize", "Invalid value: " + size + ": must be greater than 0"));
            } else if (size.asInt() > count) {
                causes.add(FieldCause.invalid(path + ".podSetSliceSize", "Invalid value: " + size + ": must not be greater than pod set count " + count));
            }
        } else if (!size.isMissingNode() && !size.isNull()) {
            causes.add(new FieldCause(path + ".podSetSliceSize", "Forbidden: may not be set when podSetSliceRequiredTopology is not specified",
                    "FieldValueForbidden"));
        }
    }

    /** The request as placement sees it, or null when the pod set has none. */
    public static TopologyRequest read(JsonNode request) {
        if (request == null || request.isMissingNode() || request.isNull()) return null;
        TopologyRequest read;
        if (request.hasNonNull("required")) {
            read = TopologyRequest.required(request.path("required").asText());
        } else if (request.hasNonNull("preferred")) {
            read = TopologyRequest.preferred(request.path("preferred").asText());
        } else if (request.path("unconstrained").asBoolean(false)) {
            read = TopologyRequest.unconstrained();
        } else if (request.hasNonNull("podSetSliceRequiredTopology")) {
            // Kueue: slices alone imply the slice level is required for each slice, the whole set unconstrained
            read = TopologyRequest.unconstrained();
        } else {
            return null;
        }
        if (request.hasNonNull("podSetSliceRequiredTopology") && request.path("podSetSliceSize").asInt(0) > 0) {
            read = read.sliced(request.path("podSetSliceRequiredTopology").asText(), request.path("podSetSliceSize").asInt());
        }
        return read;
    }

    private static String at(String path, String key) {
        return path + "[" + key + "]";
    }

    private static boolean isTrue(String value) {
        return value.equalsIgnoreCase("true") || value.equals("1") || value.equalsIgnoreCase("t");
    }

    private static Integer parseInt(String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
