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
 * The Kubeflow kinds the manager now serves go through the same authentication, authorization and audit as
 * every other resource, on the normalised path: no token is 401, another tenant's namespace (asked for
 * directly or through {@code ..}) is refused, nothing is stored, and each answer is audited.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubeflowJobAuthorizationTest {
    private static final String PYTORCH = "/apis/kubeflow.org/v1/namespaces/team-a/pytorchjobs";
    private static final String YAML = "application/yaml";

    @TempDir
    static Path dir;
    SecureManager api;
    String example;

    @BeforeAll
    void start() throws Exception {
        api = new SecureManager(dir, SecurityOptions.DEFAULT_TENANT_RATE, Optional.empty());
        example = Files.readString(SecureManager.EXAMPLES.resolve("jobs").resolve("pytorchjob.yaml"))
                .replaceAll("(?m)^  namespace: .*$", "  namespace: team-a");
    }

    @AfterAll
    void stop() throws Exception {
        api.close();
    }

    @Test
    void withoutATokenAPyTorchJobIsRefusedAndNothingIsStored() throws Exception {
        List<String> before = api.contents();

        assertThat(api.send("POST", PYTORCH, null, YAML, example).code()).isEqualTo(401);
        assertThat(api.get(PYTORCH, null).code()).isEqualTo(401);
        assertThat(api.contents()).isEqualTo(before);
    }

    @Test
    void anotherTenantCannotCreateOrReadPyTorchJobsInTeamA() throws Exception {
        List<String> before = api.contents();

        Reply created = api.send("POST", PYTORCH, SecureManager.BOB, YAML, example);
        assertThat(created.code()).as(created.body().toString()).isEqualTo(403);
        assertThat(api.get(PYTORCH, SecureManager.BOB).code()).isEqualTo(403);
        assertThat(api.contents()).isEqualTo(before);
        assertThat(api.get(PYTORCH, SecureManager.ALICE).code()).as("team-a's own tenant may read them").isEqualTo(200);
        assertThat(api.auditLines()).anySatisfy(line -> assertThat(line).contains("pytorchjobs").contains("bob").contains("403"));
    }

    @Test
    void aDotDotPathIntoTeamAIsJudgedOnTheNormalisedNamespace() throws Exception {
        List<String> before = api.contents();

        for (String path : List.of("/apis/kubeflow.org/v1/namespaces/team-b/../team-a/pytorchjobs",
                "/apis/kubeflow.org/v1/namespaces/team-b/%2e%2e/team-a/pytorchjobs")) {
            Reply reply = api.send("POST", path, SecureManager.BOB, YAML, example);
            assertThat(reply.code()).as(path + ": " + reply.body()).isIn(400, 403, 404);
        }
        assertThat(api.contents()).isEqualTo(before);
    }
}
