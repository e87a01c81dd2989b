package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.ProvisioningConfig;
import dev.berth.manager.model.ProvisioningConfig.RetryStrategy;
import dev.berth.protocol.KueueApi;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decodes and validates a ProvisioningRequestConfig as Kueue's CRD does (required provisioningClassName
 * as a DNS subdomain, at most 100 parameters of at most 255 characters, at most 100 distinct
 * managedResources, at most 8 podSetUpdates.nodeSelector entries with distinct qualified-name keys,
 * podSetMergePolicy one of two values), plus non-negative retryStrategy numbers. {@link #withDefaults}
 * writes Kueue's retryStrategy defaults (3, 60 s, 1800 s) into the stored object.
 */
public final class ProvisioningConfigDecoder {
    static final List<String> MERGE_POLICIES = List.of("IdenticalPodTemplates", "IdenticalWorkloadSchedulingRequirements");
    private static final Pattern QUALIFIED_KEY = Pattern.compile(
            "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$");

    private ProvisioningConfigDecoder() {}

    public static ProvisioningConfig decode(ObjectNode object) {
        List<FieldCause> causes = new ArrayList<>();
        FieldReader root = FieldReader.root(object, causes);
        String name = ObjectNames.readName(root);
        FieldReader spec = root.field("spec").object();
        FieldReader className = spec.field("provisioningClassName");
        String provisioningClass = className.requiredText();
        if (provisioningClass != null) ObjectNames.validateName(className.path(), provisioningClass, causes);
        Map<String, String> parameters = parameters(spec.field("parameters"), causes);
        List<String> managed = managedResources(spec.field("managedResources"), causes);
        RetryStrategy retry = retryStrategy(spec.field("retryStrategy").object());
        Map<String, String> nodeSelector = nodeSelectorUpdates(spec.field("podSetUpdates").object().field("nodeSelector"), causes);
        String mergePolicy = spec.field("podSetMergePolicy").oneOf(MERGE_POLICIES);
        root.throwIfInvalid(KueueApi.PROVISIONING_REQUEST_CONFIG, name);
        return new ProvisioningConfig(name, provisioningClass, parameters, managed, retry, nodeSelector, mergePolicy);
    }

    /** Kueue's CRD defaults: retryStrategy {backoffLimitCount: 3, backoffBaseSeconds: 60, backoffMaxSeconds: 1800}, field by field. */
    public static ObjectNode withDefaults(ObjectNode object) {
        if (!(object.get("spec") instanceof ObjectNode spec)) return object;
        ObjectNode retry = spec.get("retryStrategy") instanceof ObjectNode existing ? existing : spec.putObject("retryStrategy");
        RetryStrategy defaults = RetryStrategy.DEFAULT;
        if (!retry.has("backoffLimitCount")) retry.put("backoffLimitCount", defaults.backoffLimitCount());
        if (!retry.has("backoffBaseSeconds")) retry.put("backoffBaseSeconds", defaults.backoffBaseSeconds());
        if (!retry.has("backoffMaxSeconds")) retry.put("backoffMaxSeconds", defaults.backoffMaxSeconds());
        return object;
    }

    private static Map<String, String> parameters(FieldReader field, List<FieldCause> causes) {
        Map<String, String> parameters = field.stringMap();
        if (parameters.size() > 100) causes.add(FieldCause.invalid(field.path(), "Too many: " + parameters.size() + ": must have at most 100 items"));
        parameters.forEach((key, value) -> {
            if (value.length() > 255) {
                causes.add(FieldCause.invalid(field.path() + "[" + key + "]", "Too long: may not be more than 255 bytes"));
            }
        });
        return parameters;
    }

    private static List<String> managedResources(FieldReader field, List<FieldCause> causes) {
        List<FieldReader> items = field.items();
        if (items.size() > 100) causes.add(FieldCause.invalid(field.path(), "Too many: " + items.size() + ": must have at most 100 items"));
        Set<String> seen = new HashSet<>();
        List<String> resources = new ArrayList<>();
        for (FieldReader item : items) {
            String resource = item.text();
            if (resource == null) continue;
            if (!seen.add(resource)) causes.add(new FieldCause(item.path(), "Duplicate value: \"" + resource + "\"", "FieldValueDuplicate"));
            else resources.add(resource);
        }
        return resources;
    }

    private static RetryStrategy retryStrategy(FieldReader retry) {
        RetryStrategy defaults = RetryStrategy.DEFAULT;
        return new RetryStrategy(nonNegative(retry.field("backoffLimitCount"), defaults.backoffLimitCount()),
                nonNegative(retry.field("backoffBaseSeconds"), defaults.backoffBaseSeconds()),
                nonNegative(retry.field("backoffMaxSeconds"), defaults.backoffMaxSeconds()));
    }

    private static int nonNegative(FieldReader field, int defaultValue) {
        Integer value = field.int32();
        if (value == null) return defaultValue;
        if (value < 0) {
            field.invalid("must be greater than or equal to 0");
            return defaultValue;
        }
        return value;
    }

    private static Map<String, String> nodeSelectorUpdates(FieldReader field, List<FieldCause> causes) {
        List<FieldReader> items = field.items();
        if (items.size() > 8) causes.add(FieldCause.invalid(field.path(), "Too many: " + items.size() + ": must have at most 8 items"));
        Map<String, String> updates = new LinkedHashMap<>();
        for (FieldReader item : items) {
            FieldReader entry = item.object();
            String key = entry.field("key").requiredText();
            String detail = entry.field("valueFromProvisioningClassDetail").requiredText();
            if (key == null || detail == null) continue;
            if (key.length() > 317 || !QUALIFIED_KEY.matcher(key).matches()) {
                entry.field("key").invalidValue(key, "must be a qualified name (at most 317 characters)");
            } else if (updates.containsKey(key)) {
                causes.add(new FieldCause(entry.field("key").path(), "Duplicate value: \"" + key + "\"", "FieldValueDuplicate"));
            } else {
                updates.put(key, detail);
            }
        }
        return updates;
    }
}
