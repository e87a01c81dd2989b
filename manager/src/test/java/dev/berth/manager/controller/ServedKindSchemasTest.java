package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ManifestReader;
import dev.berth.manager.api.ResourceRegistry;
import dev.berth.manager.api.ResourceType;
import dev.berth.manager.schema.FieldPruner;
import dev.berth.manager.schema.KindSchema;
import dev.berth.manager.schema.SchemaCatalog;
import dev.berth.manager.store.MemoryObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every kind the manager serves, at every version it is served at, has a vendored schema (issue 17: OpenAPI,
 * {@code kubectl explain} and field pruning for each kind), and the shipped examples lose nothing to pruning
 * under those schemas. No kind is exempt: the registry holds no Berth-internal kind (the manager's own records,
 * {@code Resources.MANAGER_RECORDS}, are not served, and the visibility API is not in the registry).
 */
class ServedKindSchemasTest {
    private static final SchemaCatalog CATALOG = SchemaCatalog.bundled();

    @Test
    void everyServedKindHasASchemaAtEveryServedVersion() {
        ResourceRegistry registry = ManagerResources.registry(ManagerState.readOnly(new MemoryObjectStore(Clock.systemUTC())));
        List<String> missing = new ArrayList<>();
        for (ResourceType type : registry.types()) {
            for (String version : registry.versions(type)) {
                if (CATALOG.schema(type.group(), version, type.kind()).isEmpty()) missing.add(type.apiVersion(version) + " " + type.kind());
            }
        }

        assertThat(registry.types()).hasSizeGreaterThan(30);
        assertThat(missing).as("served kinds without a schema").isEmpty();
    }

    @Test
    void theExamplesHaveNoFieldTheirSchemaWouldPrune() throws Exception {
        List<String> pruned = new ArrayList<>();
        int checked = 0;
        try (Stream<Path> files = Files.walk(Path.of("..", "examples"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (ObjectNode object : ManifestReader.read(Files.readAllBytes(file), "application/yaml")) {
                    KindSchema schema = schemaOf(object);
                    if (schema == null) {
                        pruned.add(file.getFileName() + ": no schema for " + object.path("apiVersion").asText() + " " + object.path("kind").asText());
                        continue;
                    }
                    checked++;
                    for (String field : FieldPruner.prune(schema, object, null)) pruned.add(file.getFileName() + ": " + object.path("kind").asText() + " " + field);
                }
            }
        }

        assertThat(checked).isGreaterThan(40);
        assertThat(pruned).isEmpty();
    }

    private static KindSchema schemaOf(ObjectNode object) {
        String apiVersion = object.path("apiVersion").asText();
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        return CATALOG.schema(group, apiVersion.substring(slash + 1), object.path("kind").asText()).orElse(null);
    }
}
