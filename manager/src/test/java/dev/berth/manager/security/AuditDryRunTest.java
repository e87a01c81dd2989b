package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.security.SecureManager.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * kubectl and client-go ask for a dry-run delete in the DeleteOptions body, not in the query. The
 * audit log must record such a delete as a dry run, as it records one asked for in the query: an
 * operator reading the log must not see a delete that never happened.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditDryRunTest {
    static final String JOBS = "/apis/batch/v1/namespaces/team-a/jobs";

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
    void aDeleteAskingForADryRunInItsBodyIsAuditedAsADryRunAndDeletesNothing() throws Exception {
        Reply created = api.sendBytes("POST", JOBS, SecureManager.ALICE, "application/yaml",
                TenantAuthorizationTest.job("dry-in-body", "").getBytes(StandardCharsets.UTF_8));
        assertThat(created.code()).as(created.body().toString()).isEqualTo(201);

        Reply dryRun = api.sendBytes("DELETE", JOBS + "/dry-in-body", SecureManager.ALICE, "application/json",
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"dryRun\":[\"All\"],\"propagationPolicy\":\"Background\"}"
                        .getBytes(StandardCharsets.UTF_8));
        assertThat(dryRun.code()).as(dryRun.body().toString()).isEqualTo(200);
        assertThat(api.get(JOBS + "/dry-in-body", SecureManager.ALICE).code()).isEqualTo(200);
        assertThat(deleteAudit("dry-in-body").path("dryRun").asBoolean()).isTrue();

        Reply real = api.sendBytes("DELETE", JOBS + "/dry-in-body", SecureManager.ALICE, "application/json",
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Background\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(real.code()).as(real.body().toString()).isEqualTo(200);
        assertThat(api.get(JOBS + "/dry-in-body", SecureManager.ALICE).code()).isEqualTo(404);
        List<JsonNode> deletes = deleteAudits("dry-in-body");
        assertThat(deletes).hasSize(2);
        assertThat(deletes.get(1).path("dryRun").asBoolean()).as("the real delete").isFalse();
    }

    private JsonNode deleteAudit(String name) {
        return await().atMost(Duration.ofSeconds(10)).until(() -> deleteAudits(name), lines -> !lines.isEmpty()).get(0);
    }

    private List<JsonNode> deleteAudits(String name) throws Exception {
        return api.auditLines().stream().map(AuditDryRunTest::json)
                .filter(line -> line.path("verb").asText().equals("delete") && line.path("name").asText().equals(name)).toList();
    }

    private static JsonNode json(String line) {
        try {
            return SecureManager.JSON.readTree(line);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
