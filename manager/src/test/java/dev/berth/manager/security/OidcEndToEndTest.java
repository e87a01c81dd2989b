package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.berth.manager.security.SecureManager.Reply;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * OIDC end to end: an issuer's JWKS served over HTTP on loopback, the manager configured with the
 * --oidc-* flags, and ID tokens sent as bearer tokens. A valid token maps user and groups and RBAC
 * applies to the group; expired, wrong audience, wrong issuer, bad signature and unknown key id are
 * 401; a rotated key (new kid) is fetched again.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OidcEndToEndTest {
    static final String ISSUER = "https://issuer.berth.test";
    static final String WORKLOADS = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads";

    @TempDir
    static Path dir;
    final Vertx issuerVertx = Vertx.vertx();
    final AtomicReference<JWKSet> published = new AtomicReference<>();
    final AtomicInteger fetches = new AtomicInteger();
    RSAKey signing;
    HttpServer issuer;
    SecureManager api;

    @BeforeAll
    void start() throws Exception {
        signing = new RSAKeyGenerator(2048).keyID("key-1").generate();
        published.set(new JWKSet(signing.toPublicJWK()));
        issuer = issuerVertx.createHttpServer().requestHandler(request -> {
            fetches.incrementAndGet();
            request.response().putHeader("content-type", "application/json").end(published.get().toString());
        }).listen(0, "127.0.0.1").await();
        OidcOptions oidc = SecurityFlags.parse(Map.of(
                "--oidc-issuer-url", ISSUER,
                "--oidc-client-id", "berth",
                "--oidc-jwks-url", "http://127.0.0.1:" + issuer.actualPort() + "/keys",
                "--oidc-username-claim", "email",
                "--oidc-groups-claim", "groups",
                "--oidc-groups-prefix", "oidc:"), dir).orElseThrow().oidc().orElseThrow();
        api = new SecureManager(dir, SecurityOptions.DEFAULT_TENANT_RATE, java.util.Optional.of(oidc));
        Reply binding = api.send("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings", SecureManager.ADMIN,
                "application/yaml", "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\n"
                        + "metadata: {name: oidc-team-a, namespace: team-a}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: berth-tenant}\n"
                        + "subjects: [{kind: Group, name: \"oidc:team-a\"}]\n");
        assertThat(binding.code()).as(binding.body().toString()).isEqualTo(201);
    }

    @AfterAll
    void stop() throws Exception {
        if (api != null) api.close();
        issuerVertx.close().await();
    }

    static JWTClaimsSet.Builder claims() {
        return new JWTClaimsSet.Builder().issuer(ISSUER).audience("berth").subject("u-42").claim("email", "carol@example.com")
                .claim("groups", List.of("team-a")).issueTime(new Date()).expirationTime(Date.from(Instant.now().plusSeconds(600)));
    }

    static String signed(RSAKey key, JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    @Test
    void aValidTokenIsTheUserAndRbacAppliesToItsGroup() throws Exception {
        String token = signed(signing, claims().build());
        assertThat(api.get(WORKLOADS, token).code()).isEqualTo(200);
        Reply otherTeam = api.get("/apis/kueue.x-k8s.io/v1beta2/namespaces/team-b/workloads", token);
        assertThat(otherTeam.code()).isEqualTo(403);
        assertThat(otherTeam.message()).contains("User \"carol@example.com\"");
        assertThat(api.get("/apis/kueue.x-k8s.io/v1beta2/clusterqueues", token).code()).isEqualTo(403);
    }

    @Test
    void brokenTokensAreUnauthorized() throws Exception {
        RSAKey stranger = new RSAKeyGenerator(2048).keyID("key-1").generate();
        RSAKey unknown = new RSAKeyGenerator(2048).keyID("nobody-knows-me").generate();
        Map<String, String> tokens = Map.of(
                "expired", signed(signing, claims().expirationTime(Date.from(Instant.now().minusSeconds(300))).build()),
                "wrong aud", signed(signing, claims().audience("someone-else").build()),
                "wrong iss", signed(signing, claims().issuer("https://evil.example").build()),
                "bad signature", signed(stranger, claims().build()),
                "unknown kid", signed(unknown, claims().build()));
        for (Map.Entry<String, String> token : tokens.entrySet()) {
            Reply reply = api.get(WORKLOADS, token.getValue());
            assertThat(reply.code()).as(token.getKey()).isEqualTo(401);
            assertThat(reply.body().path("reason").asText()).as(token.getKey()).isEqualTo("Unauthorized");
        }
    }

    @Test
    void aRotatedKeyIsFetchedAgain() throws Exception {
        assertThat(api.get(WORKLOADS, signed(signing, claims().build())).code()).isEqualTo(200);
        RSAKey rotated = new RSAKeyGenerator(2048).keyID("key-2").generate();
        String token = signed(rotated, claims().build());
        int fetchedBefore = fetches.get();
        published.set(new JWKSet(List.of(signing.toPublicJWK(), rotated.toPublicJWK())));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> api.get(WORKLOADS, token).code() == 200);
        assertThat(fetches.get()).isGreaterThan(fetchedBefore);
    }
}
