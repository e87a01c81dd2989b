package dev.berth.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code GET /dashboard/stream} on a running manager: SSE framing, a first snapshot with the queues,
 * the borrowing bars and the pending workloads, and a new snapshot pushed when a job is submitted.
 */
class DashboardStreamEndToEndTest {
    @RegisterExtension
    final ManagerHarness harness = DashboardFixture.harness();
    private DashboardFixture berth;

    @BeforeEach
    void start() throws Exception {
        berth = new DashboardFixture(harness);
    }

    @Test
    void pushesASnapshotAtOnceAndAnotherWhenAJobArrives() throws Exception {
        berth.submit("team-a", "fill-a100", 8);
        berth.submit("team-a", "fill-h100", 8);
        String borrower = berth.submit("team-a", "borrower", 4);
        try (SseReader stream = new SseReader(berth.client, DashboardRoutes.STREAM)) {
            assertThat(stream.response.statusCode()).isEqualTo(200);
            assertThat(stream.response.headers().firstValue("content-type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("text/event-stream"));
            assertThat(stream.response.headers().firstValue("cache-control")).contains("no-cache");

            JsonNode first = await().atMost(Duration.ofSeconds(10)).until(stream::last, s -> s != null);
            assertThat(stream.lines.get(0)).isEqualTo(": connected");
            assertThat(first.path("cohorts").get(0).path("cohort").asText()).isEqualTo("gpu-pool");
            JsonNode a100 = resource(first, "a100", "nvidia.com/gpu");
            JsonNode teamA = queue(a100, "team-a-cq");
            assertThat(teamA.path("usage").asLong()).isEqualTo(12);
            assertThat(teamA.path("borrowedText").asText()).isEqualTo("4");
            assertThat(teamA.path("borrowedFrom")).extracting(JsonNode::asText).containsExactly("team-b-cq 4");
            assertThat(queue(a100, "team-b-cq").path("lentText").asText()).isEqualTo("4");
            assertThat(first.path("clusterQueues")).extracting(q -> q.path("name").asText())
                    .containsExactly("team-a-cq", "team-b-cq");
            assertThat(first.path("events").isArray()).isTrue();
            assertThat(borrower).isNotEmpty();

            String waiting = berth.submit("team-a", "too-big", 40);
            JsonNode next = await().atMost(Duration.ofSeconds(10)).until(stream::last,
                    s -> s.path("clusterQueues").get(0).path("pendingCount").asInt() == 1);
            JsonNode pending = next.path("clusterQueues").get(0).path("pending").get(0);
            assertThat(pending.path("name").asText()).isEqualTo(waiting);
            assertThat(pending.path("namespace").asText()).isEqualTo("team-a");
            assertThat(pending.path("localQueue").asText()).isEqualTo("team-a-queue");
            assertThat(pending.path("position").asInt()).isZero();
            assertThat(pending.path("created").asText()).isNotEmpty();
            await().atMost(Duration.ofSeconds(10)).until(() -> stream.last().path("clusterQueues").get(0)
                    .path("pending").get(0).path("pendingReason").asText().contains("insufficient quota"));
            assertFramedAsServerSentEvents(stream.lines);
        }
    }

    @Test
    void aShutdownEndsTheStreamCleanlyInsteadOfHoldingTheDrainToItsBound() throws Exception {
        // HTTP/1.1, as a browser's EventSource speaks to a plain-HTTP manager
        ManagerClient browser = ManagerClient.http1(berth.client.baseUrl(), Duration.ofSeconds(5), Duration.ofSeconds(60));
        try (SseReader stream = new SseReader(browser, DashboardRoutes.STREAM)) {
            await().atMost(Duration.ofSeconds(10)).until(stream::last, s -> s != null);
            Thread stopping = new Thread(harness::stopManager, "stopping-manager");
            stopping.start();

            await().atMost(Duration.ofSeconds(10)).until(() -> stream.end() != null);
            assertThat(stream.end()).as("EventSource reconnects after a clean end").isEqualTo("ended");
            // the drain's bound is 20 s: an open stream left alone would hold the shutdown that long
            await().atMost(Duration.ofSeconds(10)).until(() -> !stopping.isAlive());
        }
    }

    @Test
    void listsRegisteredWorkerClustersEvenWhenUnreachable() throws Exception {
        berth.registerUnreachableCluster("gpu-west");
        try (SseReader stream = new SseReader(berth.client, DashboardRoutes.STREAM)) {
            JsonNode cluster = await().atMost(Duration.ofSeconds(10)).until(
                    () -> stream.last() == null ? null : stream.last().path("clusters").path(0),
                    // a cluster that never answered passes through Degraded before the health policy calls it Unreachable
                    c -> c != null && !c.isMissingNode() && !c.path("health").asText().equals("Degraded"));
            assertThat(cluster.path("name").asText()).isEqualTo("gpu-west");
            assertThat(cluster.path("connected").asBoolean()).isFalse();
            assertThat(cluster.path("health").asText()).isEqualTo("Unreachable");
        }
    }

    /** Every frame is comment lines, or an event line then one data line, each followed by a blank line. */
    private static void assertFramedAsServerSentEvents(List<String> lines) {
        List<String> frame = new ArrayList<>();
        for (String line : List.copyOf(lines)) {
            if (!line.isEmpty()) {
                frame.add(line);
                continue;
            }
            boolean comment = frame.size() == 1 && frame.get(0).startsWith(":");
            boolean snapshot = frame.size() == 2 && frame.get(0).equals("event: snapshot") && frame.get(1).startsWith("data: {");
            assertThat(comment || snapshot).as("frame %s", frame).isTrue();
            frame.clear();
        }
    }

    private static JsonNode resource(JsonNode snapshot, String flavor, String resource) {
        for (JsonNode r : snapshot.path("cohorts").get(0).path("resources")) {
            if (r.path("flavor").asText().equals(flavor) && r.path("resource").asText().equals(resource)) return r;
        }
        throw new AssertionError("no " + flavor + "/" + resource + " in " + snapshot);
    }

    private static JsonNode queue(JsonNode resource, String name) {
        for (JsonNode q : resource.path("queues")) if (q.path("name").asText().equals(name)) return q;
        throw new AssertionError("no " + name + " in " + resource);
    }
}
