package dev.berth.manager.config;

import dev.berth.manager.config.KueueConfiguration.ResourceTransformation;
import dev.berth.manager.config.KueueConfiguration.Resources;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The resources section: excludeResourcePrefixes, transformations (Retain by default), quotaCheckStrategy. */
final class ResourcesParser {
    private ResourcesParser() {}

    static Resources resources(ConfigSection section) {
        if (section == null) return Resources.NONE;
        List<String> excluded = section.strings("excludeResourcePrefixes");
        List<ResourceTransformation> transformations = new ArrayList<>();
        Set<String> inputs = new HashSet<>();
        for (ConfigSection item : section.sections("transformations")) {
            String input = item.string("input", null);
            if (input == null || input.isBlank()) throw new InvalidConfigurationException(item.path("input"), "must be specified");
            if (!inputs.add(input)) throw new InvalidConfigurationException(item.path("input"), "duplicate value \"" + input + "\"");
            String strategy = item.string("strategy", "Retain");
            if (!strategy.equals("Retain") && !strategy.equals("Replace")) {
                throw new InvalidConfigurationException(item.path("strategy"),
                        "unsupported value \"" + strategy + "\": supported values: \"Retain\", \"Replace\"");
            }
            String multiplyBy = item.string("multiplyBy", null);
            Map<String, String> outputs = new LinkedHashMap<>(item.scalars("outputs"));
            item.done();
            transformations.add(new ResourceTransformation(input, strategy, multiplyBy, Map.copyOf(outputs)));
        }
        String quotaCheck = section.string("quotaCheckStrategy", null);
        if (quotaCheck != null && !quotaCheck.equals("BlockUndeclared") && !quotaCheck.equals("IgnoreUndeclared")) {
            throw new InvalidConfigurationException(section.path("quotaCheckStrategy"),
                    "unsupported value \"" + quotaCheck + "\": supported values: \"BlockUndeclared\", \"IgnoreUndeclared\"");
        }
        List<Map<String, Object>> deviceClassMappings = section.objects("deviceClassMappings");
        section.done();
        return new Resources(excluded, List.copyOf(transformations), quotaCheck, List.copyOf(deviceClassMappings));
    }
}
