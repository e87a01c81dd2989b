package dev.berth.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.store.FileObjectStore;
import dev.berth.manager.store.ObjectKey;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

/**
 * What core/v1 Events cost on the admission path, where each is one durable (fsynced) write to the
 * file store: (1) the cost of one durable event write, (2) N Workloads submitted over HTTP to a
 * manager on a FileObjectStore until all are admitted, with the share of the store's writes that
 * were events. Prints a Markdown block. Usage: {@code EventWriteCost [workloads]}.
 */
public final class EventWriteCost {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    public static void main(String[] args) throws Exception {
        int workloads = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        double perWrite = writeMillis("/events", 500);
        double perForcedWrite = writeMillis("/apis/kueue.x-k8s.io/workloads", 500);
        Path dir = Files.createTempDirectory("berth-event-cost");
        FileObjectStore store = FileObjectStore.open(dir.resolve("store"), Clock.systemUTC());
        Vertx vertx = Vertx.vertx();
        BerthManager manager = new BerthManager(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS);
        try {
            manager.start(vertx, "127.0.0.1", 0).await();
            Path queues = dir.resolve("queues");
            Files.createDirectories(queues);
            Files.writeString(queues.resolve("queues.yaml"), QUEUES);
            manager.loadManifests(queues);
            String base = "http://127.0.0.1:" + manager.port();
            long writesBefore = store.revision();
            int eventsBefore = count(base + "/api/v1/events");
            long start = System.nanoTime();
            for (int i = 0; i < workloads; i++) {
                post(base + "/apis/kueue.x-k8s.io/v1beta2/namespaces/bench/workloads", workload("wl-" + i));
            }
            double submitSeconds = (System.nanoTime() - start) / 1e9;
            while (admitted(base) < workloads) Thread.sleep(20);
            double seconds = (System.nanoTime() - start) / 1e9;
            long writes = store.revision() - writesBefore;
            int events = count(base + "/api/v1/events") - eventsBefore;
            System.out.printf("""
                    | Measure | Value |
                    |---|---|
                    | One Event write (FileObjectStore) | %.2f ms |
                    | One other object's write (FileObjectStore, forced) | %.2f ms |
                    | %d Workloads POSTed one after another over HTTP | %.2f s (%.1f ms each) |
                    | ... until all admitted | %.2f s |
                    | Store writes during that run | %d (%.1f per workload) |
                    | Events stored at the end (the newest 50 per queue are kept) | %d (%.1f per workload) |
                    %n""", perWrite, perForcedWrite, workloads, submitSeconds, submitSeconds * 1000 / workloads, seconds, writes, (double) writes / workloads,
                    events, (double) events / workloads);
        } finally {
            manager.close();
            vertx.close().await();
        }
    }

    private static double writeMillis(String resource, int writes) throws Exception {
        Path dir = Files.createTempDirectory("berth-event-write");
        try (FileObjectStore store = FileObjectStore.open(dir, Clock.systemUTC())) {
            for (int i = 0; i < 50; i++) store.create(new ObjectKey(resource, "default", "warm-" + i), event("warm-" + i));
            long start = System.nanoTime();
            for (int i = 0; i < writes; i++) store.create(new ObjectKey(resource, "default", "e-" + i), event("e-" + i));
            return (System.nanoTime() - start) / 1e6 / writes;
        }
    }

    private static ObjectNode event(String name) {
        ObjectNode event = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Event");
        event.putObject("metadata").put("name", name).put("namespace", "default");
        event.putObject("involvedObject").put("kind", "Workload").put("namespace", "bench").put("name", "wl").put("uid", "u");
        event.put("reason", "Admitted").put("message", "Admitted by ClusterQueue bench-cq, wait time since reservation was 0s")
                .put("type", "Normal").put("count", 1);
        return event;
    }

    private static String workload(String name) {
        return """
                {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload","metadata":{"name":"%s","namespace":"bench"},
                 "spec":{"queueName":"bench-lq","podSets":[{"name":"main","count":1,"template":{"spec":{"restartPolicy":"Never",
                 "containers":[{"name":"c","image":"busybox","resources":{"requests":{"cpu":"1"}}}]}}}]}}""".formatted(name);
    }

    private static void post(String url, String body) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) throw new IllegalStateException(response.statusCode() + " " + response.body());
    }

    private static JsonNode get(String url) throws Exception {
        return JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    private static int count(String url) throws Exception {
        return get(url).path("items").size();
    }

    private static int admitted(String base) throws Exception {
        int admitted = 0;
        for (JsonNode workload : get(base + "/apis/kueue.x-k8s.io/v1beta2/namespaces/bench/workloads").path("items")) {
            for (JsonNode condition : workload.path("status").path("conditions")) {
                if ("Admitted".equals(condition.path("type").asText()) && "True".equals(condition.path("status").asText())) admitted++;
            }
        }
        return admitted;
    }

    private static final String QUEUES = """
            apiVersion: v1
            kind: Namespace
            metadata:
              name: bench
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: ResourceFlavor
            metadata:
              name: default
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: ClusterQueue
            metadata:
              name: bench-cq
            spec:
              namespaceSelector: {}
              resourceGroups:
              - coveredResources: ["cpu"]
                flavors:
                - name: default
                  resources:
                  - name: cpu
                    nominalQuota: "100000"
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: LocalQueue
            metadata:
              name: bench-lq
              namespace: bench
            spec:
              clusterQueue: bench-cq
            """;
}
