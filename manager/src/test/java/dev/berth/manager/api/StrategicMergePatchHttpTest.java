package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Strategic merge patch over real HTTP against the manager's own kinds (issue 13): a Deployment's containers
 * merge by name and keep what the patch omits, directives are interpreted and never stored, custom
 * resources answer 415 as kube-apiserver does, and a Job that would lose its image is refused.
 */
class StrategicMergePatchHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SMP = "application/strategic-merge-patch+json";
    private static final String JOBS = "/apis/batch/v1/namespaces/team-a/jobs";
    private static final String JOB = """
            {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"%s"},"spec":{"template":{"spec":{"restartPolicy":"Never",
             "containers":[{"name":"c","image":"img:1","resources":{"requests":{"cpu":"1"}},"env":[{"name":"X","value":"0"}]}]}}}}""";

    // a pod template that may change (a Job's may not, as on kube-apiserver: KubectlJobUpdateTest)
    private static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/team-a/deployments";
    private static final String DEPLOYMENT = """
            {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%1$s"},"spec":{"replicas":1,
             "selector":{"matchLabels":{"app":"%1$s"}},"template":{"metadata":{"labels":{"app":"%1$s"}},"spec":{
             "containers":[{"name":"c","image":"img:1","resources":{"requests":{"cpu":"1"}},"env":[{"name":"X","value":"0"}]}]}}}}""";

    static final MemoryObjectStore store = new MemoryObjectStore();

    record Reply(int code, JsonNode body) {}

    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues().store(store);

    @Test
    void aContainerPatchMergesByNameAndKeepsImageAndResources() throws Exception {
        deployment("keep");

        Reply patched = send("PATCH", DEPLOYMENTS + "/keep", SMP,
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"env\":[{\"name\":\"A\",\"value\":\"1\"}]}]}}}}");

        assertThat(patched.code()).as(String.valueOf(patched.body())).isEqualTo(200);
        JsonNode container = get(DEPLOYMENTS + "/keep").at("/spec/template/spec/containers/0");
        assertThat(container.path("image").asText()).isEqualTo("img:1");
        assertThat(container.at("/resources/requests/cpu").asText()).isEqualTo("1");
        assertThat(container.path("env").toString()).isEqualTo("[{\"name\":\"A\",\"value\":\"1\"},{\"name\":\"X\",\"value\":\"0\"}]");
    }

    @Test
    void setElementOrderAndDeleteDirectivesAreAppliedAndNeverStored() throws Exception {
        deployment("ordered");

        Reply patched = send("PATCH", DEPLOYMENTS + "/ordered", SMP, """
                {"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"c"}],"containers":[{"name":"c",
                 "$setElementOrder/env":[{"name":"B"}],"env":[{"name":"B","value":"2"},{"name":"X","$patch":"delete"}]}]}}}}""");

        assertThat(patched.code()).as(String.valueOf(patched.body())).isEqualTo(200);
        JsonNode stored = get(DEPLOYMENTS + "/ordered");
        assertThat(stored.at("/spec/template/spec/containers/0/env").toString()).isEqualTo("[{\"name\":\"B\",\"value\":\"2\"}]");
        assertThat(stored.at("/spec/template/spec/containers/0/image").asText()).isEqualTo("img:1");
        assertThat(directiveKeys(stored)).isEmpty();
    }

    @Test
    void nullInAStrategicMergePatchDeletesANamespaceLabel() throws Exception {
        assertThat(send("PATCH", "/api/v1/namespaces/team-b", SMP, "{\"metadata\":{\"labels\":{\"smp\":\"yes\"}}}").code()).isEqualTo(200);

        Reply patched = send("PATCH", "/api/v1/namespaces/team-b", SMP, "{\"metadata\":{\"labels\":{\"smp\":null}}}");

        assertThat(patched.code()).isEqualTo(200);
        assertThat(get("/api/v1/namespaces/team-b").at("/metadata/labels").has("smp")).isFalse();
    }

    @Test
    void aStrategicMergePatchOnACustomResourceIs415AndStoresNothing() throws Exception {
        long revision = store.revision();

        Reply refused = send("PATCH", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/team-a-cq", SMP, "{\"spec\":{\"cohortName\":\"x\"}}");

        assertThat(refused.code()).isEqualTo(415);
        assertThat(refused.body().path("reason").asText()).isEqualTo("UnsupportedMediaType");
        assertThat(refused.body().path("message").asText()).isEqualTo("the body of the request was in an unknown format - accepted media "
                + "types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml");
        assertThat(store.revision()).isEqualTo(revision);
    }

    @Test
    void aJobLosingItsImageIsRefusedWhateverTheWriteAndNothingIsStored() throws Exception {
        job("imaged");
        long revision = store.revision();
        String withoutImage = JOB.formatted("imaged").replace("\"image\":\"img:1\",", "");

        List<Reply> refusals = List.of(
                send("PATCH", JOBS + "/imaged", SMP, "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":null}]}}}}"),
                send("PATCH", JOBS + "/imaged", "application/merge-patch+json",
                        "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"env\":[{\"name\":\"A\",\"value\":\"1\"}]}]}}}}"),
                send("PUT", JOBS + "/imaged", "application/json", withoutImage),
                send("POST", JOBS, "application/json", JOB.formatted("never").replace("\"image\":\"img:1\",", "")));

        for (Reply refused : refusals) {
            assertThat(refused.code()).as(String.valueOf(refused.body())).isEqualTo(422);
            assertThat(refused.body().path("message").asText()).contains("spec.template.spec.containers[0].image: Required value");
            assertThat(refused.body().at("/details/causes/0/field").asText()).isEqualTo("spec.template.spec.containers[0].image");
        }
        assertThat(store.revision()).isEqualTo(revision);
        assertThat(get(JOBS + "/imaged").at("/spec/template/spec/containers/0/image").asText()).isEqualTo("img:1");
    }

    @Test
    void malformedDirectivesAre400AndStoreNothing() throws Exception {
        job("malformed");
        long revision = store.revision();

        Reply refused = send("PATCH", JOBS + "/malformed", SMP, "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"image\":\"x\"}]}}}}");

        assertThat(refused.code()).isEqualTo(400);
        assertThat(refused.body().path("message").asText()).contains("does not contain declared merge key: name", "spec.template.spec.containers");
        assertThat(store.revision()).isEqualTo(revision);
    }

    private static void deployment(String name) throws Exception {
        Reply created = send("POST", DEPLOYMENTS, "application/json", DEPLOYMENT.formatted(name));
        assertThat(created.code()).as(String.valueOf(created.body())).isEqualTo(201);
    }

    private static void job(String name) throws Exception {
        Reply created = send("POST", JOBS, "application/json", JOB.formatted(name));
        assertThat(created.code()).as(String.valueOf(created.body())).isEqualTo(201);
    }

    /** Every key at any depth that starts with "$" (a strategic merge patch directive). */
    private static List<String> directiveKeys(JsonNode node) {
        List<String> found = new ArrayList<>();
        if (node.isObject()) {
            node.fieldNames().forEachRemaining(key -> {
                if (key.startsWith("$")) found.add(key);
            });
        }
        for (JsonNode child : node) found.addAll(directiveKeys(child));
        return found;
    }

    private static JsonNode get(String path) throws Exception {
        Reply reply = send("GET", path, null, null);
        assertThat(reply.code()).as(path).isEqualTo(200);
        return reply.body();
    }

    private static Reply send(String method, String path, String contentType, String body) throws Exception {
        HttpResponse<String> response = harness.client().exchange(method, path, contentType == null ? Map.of() : Map.of("Content-Type", contentType),
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return new Reply(response.statusCode(), response.body().isEmpty() ? null : JSON.readTree(response.body()));
    }
}
