package dev.berth.manager.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import dev.berth.manager.testing.ManagerClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Reads a text/event-stream on a daemon thread, keeping every line, for tests to await on. */
final class SseReader implements AutoCloseable {
    final HttpResponse<InputStream> response;
    final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;
    private volatile String end;

    SseReader(ManagerClient client, String path) throws Exception {
        response = client.sendRaw("GET", path, HttpRequest.BodyPublishers.noBody(), request -> { }, HttpResponse.BodyHandlers.ofInputStream());
        reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) lines.add(line);
                end = "ended";
            } catch (IOException closed) {
                // closed by the test, or cut by the server
                end = "cut: " + closed;
            }
        }, "sse-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** The data of every "event: snapshot" frame so far, parsed. */
    List<JsonNode> snapshots() {
        List<JsonNode> snapshots = new ArrayList<>();
        List<String> seen = List.copyOf(lines);
        for (int i = 0; i + 1 < seen.size(); i++) {
            if (seen.get(i).equals("event: snapshot") && seen.get(i + 1).startsWith("data: ")) {
                try {
                    snapshots.add(DashboardFixture.JSON.readTree(seen.get(i + 1).substring("data: ".length())));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return snapshots;
    }

    /** Null while the stream is open; "ended" once the server ended it cleanly, else how it was cut. */
    String end() {
        return end;
    }

    JsonNode last() {
        List<JsonNode> all = snapshots();
        return all.isEmpty() ? null : all.get(all.size() - 1);
    }

    @Override
    public void close() throws IOException {
        response.body().close();
    }
}
