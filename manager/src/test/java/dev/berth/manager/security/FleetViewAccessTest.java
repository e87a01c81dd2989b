package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.security.SecureManager.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet-wide views of visibility.berth.dev (quota against capacity, the borrowing ledger, the
 * worker clusters) go through the same guard as every other route: no token is a 401, a tenant without
 * a rule for them a 403 naming the resource (they show every team's quota), an administrator reads
 * them; every refusal is audited. Path variants of these routes are covered by PathNormalisationTest.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FleetViewAccessTest {
    private static final String BERTH = "/apis/visibility.berth.dev/v1alpha1/";
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
    void onlyWhoMayReadTheFleetViewsGetsThem() throws Exception {
        for (String view : List.of("capacity", "borrowing", "clusters")) {
            int auditBefore = api.auditLines().size();
            assertThat(api.get(BERTH + view, null).code()).as(view + " without a token").isEqualTo(401);
            Reply tenant = api.get(BERTH + view, SecureManager.ALICE);
            assertThat(tenant.code()).as(view + " as a tenant").isEqualTo(403);
            assertThat(tenant.message()).contains(view);
            assertThat(api.auditLines()).as("both refusals are audited").hasSizeGreaterThanOrEqualTo(auditBefore + 2);
            Reply admin = api.get(BERTH + view, SecureManager.ADMIN);
            assertThat(admin.code()).as(view + " as an administrator").isEqualTo(200);
        }
        Reply capacity = api.get(BERTH + "capacity", SecureManager.ADMIN);
        assertThat(capacity.body().path("kind").asText()).isEqualTo("QuotaCapacityList");
        assertThat(capacity.body().path("items").size()).as("the example queues' flavors").isPositive();
    }
}
