package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.security.SecureManager.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The self reviews over HTTPS: in discovery, create-only, open to every authenticated user (never to
 * an anonymous one), evaluated for the caller (or whom it impersonates), never stored, and malformed
 * reviews (JSON or protobuf) refused with 400/422 naming the field.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AccessReviewTest {
    static final String ACCESS = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
    static final String RULES = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";
    static final String WHOAMI = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
    static final String JSON = "application/json";
    /** kubectl auth can-i create pods/log -n ns1, as kubectl 1.32 sends it. */
    static final String CAN_I_PROTOBUF = "6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577123e0a100a0012001a0022002a0032003800420012200a1e0a036e733112066372656174651a0022002a04706f647332036c6f673a001a08080012001a0020001a002200";

    @TempDir
    static Path dir;
    SecureManager api;

    @BeforeAll
    void start() throws Exception {
        api = new SecureManager(dir, SecurityOptions.DEFAULT_TENANT_RATE, Optional.empty());
    }

    @AfterAll
    void stop() throws Exception {
        api.close();
    }

    private static String canI(String verb, String group, String resource, String namespace) {
        return "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\",\"spec\":{\"resourceAttributes\":"
                + "{\"verb\":\"" + verb + "\",\"group\":\"" + group + "\",\"resource\":\"" + resource + "\",\"namespace\":\"" + namespace + "\"}}}";
    }

    @Test
    void theReviewGroupsAreInDiscoveryAsCreateOnly() throws Exception {
        assertThat(api.get("/apis", SecureManager.BOB).body().toString()).contains("\"name\":\"authorization.k8s.io\"")
                .contains("\"name\":\"authentication.k8s.io\"");
        Reply authorization = api.get("/apis/authorization.k8s.io/v1", SecureManager.BOB);
        assertThat(authorization.body().path("resources").findValuesAsText("name"))
                .containsExactly("selfsubjectaccessreviews", "selfsubjectrulesreviews");
        assertThat(authorization.body().path("resources").get(0).path("verbs").toString()).isEqualTo("[\"create\"]");
        assertThat(api.get("/apis/authentication.k8s.io/v1", SecureManager.BOB).body().path("resources").get(0).path("kind").asText())
                .isEqualTo("SelfSubjectReview");
    }

    @Test
    void everyAuthenticatedUserAsksForItselfAndNothingIsStored() throws Exception {
        List<String> before = api.contents();
        Reply bobInB = api.send("POST", ACCESS, SecureManager.BOB, JSON, canI("create", "kueue.x-k8s.io", "workloads", "team-b"));
        assertThat(bobInB.code()).as(bobInB.body().toString()).isEqualTo(201);
        assertThat(bobInB.body().path("status").path("allowed").asBoolean()).isTrue();
        Reply bobInA = api.send("POST", ACCESS, SecureManager.BOB, JSON, canI("create", "kueue.x-k8s.io", "workloads", "team-a"));
        assertThat(bobInA.body().path("status").path("allowed").asBoolean()).isFalse();
        Reply asBob = api.sendBytes("POST", ACCESS, SecureManager.ADMIN, JSON,
                canI("create", "kueue.x-k8s.io", "workloads", "team-a").getBytes(StandardCharsets.UTF_8),
                Map.of("Impersonate-User", List.of("bob"), "Impersonate-Group", List.of("team-b")));
        assertThat(asBob.body().path("status").path("allowed").asBoolean()).isFalse();
        Reply rules = api.send("POST", RULES, SecureManager.BOB, JSON, "{\"spec\":{\"namespace\":\"team-b\"}}");
        assertThat(rules.code()).isEqualTo(201);
        assertThat(rules.body().path("status").path("incomplete").asBoolean()).isFalse();
        assertThat(rules.body().path("status").path("resourceRules").toString()).contains("\"workloads\"");
        assertThat(rules.body().path("status").path("nonResourceRules").toString()).contains("/apis/*");
        Reply elsewhere = api.send("POST", RULES, SecureManager.BOB, JSON, "{\"spec\":{\"namespace\":\"team-a\"}}");
        assertThat(elsewhere.body().path("status").path("resourceRules").toString()).doesNotContain("\"workloads\"");
        assertThat(api.send("POST", WHOAMI, SecureManager.BOB, JSON, "{}").body().path("status").path("userInfo").path("username").asText())
                .isEqualTo("bob");
        assertThat(api.contents()).isEqualTo(before);
    }

    @Test
    void kubectlsProtobufReviewIsRead() throws Exception {
        Reply reply = api.sendBytes("POST", ACCESS, SecureManager.ADMIN, "application/vnd.kubernetes.protobuf", HexFormat.of().parseHex(CAN_I_PROTOBUF));
        assertThat(reply.code()).as(reply.body().toString()).isEqualTo(201);
        // echoed as kube-apiserver and the JSON path do: empty strings are omitted (omitempty)
        assertThat(reply.body().path("spec").path("resourceAttributes").toString())
                .isEqualTo("{\"namespace\":\"ns1\",\"verb\":\"create\",\"resource\":\"pods\",\"subresource\":\"log\"}");
        assertThat(reply.body().path("status").path("allowed").asBoolean()).isTrue();
        byte[] truncated = HexFormat.of().parseHex(CAN_I_PROTOBUF.substring(0, 60));
        Reply malformed = api.sendBytes("POST", ACCESS, SecureManager.ADMIN, "application/vnd.kubernetes.protobuf", truncated);
        assertThat(malformed.code()).isEqualTo(400);
        assertThat(malformed.message()).contains("protobuf");
        Reply noEnvelope = api.sendBytes("POST", ACCESS, SecureManager.ADMIN, "application/vnd.kubernetes.protobuf", new byte[] {1, 2, 3});
        assertThat(noEnvelope.code()).isEqualTo(400);
    }

    @Test
    void aMalformedReviewIsRefusedNamingTheField() throws Exception {
        Reply neither = api.send("POST", ACCESS, SecureManager.BOB, JSON, "{\"spec\":{}}");
        assertThat(neither.code()).isEqualTo(422);
        assertThat(neither.body().path("details").path("causes").get(0).path("field").asText()).isEqualTo("spec.resourceAttributes");
        Reply both = api.send("POST", ACCESS, SecureManager.BOB, JSON,
                "{\"spec\":{\"resourceAttributes\":{\"verb\":\"get\"},\"nonResourceAttributes\":{\"path\":\"/x\",\"verb\":\"get\"}}}");
        assertThat(both.code()).isEqualTo(422);
        assertThat(both.body().path("details").path("causes").get(0).path("field").asText()).isEqualTo("spec.nonResourceAttributes");
        Reply notAString = api.send("POST", ACCESS, SecureManager.BOB, JSON, "{\"spec\":{\"resourceAttributes\":{\"verb\":[\"get\"]}}}");
        assertThat(notAString.code()).isEqualTo(422);
        assertThat(notAString.message()).contains("spec.resourceAttributes.verb");
        assertThat(api.send("POST", RULES, SecureManager.BOB, JSON, "{\"spec\":{\"namespace\":7}}").message()).contains("spec.namespace");
        assertThat(api.send("POST", ACCESS, SecureManager.BOB, JSON, "{not json").code()).isEqualTo(400);
        Reply tooLarge = api.send("POST", ACCESS, SecureManager.BOB, JSON, "{\"spec\":{\"x\":\"" + "a".repeat(70 * 1024) + "\"}}");
        assertThat(tooLarge.code()).isEqualTo(413);
    }

    @Test
    void reviewsAreCreateOnlyAndNeedAToken() throws Exception {
        for (String path : List.of(ACCESS, RULES, WHOAMI)) {
            assertThat(api.get(path, SecureManager.ADMIN).code()).as(path).isEqualTo(405);
            assertThat(api.send("DELETE", path, SecureManager.ADMIN, null, (String) null).code()).as(path).isEqualTo(405);
            assertThat(api.send("POST", path, null, JSON, "{}").code()).as(path).isEqualTo(401);
        }
    }
}
