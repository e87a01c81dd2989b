package dev.berth.system.rbac;

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
import java.util.stream.StreamSupport;

/**
 * The RBAC objects a kustomization under deploy/ installs, rendered with the real {@code kubectl kustomize}
 * (so the namespace kustomize sets is the one a cluster gets), and the rules they give one ServiceAccount.
 */
final class ShippedRbac {
    static final Path FALLBACK_KUBECTL = Path.of("/usr/lib/google-cloud-sdk/bin/kubectl");
    private static final YAMLMapper YAML = new YAMLMapper();

    private final List<JsonNode> objects;

    private ShippedRbac(List<JsonNode> objects) {
        this.objects = objects;
    }

    static ShippedRbac render(Path kubectl, Path kustomization) throws IOException, InterruptedException {
        Path stderr = Files.createTempFile("kustomize", ".err");
        try {
            Process process = new ProcessBuilder(kubectl.toString(), "kustomize", kustomization.toString())
                    .redirectError(stderr.toFile()).start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("kubectl kustomize " + kustomization + " did not finish within 60 s");
            }
            if (process.exitValue() != 0) {
                throw new AssertionError("kubectl kustomize " + kustomization + " failed: " + Files.readString(stderr, StandardCharsets.UTF_8));
            }
            return parse(new String(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(stderr);
        }
    }

    static ShippedRbac parse(String yaml) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (it.hasNextValue()) {
                JsonNode node = it.nextValue();
                if (node != null && !node.isNull() && !node.isEmpty()) documents.add(node);
            }
        }
        return new ShippedRbac(documents);
    }

    /** kubectl from PATH, else the Google Cloud SDK's copy. */
    static Optional<Path> findKubectl() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "kubectl"))) return Optional.of(Path.of(dir, "kubectl"));
        }
        return Files.isExecutable(FALLBACK_KUBECTL) ? Optional.of(FALLBACK_KUBECTL) : Optional.empty();
    }

    /** Every rule bound to ServiceAccount {@code namespace/name}, with the scope its binding gives it. */
    List<BoundRule> rulesOf(String namespace, String name) {
        List<BoundRule> rules = new ArrayList<>();
        for (JsonNode binding : objects) {
            String kind = binding.path("kind").asText();
            if (!kind.equals("RoleBinding") && !kind.equals("ClusterRoleBinding")) continue;
            if (!bindsServiceAccount(binding, namespace, name)) continue;
            Optional<String> scope = kind.equals("RoleBinding") ? Optional.of(binding.at("/metadata/namespace").asText()) : Optional.empty();
            String roleKind = binding.at("/roleRef/kind").asText();
            String roleName = binding.at("/roleRef/name").asText();
            JsonNode role = objects.stream().filter(o -> o.path("kind").asText().equals(roleKind)
                            && o.at("/metadata/name").asText().equals(roleName)
                            && (roleKind.equals("ClusterRole") || o.at("/metadata/namespace").asText().equals(scope.orElse(""))))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(kind + " " + binding.at("/metadata/name").asText() + " refers to " + roleKind + " "
                            + roleName + ", which the kustomization does not ship"));
            String source = roleKind + " " + roleName + " (" + kind + " " + binding.at("/metadata/name").asText() + ")";
            for (JsonNode rule : role.path("rules")) {
                RbacRule parsed = rule.has("nonResourceURLs")
                        ? RbacRule.nonResource(strings(rule.get("nonResourceURLs")), strings(rule.get("verbs")))
                        : RbacRule.resource(strings(rule.get("apiGroups")), strings(rule.get("resources")), strings(rule.get("verbs")),
                                strings(rule.get("resourceNames")));
                rules.add(new BoundRule(parsed, scope, source));
            }
        }
        return rules;
    }

    private static boolean bindsServiceAccount(JsonNode binding, String namespace, String name) {
        for (JsonNode subject : binding.path("subjects")) {
            if (subject.path("kind").asText().equals("ServiceAccount") && subject.path("name").asText().equals(name)
                    && subject.path("namespace").asText().equals(namespace)) return true;
        }
        return false;
    }

    private static List<String> strings(JsonNode array) {
        return array == null ? List.of() : StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }
}
