package dev.berth.manager.api;

import static dev.berth.manager.api.KubernetesProtobufTest.concat;
import static dev.berth.manager.api.KubernetesProtobufTest.envelope;
import static dev.berth.manager.api.KubernetesProtobufTest.message;
import static dev.berth.manager.api.KubernetesProtobufTest.string;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.testing.ManagerHarness;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Protobuf request bodies on a real manager (issue 13): kubectl's create of a built-in kind is stored and
 * answered in JSON, a replace in protobuf is applied, a malformed body is a 400 that stores nothing, and a
 * custom resource in protobuf is 415 as kube-apiserver answers.
 */
class ProtobufHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    private static final String ACCEPT = "application/vnd.kubernetes.protobuf,application/json";

    record Reply(int code, String contentType, JsonNode body) {}

    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.empty();

    @Test
    void kubectlsProtobufCreateIsStoredAndAnsweredInJson() throws Exception {
        Reply created = call("POST", "/api/v1/namespaces?fieldManager=kubectl-create&fieldValidation=Strict", fixture("namespace.bin"));
        assertThat(created.code()).isEqualTo(201);
        assertThat(created.contentType()).startsWith("application/json");
        assertThat(created.body().path("metadata").path("name").asText()).isEqualTo("team-x");
        assertThat(call("GET", "/api/v1/namespaces/team-x", null).code()).isEqualTo(200);
    }

    @Test
    void aProtobufReplaceIsApplied() throws Exception {
        assertThat(call("POST", "/api/v1/namespaces", envelope("v1", "Namespace", message(1, string(1, "replaced")))).code()).isEqualTo(201);
        byte[] labelled = envelope("v1", "Namespace", message(1, concat(string(1, "replaced"), message(11, concat(string(1, "tier"), string(2, "gold"))))));
        assertThat(call("PUT", "/api/v1/namespaces/replaced", labelled).code()).isEqualTo(200);
        assertThat(call("GET", "/api/v1/namespaces/replaced", null).body().path("metadata").path("labels").path("tier").asText()).isEqualTo("gold");
    }

    @Test
    void aMalformedProtobufBodyIsRefusedAndNothingIsStored() throws Exception {
        byte[] job = fixture("job.bin");
        Reply refused = call("POST", "/apis/batch/v1/namespaces/default/jobs", Arrays.copyOf(job, job.length - 9));
        assertThat(refused.code()).isEqualTo(400);
        assertThat(refused.body().path("message").asText()).contains("protobuf body is malformed");
        assertThat(call("GET", "/apis/batch/v1/namespaces/default/jobs/j", null).code()).isEqualTo(404);
    }

    @Test
    void aCustomResourceInProtobufIsUnsupportedMediaType() throws Exception {
        Reply refused = call("POST", "/apis/kueue.x-k8s.io/v1beta2/resourceflavors",
                envelope("kueue.x-k8s.io/v1beta2", "ResourceFlavor", message(1, string(1, "f"))));
        assertThat(refused.code()).isEqualTo(415);
        assertThat(call("GET", "/apis/kueue.x-k8s.io/v1beta2/resourceflavors/f", null).code()).isEqualTo(404);
    }

    private static Reply call(String method, String path, byte[] body) throws Exception {
        HttpResponse<String> response = harness.client().exchange(method, path,
                body == null ? Map.of("Accept", ACCEPT) : Map.of("Accept", ACCEPT, "Content-Type", PROTOBUF),
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        return new Reply(response.statusCode(), response.headers().firstValue("content-type").orElse(""), JSON.readTree(response.body()));
    }

    private static byte[] fixture(String name) throws Exception {
        try (InputStream in = ProtobufHttpTest.class.getResourceAsStream("/protobuf/" + name)) {
            return in.readAllBytes();
        }
    }
}
