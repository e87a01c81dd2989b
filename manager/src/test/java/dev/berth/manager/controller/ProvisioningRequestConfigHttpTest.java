package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kueue's ProvisioningRequestConfig over real HTTP: served at v1beta2 and v1beta1, defaulted as Kueue's
 * CRD defaults it, refused with 422 naming the field (nothing stored), and the Active condition of a
 * provisioning AdmissionCheck following whether its config exists.
 */
class ProvisioningRequestConfigHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIGS = "/apis/kueue.x-k8s.io/v1beta2/provisioningrequestconfigs";

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty();

    @Test
    void aConfigIsStoredWithKueuesRetryDefaultsAndReadableAtV1beta1() throws Exception {
        HttpResponse<String> created = send("POST", CONFIGS, config("prov", "provisioningClassName: check-capacity.autoscaling.x-k8s.io\n"
                + "  parameters:\n    ValidUntilSeconds: \"60\"\n  managedResources: [nvidia.com/gpu]\n  retryStrategy:\n    backoffBaseSeconds: 5\n"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

        JsonNode stored = JSON.readTree(send("GET", CONFIGS + "/prov", null, null).body());
        JsonNode retry = stored.path("spec").path("retryStrategy");
        assertThat(retry.path("backoffLimitCount").asInt()).isEqualTo(3);
        assertThat(retry.path("backoffBaseSeconds").asInt()).isEqualTo(5);
        assertThat(retry.path("backoffMaxSeconds").asInt()).isEqualTo(1800);
        HttpResponse<String> v1beta1 = send("GET", "/apis/kueue.x-k8s.io/v1beta1/provisioningrequestconfigs/prov", null, null);
        assertThat(v1beta1.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(v1beta1.body()).path("spec").path("provisioningClassName").asText())
                .isEqualTo("check-capacity.autoscaling.x-k8s.io");
    }

    @Test
    void invalidFieldsAreRefusedWith422NamingTheFieldAndNothingIsStored() throws Exception {
        assertRefused(config("a", "parameters: {}\n"), "spec.provisioningClassName");
        assertRefused(config("b", "provisioningClassName: Not_A_Class\n"), "spec.provisioningClassName");
        assertRefused(config("c", "provisioningClassName: x.io\n  retryStrategy:\n    backoffLimitCount: -1\n"), "spec.retryStrategy.backoffLimitCount");
        assertRefused(config("d", "provisioningClassName: x.io\n  podSetMergePolicy: Whatever\n"), "spec.podSetMergePolicy");
        assertRefused(config("e", "provisioningClassName: x.io\n  managedResources: [cpu, cpu]\n"), "spec.managedResources[1]");
        assertRefused(config("f", "provisioningClassName: x.io\n  podSetUpdates:\n    nodeSelector:\n    - key: pool\n"),
                "spec.podSetUpdates.nodeSelector[0].valueFromProvisioningClassDetail");
        assertRefused(config("g", "provisioningClassName: x.io\n  parameters:\n    long: \"" + "x".repeat(256) + "\"\n"), "spec.parameters[long]");

        JsonNode list = JSON.readTree(send("GET", CONFIGS, null, null).body());
        assertThat(list.path("items")).isEmpty();
    }

    @Test
    void aProvisioningCheckIsActiveOnlyWhileItsConfigExists() throws Exception {
        assertThat(send("POST", "/apis/kueue.x-k8s.io/v1beta2/admissionchecks", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: AdmissionCheck\n"
                + "metadata:\n  name: scale-up\nspec:\n  controllerName: kueue.x-k8s.io/provisioning-request\n  parameters:\n"
                + "    apiGroup: kueue.x-k8s.io\n    kind: ProvisioningRequestConfig\n    name: prov\n").statusCode()).isEqualTo(201);
        JsonNode inactive = await().atMost(Duration.ofSeconds(10)).until(() -> active(), c -> c != null);
        assertThat(inactive.path("status").asText()).isEqualTo("False");
        assertThat(inactive.path("reason").asText()).isEqualTo("BadParametersRef");
        assertThat(inactive.path("message").asText()).isEqualTo("provisioningrequestconfigs.kueue.x-k8s.io \"prov\" not found");

        assertThat(send("POST", CONFIGS, config("prov", "provisioningClassName: check-capacity.autoscaling.x-k8s.io\n")).statusCode())
                .isEqualTo(201);
        JsonNode nowActive = await().atMost(Duration.ofSeconds(10)).until(() -> active(), c -> c != null && "True".equals(c.path("status").asText()));
        assertThat(nowActive.path("reason").asText()).isEqualTo("Active");
        assertThat(nowActive.path("message").asText()).isEqualTo("The admission check is active");

        assertThat(send("DELETE", CONFIGS + "/prov", null, null).statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> active(), c -> c != null && "False".equals(c.path("status").asText()));
    }

    private JsonNode active() throws Exception {
        JsonNode check = JSON.readTree(send("GET", "/apis/kueue.x-k8s.io/v1beta2/admissionchecks/scale-up", null, null).body());
        return ManagerClient.findCondition(check, "Active");
    }

    private void assertRefused(String yaml, String field) throws Exception {
        HttpResponse<String> refused = send("POST", CONFIGS, yaml);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
        JsonNode status = JSON.readTree(refused.body());
        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("message").asText()).contains(field);
        assertThat(status.path("details").path("causes").findValuesAsText("field")).contains(field);
    }

    private static String config(String name, String spec) {
        return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ProvisioningRequestConfig\nmetadata:\n  name: " + name + "\nspec:\n  " + spec;
    }

    private HttpResponse<String> send(String method, String path, String yaml) throws Exception {
        return send(method, path, "application/yaml", yaml);
    }

    private HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        return harness.client().send(method, path, contentType, body);
    }
}
