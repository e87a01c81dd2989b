package dev.berth.virtualcluster;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads {@code pod-lifetimes.jsonl} files back into one interval per pod. */
public final class PodLifetimeRecord {
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private PodLifetimeRecord() {}

    /** The intervals of one record file, in order of start; an absent file has none. */
    public static List<PodInterval> read(Path file) {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, PodInterval> byPod = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> event;
            try {
                event = JSON.unmarshal(line, Map.class);
            } catch (RuntimeException partialLastLine) {
                continue;
            }
            apply(byPod, event);
        }
        return List.copyOf(byPod.values());
    }

    /** The intervals of several clusters' record files together. */
    public static List<PodInterval> readAll(Collection<Path> files) {
        List<PodInterval> all = new ArrayList<>();
        files.forEach(file -> all.addAll(read(file)));
        return all;
    }

    @SuppressWarnings("unchecked")
    private static void apply(Map<String, PodInterval> byPod, Map<String, Object> event) {
        String cluster = (String) event.get("cluster");
        String uid = (String) event.get("uid");
        String key = cluster + "/" + uid;
        long time = ((Number) event.get("time")).longValue();
        if (PodLifetimeEvent.STARTED.equals(event.get("event"))) {
            Map<String, String> labels = (Map<String, String>) event.getOrDefault("labels", Map.of());
            byPod.put(key, new PodInterval(cluster, (String) event.get("namespace"), (String) event.get("pod"), uid,
                (String) event.get("node"), labels, time, null, null));
        } else {
            PodInterval started = byPod.get(key);
            if (started != null) {
                byPod.put(key, new PodInterval(started.cluster(), started.namespace(), started.pod(), uid,
                    started.node(), started.labels(), started.startMillis(), time, (String) event.get("phase")));
            }
        }
    }
}
