package dev.berth.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One HTTP watch on every namespace's Workloads, with bookmarks, as a client-go informer keeps it: a
 * watch the server ends is opened again from the last resourceVersion seen; a 410 Expired (the
 * resourceVersion fell out of the manager's history) lists every Workload again and watches from
 * the list's resourceVersion. Each Workload seen (added, modified, listed) goes to the listener with
 * whether its Admitted and Finished conditions are True; runs on its own daemon thread.
 */
final class WorkloadWatch implements AutoCloseable {
    static final String COLLECTION = "/apis/kueue.x-k8s.io/v1beta2/workloads";
    private static final ObjectMapper JSON = new ObjectMapper();

    interface Listener {
        void workload(String namespace, String name, boolean admitted, boolean finished);
    }

    /** One line of the watch: its type, the object's identity and revision, the two conditions; code for an ERROR. */
    record Event(String type, String namespace, String name, String resourceVersion, boolean admitted, boolean finished, int code) {
        boolean concernsWorkload() {
            return type.equals("ADDED") || type.equals("MODIFIED");
        }
    }

    private final ApiBench api;
    private final Listener listener;
    private final Thread thread;
    private volatile boolean closed;
    private volatile InputStream open;
    private String resourceVersion;
    final AtomicLong events = new AtomicLong();
    final AtomicLong rewatches = new AtomicLong();
    final AtomicLong relists = new AtomicLong();

    WorkloadWatch(ApiBench api, Listener listener) {
        this.api = api;
        this.listener = listener;
        this.thread = new Thread(this::loop, "workload-watch");
        this.thread.setDaemon(true);
    }

    /** Lists once (the watch starts from the list's resourceVersion), then watches on its thread. */
    void start() throws Exception {
        relist();
        relists.set(0);
        thread.start();
    }

    private void loop() {
        while (!closed) {
            try {
                HttpResponse<InputStream> answer = api.watch(COLLECTION + "?watch=true&allowWatchBookmarks=true&resourceVersion=" + resourceVersion);
                open = answer.body();
                if (answer.statusCode() == 410) {
                    answer.body().close();
                    relist();
                    continue;
                }
                if (answer.statusCode() != 200) throw new IllegalStateException("watch answered " + answer.statusCode());
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(answer.body(), StandardCharsets.UTF_8))) {
                    for (String line = lines.readLine(); line != null && !closed; line = lines.readLine()) {
                        if (line.isBlank()) continue;
                        Event event = parse(JSON.readTree(line));
                        events.incrementAndGet();
                        if (event.type().equals("ERROR")) {
                            if (event.code() == 410) relist();
                            break;
                        }
                        if (event.resourceVersion() != null) resourceVersion = event.resourceVersion();
                        if (event.concernsWorkload()) {
                            listener.workload(event.namespace(), event.name(), event.admitted(), event.finished());
                        }
                    }
                }
                if (!closed) rewatches.incrementAndGet();
            } catch (Exception e) {
                if (closed) return;
                rewatches.incrementAndGet();
                System.err.println("watch: " + e + "; watching again from resourceVersion " + resourceVersion);
                try {
                    Thread.sleep(200);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    private void relist() throws Exception {
        relists.incrementAndGet();
        JsonNode list = api.get(COLLECTION);
        for (JsonNode item : list.path("items")) {
            Event event = workloadEvent("ADDED", item);
            listener.workload(event.namespace(), event.name(), event.admitted(), event.finished());
        }
        resourceVersion = list.path("metadata").path("resourceVersion").asText();
    }

    static Event parse(JsonNode line) {
        String type = line.path("type").asText();
        JsonNode object = line.path("object");
        if (type.equals("ERROR")) return new Event(type, null, null, null, false, false, object.path("code").asInt());
        return workloadEvent(type, object);
    }

    private static Event workloadEvent(String type, JsonNode object) {
        JsonNode metadata = object.path("metadata");
        String revision = metadata.path("resourceVersion").asText(null);
        return new Event(type, metadata.path("namespace").asText(null), metadata.path("name").asText(null), revision,
                conditionTrue(object, "Admitted"), conditionTrue(object, "Finished"), 0);
    }

    private static boolean conditionTrue(JsonNode workload, String type) {
        for (JsonNode condition : workload.path("status").path("conditions")) {
            if (condition.path("type").asText().equals(type)) return condition.path("status").asText().equals("True");
        }
        return false;
    }

    @Override
    public void close() {
        closed = true;
        InputStream stream = open;
        if (stream != null) {
            try {
                stream.close();
            } catch (Exception ignored) {
                // closing anyway
            }
        }
        thread.interrupt();
    }
}
