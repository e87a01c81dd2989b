package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.security.SecureManager.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The serving kinds and their scale subresource go through the same authentication, authorization and audit as
 * every other resource: no token is 401, another tenant may neither create a Deployment in team-a nor scale
 * team-a's (the {@code deployments/scale} subresource is authorized on its own), nothing changes, and team-a's
 * own tenant (examples/rbac's tenant role) creates and scales it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServingKindAuthorizationTest {
    private static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/team-a/deployments";
    private static final String YAML = "application/yaml";
    private static final String SCALE_TO_THREE = "{\"spec\":{\"replicas\":3}}";

    @TempDir
    static Path dir;
    SecureManager api;
    String example;

    @BeforeAll
    void start() throws Exception {
        api = new SecureManager(dir, SecurityOptions.DEFAULT_TENANT_RATE, Optional.empty());
        example = Files.readString(SecureManager.EXAMPLES.resolve("jobs").resolve("deployment.yaml"))
                .replaceAll("(?m)^  namespace: .*$", "  namespace: team-a");
    }

    @AfterAll
    void stop() throws Exception {
        api.close();
    }

    @Test
    void withoutATokenADeploymentIsRefusedAndNothingIsStored() throws Exception {
        List<String> before = api.contents();

        assertThat(api.send("POST", DEPLOYMENTS, null, YAML, example).code()).isEqualTo(401);
        assertThat(api.contents()).isEqualTo(before);
    }

    @Test
    void anotherTenantCannotCreateOrScaleTeamAsDeploymentAndTeamAsOwnTenantCan() throws Exception {
        List<String> before = api.contents();
        Reply refused = api.send("POST", DEPLOYMENTS, SecureManager.BOB, YAML, example);
        assertThat(refused.code()).as(refused.body().toString()).isEqualTo(403);
        assertThat(api.contents()).isEqualTo(before);

        Reply created = api.send("POST", DEPLOYMENTS, SecureManager.ALICE, YAML, example);
        assertThat(created.code()).as(created.body().toString()).isEqualTo(201);
        Reply notScaled = api.send("PATCH", DEPLOYMENTS + "/vllm-server/scale", SecureManager.BOB, "application/merge-patch+json", SCALE_TO_THREE);
        assertThat(notScaled.code()).as(notScaled.body().toString()).isEqualTo(403);
        assertThat(api.get(DEPLOYMENTS + "/vllm-server", SecureManager.ALICE).body().path("spec").path("replicas").asInt()).isEqualTo(2);
        assertThat(api.auditLines()).anySatisfy(line -> assertThat(line).contains("deployments").contains("bob").contains("403"));

        Reply scaled = api.send("PATCH", DEPLOYMENTS + "/vllm-server/scale", SecureManager.ALICE, "application/merge-patch+json", SCALE_TO_THREE);
        assertThat(scaled.code()).as(scaled.body().toString()).isEqualTo(200);
        assertThat(api.get(DEPLOYMENTS + "/vllm-server", SecureManager.ALICE).body().path("spec").path("replicas").asInt()).isEqualTo(3);
    }
}
