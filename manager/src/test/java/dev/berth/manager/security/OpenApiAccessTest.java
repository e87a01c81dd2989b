package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** The OpenAPI documents are discovery: any authenticated user reads them, as kube-apiserver's system:discovery allows; anonymous callers do not. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiAccessTest {
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

    @Test
    void aTenantWithNoClusterRoleReadsBothOpenApiVersions() throws Exception {
        assertThat(api.get("/openapi/v3", SecureManager.BOB).code()).isEqualTo(200);
        SecureManager.Reply v3 = api.get("/openapi/v3/apis/kueue.x-k8s.io/v1beta2", SecureManager.BOB);
        assertThat(v3.code()).isEqualTo(200);
        assertThat(v3.body().at("/components/schemas/io.x-k8s.kueue.v1beta2.ClusterQueue").isObject()).isTrue();
        SecureManager.Reply v2 = api.get("/openapi/v2", SecureManager.BOB);
        assertThat(v2.code()).isEqualTo(200);
        assertThat(v2.body().at("/definitions/io.k8s.api.batch.v1.Job").isObject()).isTrue();
        assertThat(api.get("/openapi/v2", null).code()).isEqualTo(401);
    }
}
