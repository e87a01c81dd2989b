package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.security.SecureManager.Reply;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * With security on, GET /metrics needs get on the non-resource URL /metrics, as on kube-apiserver:
 * anonymous 401, a tenant 403, an admin or a member of the example's berth:metrics-readers group 200.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetricsAccessTest {
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
    void metricsNeedGetOnTheMetricsUrl() throws Exception {
        assertThat(api.get("/metrics", null).code()).isEqualTo(401);
        Reply tenant = api.get("/metrics", SecureManager.ALICE);
        assertThat(tenant.code()).isEqualTo(403);
        assertThat(tenant.message()).contains("/metrics");
        assertThat(api.get("/metrics", SecureManager.ADMIN).code()).isEqualTo(200);
    }

    @Test
    void aScraperBoundToTheMetricsReaderRoleMayScrapeAndNothingElse() throws Exception {
        Reply binding = api.send("POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", SecureManager.ADMIN, "application/yaml",
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: bob-scrapes}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: berth-metrics-reader}\n"
                        + "subjects: [{kind: User, name: bob}]\n");
        assertThat(binding.code()).as(binding.body().toString()).isEqualTo(201);
        Reply scrape = api.get("/metrics", SecureManager.BOB);
        assertThat(scrape.code()).isEqualTo(200);
        assertThat(scrape.headers().firstValue("content-type").orElse("")).contains("text/plain");
        assertThat(api.get("/apis/kueue.x-k8s.io/v1beta2/clusterqueues", SecureManager.BOB).code()).isEqualTo(403);
    }
}
