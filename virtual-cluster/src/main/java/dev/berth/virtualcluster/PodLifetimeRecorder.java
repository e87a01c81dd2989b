package dev.berth.virtualcluster;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

/** Appends pod lifetime events as JSON lines, flushed after each line. */
public final class PodLifetimeRecorder implements AutoCloseable {
    private final KubernetesSerialization json = new KubernetesSerialization();
    private final BufferedWriter out;

    public PodLifetimeRecorder(Path file) {
        try {
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public synchronized void record(PodLifetimeEvent event) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("cluster", event.cluster());
        line.put("namespace", event.namespace());
        line.put("pod", event.pod());
        line.put("uid", event.uid());
        line.put("node", event.node());
        line.put("labels", event.labels());
        line.put("event", event.event());
        line.put("phase", event.phase());
        line.put("time", event.time());
        try {
            out.write(json.asJson(line));
            out.newLine();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
