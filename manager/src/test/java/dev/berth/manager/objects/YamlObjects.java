package dev.berth.manager.objects;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/** Test inputs written as YAML, and a fixed priority class catalogue. */
final class YamlObjects {
    private static final YAMLMapper YAML = new YAMLMapper();

    private YamlObjects() {}

    static ObjectNode yaml(String text) {
        try {
            return (ObjectNode) YAML.readTree(text);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** WorkloadPriorityClass high=1000; PriorityClasses batch=100 and, when given, a globalDefault. */
    record Catalogue(PriorityClassInfo globalDefault) implements PriorityResolver {
        static final Catalogue NO_DEFAULT = new Catalogue(null);
        static final Catalogue WITH_DEFAULT = new Catalogue(new PriorityClassInfo("standard", 10, true));
        private static final Map<String, Integer> WORKLOAD_CLASSES = Map.of("high", 1000);
        private static final Map<String, Integer> POD_CLASSES = Map.of("batch", 100, "standard", 10);

        @Override
        public Integer workloadPriorityClass(String name) {
            return WORKLOAD_CLASSES.get(name);
        }

        @Override
        public Integer priorityClass(String name) {
            return POD_CLASSES.get(name);
        }

        @Override
        public PriorityClassInfo defaultPriorityClass() {
            return globalDefault;
        }
    }

    static List<String> fields(InvalidObjectException e) {
        return e.causes().stream().map(FieldCause::field).toList();
    }
}
