package dev.berth.manager.clusters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.testing.PatchRefusals;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.vertx.core.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A lease renewal or a commit of a copy at the manager's own epoch is one PATCH, with no read before it; every other
 * case (an older epoch to raise, a newer one, another attempt, a copy gone) ends as the read-and-patch always did.
 */
class ClusterCallsPatchTest {
    private static final String NS = "team-a";
    private final CopyRequestCounter worker = new CopyRequestCounter();
    private MockServerCalls mock;
    private KubernetesClient admin;
    private ClusterCalls calls;

    @BeforeEach
    void start() throws Exception {
        mock = MockServerCalls.start(PatchRefusals.answered(worker));
        calls = mock.calls();
        admin = mock.server().createClient();
    }

    @AfterEach
    void stop() {
        admin.close();
        mock.close();
    }

    @Test
    void aRenewalAtOurEpochIsOnePatchAndNoRead() {
        stored("w", "a-1", 7, false);
        worker.resetCounts();

        await(calls.renew(NS, "w", "2026-12-03T10:00:00Z", 7));

        assertThat(worker.reads.get()).as("reads of the copy").isZero();
        assertThat(worker.patches.get()).isEqualTo(1);
        assertThat(copy("w").getSpec().getLeaseRenewTime()).isEqualTo("2026-12-03T10:00:00Z");
        assertThat(copy("w").getSpec().getFencingEpoch()).isEqualTo(7);
    }

    @Test
    void aRenewalRaisesAnOlderEpochAndLeavesANewerOne() {
        stored("older", "a-1", 3, false);
        stored("newer", "a-2", 9, false);

        await(calls.renew(NS, "older", "2026-12-03T10:00:00Z", 7));
        await(calls.renew(NS, "newer", "2026-12-03T10:00:00Z", 7));

        assertThat(copy("older").getSpec().getFencingEpoch()).isEqualTo(7);
        assertThat(copy("older").getSpec().getLeaseRenewTime()).isEqualTo("2026-12-03T10:00:00Z");
        assertThat(copy("newer").getSpec().getFencingEpoch()).as("a newer leader's stamp stays").isEqualTo(9);
        assertThat(copy("newer").getSpec().getLeaseRenewTime()).isEqualTo("2026-12-03T10:00:00Z");
    }

    @Test
    void aCommitOfOurAttemptAtOurEpochIsOnePatchAndNoRead() {
        stored("w", "a-1", 7, true);
        worker.resetCounts();

        await(calls.commit(NS, "w", "a-1", "2026-12-03T10:00:00Z", 7));

        assertThat(worker.reads.get()).isZero();
        assertThat(worker.patches.get()).isEqualTo(1);
        assertThat(copy("w").getSpec().getReservation()).isFalse();
        assertThat(copy("w").getSpec().getLeaseRenewTime()).isEqualTo("2026-12-03T10:00:00Z");
    }

    @Test
    void aCommitRaisesAnOlderEpoch() {
        stored("w", "a-1", 3, true);

        await(calls.commit(NS, "w", "a-1", "2026-12-03T10:00:00Z", 7));

        assertThat(copy("w").getSpec().getReservation()).isFalse();
        assertThat(copy("w").getSpec().getFencingEpoch()).isEqualTo(7);
    }

    @Test
    void aCommitOfAnotherAttemptOrUnderANewerEpochIsRefusedWith409AndChangesNothing() {
        stored("other", "a-2", 7, true);
        stored("newer", "a-1", 9, true);

        assertThatThrownBy(() -> await(calls.commit(NS, "other", "a-1", "2026-12-03T10:00:00Z", 7))).hasStackTraceContaining("409");
        assertThatThrownBy(() -> await(calls.commit(NS, "newer", "a-1", "2026-12-03T10:00:00Z", 7))).hasStackTraceContaining("409");

        assertThat(copy("other").getSpec().getReservation()).isTrue();
        assertThat(copy("other").getSpec().getLeaseRenewTime()).isNull();
        assertThat(copy("newer").getSpec().getReservation()).isTrue();
        assertThat(copy("newer").getSpec().getFencingEpoch()).isEqualTo(9);
    }

    @Test
    void renewingOrCommittingACopyThatIsGoneFailsWith404() {
        assertThatThrownBy(() -> await(calls.renew(NS, "gone", "2026-12-03T10:00:00Z", 7))).hasStackTraceContaining("404");
        assertThatThrownBy(() -> await(calls.commit(NS, "gone", "a-1", "2026-12-03T10:00:00Z", 7))).hasStackTraceContaining("404");
    }

    private void stored(String name, String attemptId, long epoch, boolean reservation) {
        RemoteWorkload attempt = new RemoteWorkload();
        attempt.setMetadata(new ObjectMetaBuilder().withNamespace(NS).withName(name).build());
        RemoteWorkloadSpec spec = new RemoteWorkloadSpec();
        spec.setOrigin("test-manager");
        spec.setWorkloadName(name);
        spec.setAttemptId(attemptId);
        spec.setFencingEpoch(epoch);
        if (reservation) spec.setReservation(true);
        attempt.setSpec(spec);
        admin.resources(RemoteWorkload.class).inNamespace(NS).resource(attempt).create();
    }

    private RemoteWorkload copy(String name) {
        return admin.resources(RemoteWorkload.class).inNamespace(NS).withName(name).get();
    }

    private static <T> T await(Future<T> call) {
        return call.toCompletionStage().toCompletableFuture().orTimeout(30, TimeUnit.SECONDS).join();
    }

    /** The CRUD API server, counting reads and patches of one RemoteWorkload. */
    static final class CopyRequestCounter extends KubernetesCrudDispatcher {
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger patches = new AtomicInteger();

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            if (request.getPath().matches(".*/remoteworkloads/[^/?]+(\\?.*)?")) {
                if ("GET".equals(request.getMethod())) reads.incrementAndGet();
                if ("PATCH".equals(request.getMethod())) patches.incrementAndGet();
            }
            return super.dispatch(request);
        }

        void resetCounts() {
            reads.set(0);
            patches.set(0);
        }
    }
}
