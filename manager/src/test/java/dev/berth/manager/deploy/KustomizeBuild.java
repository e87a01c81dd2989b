package dev.berth.manager.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Runs the real {@code kubectl kustomize} on a directory and parses the multi-document YAML it prints. */
final class KustomizeBuild {
    static final Path FALLBACK_KUBECTL = Path.of("/usr/lib/google-cloud-sdk/bin/kubectl");
    private static final YAMLMapper YAML = new YAMLMapper();

    private final Path kubectl;

    KustomizeBuild(Path kubectl) {
        this.kubectl = kubectl;
    }

    /** kubectl from PATH, else the Google Cloud SDK's copy; empty when neither is there. */
    static Optional<Path> findKubectl() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, "kubectl");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Files.isExecutable(FALLBACK_KUBECTL) ? Optional.of(FALLBACK_KUBECTL) : Optional.empty();
    }

    /** The objects {@code kubectl kustomize dir} renders, one JSON tree per YAML document. */
    List<JsonNode> render(Path dir) throws IOException, InterruptedException {
        Path stderr = Files.createTempFile("kustomize", ".err");
        try {
            Process process = new ProcessBuilder(kubectl.toString(), "kustomize", dir.toString())
                    .redirectError(stderr.toFile())
                    .start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("kubectl kustomize " + dir + " did not finish within 60 s");
            }
            if (process.exitValue() != 0) {
                throw new AssertionError("kubectl kustomize " + dir + " failed (exit " + process.exitValue() + "): "
                        + Files.readString(stderr, StandardCharsets.UTF_8));
            }
            return parseDocuments(new String(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(stderr);
        }
    }

    static List<JsonNode> parseDocuments(String yaml) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (it.hasNextValue()) {
                JsonNode node = it.nextValue();
                if (node != null && !node.isNull() && !node.isEmpty()) {
                    documents.add(node);
                }
            }
        }
        return documents;
    }

    static JsonNode parseFile(Path file) throws IOException {
        return YAML.readTree(file.toFile());
    }

    static JsonNode parse(String yaml) throws IOException {
        return YAML.readTree(yaml);
    }
}
