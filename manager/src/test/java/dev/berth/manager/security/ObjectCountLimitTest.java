package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.api.NamespaceObjectCounts;
import dev.berth.manager.api.ObjectCountLimits;
import dev.berth.manager.security.SecureManager.Reply;
import dev.berth.manager.store.ChangeFeedStore;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectKey;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-namespace object counts (issue 12, class 5): a tenant who creates Workloads in a loop stops at
 * the namespace's limit with kube-apiserver's ResourceQuota refusal (403 "exceeded quota"), nothing
 * stored; other namespaces are unaffected; deleting frees a slot; dry runs and admins are held too.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ObjectCountLimitTest {
    static final String TEAM_A = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads";
    static final String TEAM_B = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-b/workloads";
    static final int LIMIT = 5;

    @TempDir
    static Path dir;
    SecureManager api;

    @BeforeAll
    void start() throws Exception {
        api = new SecureManager(dir, SecurityOptions.DEFAULT_TENANT_RATE, Optional.empty());
        api.manager.objectCountLimits(ObjectCountLimits.parse("workloads.kueue.x-k8s.io=" + LIMIT));
    }

    @AfterAll
    void stop() throws Exception {
        api.close();
    }

    @Test
    void aNamespaceHoldsNoMoreWorkloadsThanItsLimit() throws Exception {
        for (int i = 0; i < LIMIT; i++) {
            Reply created = api.send("POST", TEAM_A, SecureManager.ALICE, "application/yaml", ForgedPriorityTest.workload("w" + i, ""));
            assertThat(created.code()).as(created.body().toString()).isEqualTo(201);
        }
        List<String> before = api.contents();

        Reply tenant = api.send("POST", TEAM_A, SecureManager.ALICE, "application/yaml", ForgedPriorityTest.workload("one-more", ""));
        Reply admin = api.send("POST", TEAM_A, SecureManager.ADMIN, "application/yaml", ForgedPriorityTest.workload("admin-too", ""));
        Reply dryRun = api.send("POST", TEAM_A + "?dryRun=All", SecureManager.ALICE, "application/yaml", ForgedPriorityTest.workload("dry", ""));

        for (Reply refused : List.of(tenant, admin, dryRun)) {
            assertThat(refused.code()).as(refused.body().toString()).isEqualTo(403);
            assertThat(refused.message()).contains("is forbidden: exceeded quota: berth-object-counts, requested: count/workloads.kueue.x-k8s.io=1, "
                    + "used: count/workloads.kueue.x-k8s.io=" + LIMIT + ", limited: count/workloads.kueue.x-k8s.io=" + LIMIT);
        }
        assertThat(api.contents()).isEqualTo(before);

        Reply otherTeam = api.send("POST", TEAM_B, SecureManager.BOB, "application/yaml", ForgedPriorityTest.workload("b0", ""));
        assertThat(otherTeam.code()).as(otherTeam.body().toString()).isEqualTo(201);

        assertThat(api.send("DELETE", TEAM_A + "/w0", SecureManager.ALICE, null, null).code()).isEqualTo(200);
        Reply afterDelete = api.send("POST", TEAM_A, SecureManager.ALICE, "application/yaml", ForgedPriorityTest.workload("w0-again", ""));
        assertThat(afterDelete.code()).as(afterDelete.body().toString()).isEqualTo(201);
    }

    /** The counter follows the store's writes, including those made before it was first asked and by Berth itself. */
    @Test
    void countsFollowEveryWriteWithoutListingPerCreate() {
        ChangeFeedStore store = new ChangeFeedStore(new MemoryObjectStore());
        NamespaceObjectCounts counts = new NamespaceObjectCounts(store, ObjectCountLimits.DEFAULTS);
        store.listen(counts);
        String workloads = "kueue.x-k8s.io/workloads";
        for (int i = 0; i < 3; i++) store.create(ObjectKey.of(workloads, "ns", "before-" + i), object("before-" + i));
        assertThat(counts.count(workloads, "ns")).isEqualTo(3);

        for (int i = 0; i < 4; i++) store.create(ObjectKey.of(workloads, "ns", "after-" + i), object("after-" + i));
        store.create(ObjectKey.of(workloads, "other", "x"), object("x"));
        store.delete(ObjectKey.of(workloads, "ns", "before-0"));
        store.replace(ObjectKey.of(workloads, "ns", "after-0"), object("after-0"), null);

        assertThat(counts.count(workloads, "ns")).isEqualTo(6).isEqualTo(store.list(workloads, "ns").size());
        assertThat(counts.count(workloads, "other")).isEqualTo(1);
    }

    @Test
    void theFlagReadsResourceQuotaStyleNames() {
        ObjectCountLimits limits = ObjectCountLimits.parse("count/jobs.batch=7, pods=9,default=11");
        assertThat(limits.perResource()).containsEntry("jobs.batch", 7).containsEntry("pods", 9)
                .containsEntry("workloads.kueue.x-k8s.io", ObjectCountLimits.DEFAULTS.perResource().get("workloads.kueue.x-k8s.io"));
        assertThat(limits.otherwise()).isEqualTo(11);
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode object(String name) {
        com.fasterxml.jackson.databind.node.ObjectNode object = SecureManager.JSON.createObjectNode();
        object.putObject("metadata").put("name", name);
        return object;
    }
}
