package dev.berth.manager.controller;

import static dev.berth.manager.testing.ManagerClient.KUEUE;
import static dev.berth.manager.testing.ManagerClient.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.clusters.ResilienceOptions;
import dev.berth.manager.dispatch.FailoverOptions;
import dev.berth.manager.dispatch.HealthOptions;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.testing.DispatchQueues;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MockWorkerClusters;
import dev.berth.protocol.crd.RemoteWorkload;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A worker cluster that takes longer than the report lag to create a copy (its API busy with other calls, the
 * create queued behind them): the manager's listings made meanwhile cannot show the copy, and must not count
 * as listings that missed it. Before, two such listings dropped the healthy attempt and held the workload for
 * a whole lease; the benchmark of issue 16 logged it 352 times in one run.
 */
class SlowCreateListingTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Longer than the report lag (3 s) plus a few 100 ms polls, shorter than the create's call timeout. */
    private static final Duration CREATE_TAKES = Duration.ofMillis(4_500);

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().dispatchOptions(new DispatchOptions("test-manager", Duration.ofSeconds(60),
            Duration.ofMillis(100), PlacementOptions.DEFAULTS, new FailoverOptions(Duration.ofSeconds(90), Duration.ofSeconds(1), HealthOptions.DEFAULTS),
            new ResilienceOptions(Duration.ofSeconds(10), 1, Duration.ofMillis(50), 50f, 10, Duration.ofSeconds(10), 8)));
    @RegisterExtension
    final MockWorkerClusters workers = new MockWorkerClusters();
    private final SlowCreates slow = new SlowCreates();
    private ManagerClient client;

    @BeforeEach
    void start() {
        client = harness.client();
        workers.start("roomy", slow).heartbeat(8);
        DispatchQueues.to("roomy").createIn(client);
        workers.get("roomy").connect(client);
    }

    @Test
    void listingsMadeWhileTheCreateIsStillBeingAnsweredDoNotDropTheAttempt() {
        client.create(DispatchQueues.job("train", 2, 1));
        RemoteWorkload first = await().atMost(WAIT).until(() -> workers.get("roomy").attempt(), r -> r != null);
        await().atMost(WAIT).until(() -> slow.answered(Instant.now()));
        assertThat(slow.listingsHidingItLate.get())
                .as("listings of the manager made more than the report lag after the create was sent, while it was unanswered")
                .isGreaterThanOrEqualTo(2);

        workers.get("roomy").reportRunning(first, 2);
        JsonNode admitted = await().atMost(WAIT).until(this::workload, w -> "True".equals(condition(w, "Admitted")));
        assertThat(admitted.path("status").path("dispatch").path("attemptId").asText()).isEqualTo(first.getSpec().getAttemptId());
        assertThat(admitted.path("status").has("dispatchHolds")).isFalse();
        assertThat(workers.get("roomy").attempts()).singleElement()
                .satisfies(r -> assertThat(r.getSpec().getAttemptId()).isEqualTo(first.getSpec().getAttemptId()));
    }

    private JsonNode workload() {
        List<JsonNode> items = client.items(KUEUE + "/namespaces/team-a/workloads");
        return items.isEmpty() ? null : items.get(0);
    }

    /**
     * Stores the first RemoteWorkload create at once but answers it only after {@link #CREATE_TAKES}, and until then
     * leaves it out of the manager's (label-selected) listings, as a cluster that creates it only then would.
     */
    private static final class SlowCreates extends KubernetesCrudDispatcher {
        private static final ObjectMapper JSON = new ObjectMapper();
        private final AtomicReference<Instant> createArrived = new AtomicReference<>();
        private final AtomicReference<String> slowName = new AtomicReference<>();
        final AtomicInteger listingsHidingItLate = new AtomicInteger();

        boolean answered(Instant now) {
            Instant arrived = createArrived.get();
            return arrived != null && now.isAfter(arrived.plus(CREATE_TAKES));
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            boolean create = "POST".equals(request.getMethod()) && request.getPath().contains("/remoteworkloads");
            boolean first = create && createArrived.compareAndSet(null, Instant.now());
            MockResponse response = super.dispatch(request);
            if (first) {
                slowName.set(nameOf(response));
                return response.setBodyDelay(CREATE_TAKES);
            }
            boolean managersListing = "GET".equals(request.getMethod()) && request.getPath().contains("/remoteworkloads")
                    && request.getPath().contains("labelSelector");
            Instant arrived = createArrived.get();
            if (managersListing && arrived != null && !answered(Instant.now())) {
                if (Instant.now().isAfter(arrived.plus(Duration.ofMillis(3_200)))) listingsHidingItLate.incrementAndGet();
                response.setBody(withoutSlowCopy(response));
            }
            return response;
        }

        private String nameOf(MockResponse response) {
            try {
                return JSON.readTree(response.getBody().getBytes()).path("metadata").path("name").asText();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private String withoutSlowCopy(MockResponse response) {
            try {
                ObjectNode list = (ObjectNode) JSON.readTree(response.getBody().getBytes());
                ArrayNode kept = JSON.createArrayNode();
                list.path("items").forEach(item -> {
                    if (!item.path("metadata").path("name").asText().equals(slowName.get())) kept.add(item);
                });
                list.set("items", kept);
                return JSON.writeValueAsString(list);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
