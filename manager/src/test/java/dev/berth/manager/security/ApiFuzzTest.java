package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.berth.manager.api.ManifestReader;
import dev.berth.manager.security.SecureManager.Reply;
import dev.berth.manager.store.StoredObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * For a bounded time, a tenant sends damaged manifests and random patches of every type through the
 * real HTTPS API: creates, replaces, merge, strategic, JSON and apply patches, deletes, and requests on
 * odd paths. Invariants: no answer is a 5xx; a refused write stores nothing; /readyz answers within a
 * second throughout; the quota invariants of every ClusterQueue hold.
 *
 * <p>{@code -Dberth.fuzz.seconds=N} sets the duration (20 s by default); the seed is printed and
 * {@code -Dberth.fuzz.seed=S} replays a run.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiFuzzTest {
    static final long SECONDS = Long.getLong("berth.fuzz.seconds", 20);
    static final long SEED = Long.getLong("berth.fuzz.seed", System.nanoTime());
    static final String NAMESPACE = "team-a";
    static final YAMLMapper YAML = new YAMLMapper();

    record Kind(String resource, String collection, ObjectNode seed) {}

    @TempDir
    static Path dir;
    SecureManager api;
    ResponsivenessProbe probe;
    final List<Kind> kinds = new ArrayList<>();
    final Map<Integer, Integer> codes = new TreeMap<>();

    @BeforeAll
    void start() throws Exception {
        api = new SecureManager(dir, new SecurityOptions.RateLimit(5_000, 10_000), Optional.empty());
        assertThat(api.send("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", SecureManager.ADMIN, "application/yaml",
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: fuzz-writer}\n"
                        + "rules: [{apiGroups: [kueue.x-k8s.io, batch, jobset.x-k8s.io], resources: [workloads, jobs, jobsets], "
                        + "verbs: [patch, update]}]\n").code()).isEqualTo(201);
        assertThat(api.send("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings", SecureManager.ADMIN, "application/yaml",
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: alice-writes, namespace: team-a}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: fuzz-writer}\n"
                        + "subjects: [{kind: User, name: alice}]\n").code()).isEqualTo(201);
        // Jobs and JobSets go to a queue that does not exist, so that no controller changes them while the fuzzer compares them;
        // Workloads go to the real queue, so that admissions happen and the quota invariants mean something.
        kinds.add(new Kind("batch/jobs", "/apis/batch/v1/namespaces/team-a/jobs", seed("sample-job.yaml")));
        kinds.add(new Kind("jobset.x-k8s.io/jobsets", "/apis/jobset.x-k8s.io/v1alpha2/namespaces/team-a/jobsets", seed("training-jobset.yaml")));
        kinds.add(new Kind("kueue.x-k8s.io/workloads", "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads",
                ManifestReader.read(AmplificationTest.workload("w", "").getBytes(StandardCharsets.UTF_8), "application/yaml").get(0)));
        probe = new ResponsivenessProbe(api);
    }

    private static ObjectNode seed(String file) throws Exception {
        ObjectNode seed = ManifestReader.read(Files.readAllBytes(SecureManager.EXAMPLES.resolve("jobs").resolve(file)), "application/yaml").get(0);
        ObjectNode metadata = (ObjectNode) seed.path("metadata");
        metadata.remove("generateName");
        metadata.put("name", "seed");
        ((ObjectNode) metadata.path("labels")).put("kueue.x-k8s.io/queue-name", "fuzz-queue-that-does-not-exist");
        return seed;
    }

    @AfterAll
    void stop() throws Exception {
        if (probe != null) probe.close();
        api.close();
    }

    @Test
    void randomDamageNeverAnswers5xxNorStoresARefusedWriteNorBreaksAQuotaInvariant() throws Exception {
        System.out.println("ApiFuzzTest: seed " + SEED + " for " + SECONDS + " s (replay with -Dberth.fuzz.seed=" + SEED + ")");
        Random random = new Random(SEED);
        ManifestMutator mutator = new ManifestMutator(random);
        List<String> live = new ArrayList<>();
        long deadline = System.nanoTime() + SECONDS * 1_000_000_000L;
        int requests = 0;
        while (System.nanoTime() < deadline) {
            Kind kind = kinds.get(random.nextInt(kinds.size()));
            FuzzRequest request = next(random, mutator, kind, live);
            Map<String, String> before = snapshot(kind);
            Reply reply = api.sendBytes(request.method(), request.path(), SecureManager.ALICE, request.contentType(), request.body());
            requests++;
            codes.merge(reply.code(), 1, Integer::sum);
            String context = "seed " + SEED + ", request " + requests + ": " + request.describe() + " answered " + reply.code() + " "
                    + abbreviated(reply.body().toString());
            assertThat(reply.code()).as(context).isLessThan(500);
            if (reply.code() >= 400) {
                assertThat(snapshot(kind)).as("stored after a refusal: " + context).isEqualTo(before);
            } else if (request.method().equals("POST")) {
                live.add(kind.collection() + "/" + reply.body().path("metadata").path("name").asText());
            } else if (request.method().equals("DELETE")) {
                live.remove(request.path());
            }
            if (requests % 50 == 0) assertQuotaInvariants(context);
        }
        System.out.println("ApiFuzzTest: " + requests + " requests, answers by code " + codes + ", " + probe.probes()
                + " probes, slowest /readyz " + probe.slowestReadyzMillis() + " ms, slowest state-thread read "
                + probe.slowestStateThreadMillis() + " ms");
        assertQuotaInvariants("seed " + SEED + ", at the end");
        assertThat(probe.failures()).as("seed " + SEED).isEmpty();
        assertThat(probe.slowestReadyzMillis()).as("seed " + SEED + ": slowest /readyz (ms)")
                .isLessThan(ResponsivenessProbe.READYZ_BOUND.toMillis());
        assertThat(codes.keySet()).as("the fuzzer reached both successes and refusals").anyMatch(c -> c < 300).anyMatch(c -> c >= 400);
    }

    record FuzzRequest(String method, String path, String contentType, byte[] body) {
        String describe() {
            String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
            return method + " " + path + " (" + contentType + ") " + abbreviated(text);
        }
    }

    private FuzzRequest next(Random random, ManifestMutator mutator, Kind kind, List<String> live) throws Exception {
        List<String> mine = live.stream().filter(p -> p.startsWith(kind.collection() + "/")).toList();
        int action = mine.isEmpty() ? 0 : random.nextInt(100);
        if (action < 40) {
            ObjectNode manifest = kind.seed().deepCopy();
            ((ObjectNode) manifest.path("metadata")).put("name", "f" + Long.toHexString(random.nextLong() & 0xffffffL));
            ObjectNode sent = random.nextInt(3) == 0 ? manifest : mutator.mutate(manifest);
            return body(random, "POST", kind.collection(), sent);
        }
        String target = mine.get(random.nextInt(mine.size()));
        if (action < 45) return new FuzzRequest("DELETE", target, null, null);
        if (action < 50) return new FuzzRequest(random.nextBoolean() ? "PUT" : "PATCH", oddPath(random, target),
                "application/merge-patch+json", "{}".getBytes(StandardCharsets.UTF_8));
        ObjectNode current = (ObjectNode) api.get(target, SecureManager.ALICE).body();
        if (action < 62) return body(random, "PUT", target, mutator.mutate(current));
        return switch (random.nextInt(4)) {
            case 0 -> text("PATCH", target, "application/merge-patch+json", mutator.mergePatch(current));
            case 1 -> text("PATCH", target, "application/strategic-merge-patch+json", mutator.mergePatch(current));
            case 2 -> text("PATCH", target, "application/json-patch+json", mutator.jsonPatch(current));
            default -> {
                ObjectNode applied = mutator.mutate(current);
                if (applied.path("metadata") instanceof ObjectNode metadata) {
                    metadata.remove("managedFields");
                    metadata.remove("resourceVersion");
                }
                String query = random.nextInt(5) == 0 ? "" : "?fieldManager=fuzz" + random.nextInt(3) + (random.nextBoolean() ? "&force=true" : "");
                yield text("PATCH", target + query, "application/apply-patch+yaml", YAML.writeValueAsString(applied));
            }
        };
    }

    /** The same object as JSON or as YAML, sometimes damaged as text (a duplicated key, a cut, a stray byte). */
    private static FuzzRequest body(Random random, String method, String path, ObjectNode object) throws Exception {
        boolean yaml = random.nextBoolean();
        String text = yaml ? YAML.writeValueAsString(object) : object.toString();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        switch (random.nextInt(12)) {
            case 0 -> bytes = (yaml ? text + "metadata: {}\n" : text.substring(0, text.length() - 1) + ",\"metadata\":{}}").getBytes(StandardCharsets.UTF_8);
            case 1 -> bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length + 1));
            case 2 -> bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
            default -> { }
        }
        return new FuzzRequest(method, path, yaml ? "application/yaml" : "application/json", bytes);
    }

    private static FuzzRequest text(String method, String path, String contentType, String body) {
        return new FuzzRequest(method, path, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    private static String oddPath(Random random, String target) {
        return switch (random.nextInt(6)) {
            case 0 -> target + "/status";
            case 1 -> target.replace("/team-a/", "/team-b/");
            case 2 -> target + "/../../../clusterqueues/team-a-cq";
            case 3 -> target.replace("/namespaces/team-a", "");
            case 4 -> target + "%2fx";
            default -> target + "/explain";
        };
    }

    /** The tenant-written part of the kind's objects in team-a: status and resourceVersion left out, controller-owned objects too. */
    private Map<String, String> snapshot(Kind kind) {
        Map<String, String> objects = new TreeMap<>();
        for (StoredObject stored : api.store.list(kind.resource(), NAMESPACE)) {
            ObjectNode object = stored.object();
            if (object.path("metadata").has("ownerReferences") && !object.path("metadata").path("ownerReferences").isEmpty()) continue;
            object.remove("status");
            ((ObjectNode) object.path("metadata")).remove("resourceVersion");
            objects.put(object.path("metadata").path("name").asText(), object.toString());
        }
        return objects;
    }

    private void assertQuotaInvariants(String context) throws Exception {
        Reply queues = api.get("/apis/kueue.x-k8s.io/v1beta2/clusterqueues", SecureManager.ADMIN);
        assertThat(queues.code()).isEqualTo(200);
        List<String> violations = QuotaInvariants.violations(queues.body());
        assertThat(violations).as(context).isEmpty();
    }

    private static String abbreviated(String text) {
        return text.length() <= 600 ? text : text.substring(0, 600) + "...(" + text.length() + " chars)";
    }

}
