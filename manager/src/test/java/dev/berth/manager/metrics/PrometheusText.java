package dev.berth.manager.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A scrape in Prometheus text format, read for assertions: every sample under a key of its name and
 * its labels sorted by name ({@code name{a="1",b="2"}}), and every family's declared type.
 */
final class PrometheusText {
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    final Map<String, Double> samples = new LinkedHashMap<>();
    final Map<String, String> types = new LinkedHashMap<>();

    PrometheusText(String text) {
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.split(" ");
                types.put(parts[2], parts[3]);
                continue;
            }
            if (line.isBlank() || line.startsWith("#")) continue;
            Matcher sample = SAMPLE.matcher(line.trim());
            if (!sample.matches()) throw new IllegalArgumentException("not a sample: " + line);
            Map<String, String> labels = new TreeMap<>();
            if (sample.group(2) != null) {
                Matcher label = LABEL.matcher(sample.group(2));
                while (label.find()) labels.put(label.group(1), label.group(2));
            }
            samples.put(key(sample.group(1), labels), Double.parseDouble(sample.group(3)));
        }
    }

    static String key(String name, Map<String, String> labels) {
        return name + labels.entrySet().stream().map(e -> e.getKey() + "=\"" + e.getValue() + "\"")
                .collect(Collectors.joining(",", "{", "}"));
    }

    /** The value of a sample, labels given as alternating names and values; null when absent. */
    Double value(String name, String... labels) {
        Map<String, String> wanted = new TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) wanted.put(labels[i], labels[i + 1]);
        return samples.get(key(name, wanted));
    }

    /** Every sample of a family (name prefix match on the exact name). */
    Map<String, Double> family(String name) {
        Map<String, Double> family = new LinkedHashMap<>();
        samples.forEach((key, value) -> {
            if (key.startsWith(name + "{")) family.put(key, value);
        });
        return family;
    }
}
