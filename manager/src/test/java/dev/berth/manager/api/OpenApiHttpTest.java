package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The OpenAPI documents carry every served kind's schema (issue 13): v3 per group version with
 * components.schemas tagged by group-version-kind, v2 as one swagger 2.0 document; every reference
 * resolves inside its document; v2 is JSON, and a protobuf-only client is told 406.
 */
class OpenApiHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PROTOBUF = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.empty();

    @Test
    void theV3IndexListsEveryServedGroupVersion() throws Exception {
        JsonNode paths = get("/openapi/v3", null).body().path("paths");

        for (String gv : List.of("api/v1", "apis/batch/v1", "apis/kueue.x-k8s.io/v1beta2", "apis/kueue.x-k8s.io/v1beta1",
                "apis/jobset.x-k8s.io/v1alpha2", "apis/scheduling.k8s.io/v1", "apis/rbac.authorization.k8s.io/v1")) {
            assertThat(paths.path(gv).path("serverRelativeURL").asText()).as(gv).isEqualTo("/openapi/v3/" + gv);
        }
    }

    @Test
    void aKueueGroupVersionDocumentHasEachKindsSchemaTaggedWithItsKind() throws Exception {
        JsonNode document = get("/openapi/v3/apis/kueue.x-k8s.io/v1beta2", null).body();
        JsonNode clusterQueue = document.at("/components/schemas/io.x-k8s.kueue.v1beta2.ClusterQueue");

        assertThat(clusterQueue.path("x-kubernetes-group-version-kind").toString())
                .isEqualTo("[{\"group\":\"kueue.x-k8s.io\",\"kind\":\"ClusterQueue\",\"version\":\"v1beta2\"}]");
        assertThat(clusterQueue.at("/properties/spec/properties/resourceGroups/description").asText()).contains("resource");
        assertThat(clusterQueue.at("/properties/spec/properties/cohortName").isObject()).isTrue();
        assertThat(clusterQueue.at("/properties/metadata/allOf/0/$ref").asText())
                .isEqualTo("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
        for (String kind : List.of("ResourceFlavor", "Cohort", "LocalQueue", "Workload", "WorkloadPriorityClass", "AdmissionCheck",
                "MultiKueueCluster", "MultiKueueConfig")) {
            assertThat(document.at("/components/schemas/io.x-k8s.kueue.v1beta2." + kind).isObject()).as(kind).isTrue();
        }
        assertThat(document.toString()).contains("fieldValidation");
        assertThat(danglingRefs(document, "#/components/schemas/", document.path("components").path("schemas"))).isEmpty();
    }

    @Test
    void theV1beta1DocumentHasTheV1beta1Shape() throws Exception {
        JsonNode document = get("/openapi/v3/apis/kueue.x-k8s.io/v1beta1", null).body();

        assertThat(document.at("/components/schemas/io.x-k8s.kueue.v1beta1.ClusterQueue/properties/spec/properties/cohort").isObject()).isTrue();
    }

    @Test
    void theCoreDocumentHasThePodAndEverythingItRefersTo() throws Exception {
        JsonNode document = get("/openapi/v3/api/v1", null).body();
        JsonNode schemas = document.path("components").path("schemas");

        assertThat(schemas.at("/io.k8s.api.core.v1.Pod/x-kubernetes-group-version-kind/0/kind").asText()).isEqualTo("Pod");
        assertThat(schemas.has("io.k8s.api.core.v1.Container")).isTrue();
        assertThat(danglingRefs(document, "#/components/schemas/", schemas)).isEmpty();
    }

    @Test
    void v2IsOneSwaggerDocumentWithEveryServedVersion() throws Exception {
        Reply reply = get("/openapi/v2", "application/json");
        JsonNode definitions = reply.body().path("definitions");

        assertThat(reply.code()).isEqualTo(200);
        assertThat(reply.body().path("swagger").asText()).isEqualTo("2.0");
        assertThat(definitions.has("io.x-k8s.kueue.v1beta2.ClusterQueue")).isTrue();
        assertThat(definitions.has("io.x-k8s.kueue.v1beta1.ClusterQueue")).isTrue();
        assertThat(definitions.has("io.k8s.api.batch.v1.Job")).isTrue();
        assertThat(definitions.has("io.x-k8s.jobset.v1alpha2.JobSet")).isTrue();
        assertThat(reply.body().toString()).doesNotContain("\"anyOf\"", "#/components/");
        assertThat(danglingRefs(reply.body(), "#/definitions/", definitions)).isEmpty();
    }

    @Test
    void everyKindDiscoveryListsHasItsSchemaInItsGroupVersionsDocument() throws Exception {
        List<String> missing = new ArrayList<>();
        var groupVersions = get("/openapi/v3", null).body().path("paths").fields();
        while (groupVersions.hasNext()) {
            var groupVersion = groupVersions.next();
            JsonNode document = get(groupVersion.getValue().path("serverRelativeURL").asText(), null).body();
            JsonNode schemas = document.path("components").path("schemas");
            List<String> tagged = new ArrayList<>();
            for (JsonNode schema : schemas) {
                for (JsonNode gvk : schema.path("x-kubernetes-group-version-kind")) tagged.add(gvk.path("kind").asText());
            }
            for (JsonNode resource : get("/" + groupVersion.getKey(), null).body().path("resources")) {
                String kind = resource.path("kind").asText();
                if (!resource.path("name").asText().contains("/") && !tagged.contains(kind)) missing.add(groupVersion.getKey() + " " + kind);
            }
            assertThat(danglingRefs(document, "#/components/schemas/", schemas)).as(groupVersion.getKey()).isEmpty();
        }

        assertThat(missing).isEmpty();
    }

    @Test
    void theServingAndTrainerKindsHaveTheirUpstreamSchemas() throws Exception {
        JsonNode apps = get("/openapi/v3/apis/apps/v1", null).body().path("components").path("schemas");
        JsonNode trainer = get("/openapi/v3/apis/trainer.kubeflow.org/v1alpha1", null).body().path("components").path("schemas");

        assertThat(apps.at("/io.k8s.api.apps.v1.DeploymentSpec/properties/replicas/type").asText()).isEqualTo("integer");
        assertThat(apps.at("/io.k8s.api.apps.v1.StatefulSetSpec/properties/volumeClaimTemplates/items").findValue("$ref").asText())
                .isEqualTo("#/components/schemas/io.k8s.api.core.v1.PersistentVolumeClaim");
        assertThat(trainer.at("/org.kubeflow.trainer.v1alpha1.TrainJob/properties/spec/properties/runtimeRef/required/0").asText()).isEqualTo("name");
        assertThat(trainer.at("/org.kubeflow.trainer.v1alpha1.ClusterTrainingRuntime/properties/spec/properties/mlPolicy").isObject()).isTrue();
        JsonNode definitions = get("/openapi/v2", "application/json").body().path("definitions");
        assertThat(definitions.has("io.k8s.api.apps.v1.StatefulSet")).isTrue();
        assertThat(definitions.has("org.kubeflow.trainer.v1alpha1.TrainingRuntime")).isTrue();
    }

    @Test
    void v2ToAProtobufOnlyClientIs406AndJsonWhenJsonIsAlsoAccepted() throws Exception {
        Reply protobufOnly = get("/openapi/v2", PROTOBUF);
        assertThat(protobufOnly.code()).isEqualTo(406);
        assertThat(protobufOnly.body().path("reason").asText()).isEqualTo("NotAcceptable");

        Reply either = get("/openapi/v2", PROTOBUF + ", application/json");
        assertThat(either.code()).isEqualTo(200);
        assertThat(either.contentType()).startsWith("application/json");
    }

    private static List<String> danglingRefs(JsonNode document, String prefix, JsonNode schemas) {
        List<String> dangling = new ArrayList<>();
        for (JsonNode ref : document.findValues("$ref")) {
            String name = ref.asText().startsWith(prefix) ? ref.asText().substring(prefix.length()) : null;
            if (name == null || !schemas.has(name)) dangling.add(ref.asText());
        }
        return dangling;
    }

    record Reply(int code, JsonNode body, String contentType) {}

    private static Reply get(String path, String accept) throws Exception {
        HttpResponse<String> response = harness.client().exchange("GET", path, accept == null ? Map.of() : Map.of("Accept", accept),
                HttpRequest.BodyPublishers.noBody());
        return new Reply(response.statusCode(), JSON.readTree(response.body()), response.headers().firstValue("content-type").orElse(""));
    }
}
