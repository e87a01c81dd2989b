package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Namespaces over real HTTP as kube-apiserver keeps them (issue 13): phase and name label, delete that
 * terminates the namespace, empties it (LocalQueues and Workloads too, releasing their quota) and
 * removes it, and the NamespaceLifecycle refusals of creates in missing or terminating namespaces.
 */
class NamespaceLifecycleHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NAMESPACES = "/api/v1/namespaces";
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final String NAME_LABEL = "kubernetes.io/metadata.name";

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty();
    /** Its own client: the watch test reads a streamed answer, which ManagerClient does not. */

    record Reply(int code, JsonNode body) {}

    @Test
    void aNamespaceIsActiveAndItsNameLabelCannotBeChangedOrRemoved() throws Exception {
        Reply created = send("POST", NAMESPACES, "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'team-x','labels':{'team':'x'}}}");
        assertThat(created.code()).as(created.body().toString()).isEqualTo(201);
        assertThat(created.body().at("/status/phase").asText()).isEqualTo("Active");
        assertThat(created.body().at("/metadata/labels").get(NAME_LABEL).asText()).isEqualTo("team-x");
        assertThat(created.body().at("/spec/finalizers").toString()).isEqualTo("[\"kubernetes\"]");

        Reply removed = send("PATCH", NAMESPACES + "/team-x", "application/merge-patch+json",
                "{'metadata':{'labels':{'" + NAME_LABEL + "':null,'team':null}}}");
        assertThat(removed.code()).as(removed.body().toString()).isEqualTo(200);
        Reply changed = send("PATCH", NAMESPACES + "/team-x", "application/merge-patch+json",
                "{'metadata':{'labels':{'" + NAME_LABEL + "':'other'}}}");
        assertThat(changed.code()).isEqualTo(200);

        JsonNode stored = send("GET", NAMESPACES + "/team-x", null).body();
        assertThat(stored.at("/metadata/labels").get(NAME_LABEL).asText()).isEqualTo("team-x");
        assertThat(stored.at("/metadata/labels").has("team")).isFalse();
        assertThat(stored.at("/status/phase").asText()).isEqualTo("Active");
        for (String system : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
            Reply namespace = send("GET", NAMESPACES + "/" + system, null);
            assertThat(namespace.code()).as(system).isEqualTo(200);
            assertThat(namespace.body().at("/status/phase").asText()).isEqualTo("Active");
            assertThat(namespace.body().at("/metadata/labels").get(NAME_LABEL).asText()).isEqualTo(system);
        }
    }

    @Test
    void deletingANamespaceTerminatesItDeletesEverythingInItReleasesItsQuotaThenRemovesIt() throws Exception {
        queueWithFourCpus();
        namespace("team-x");
        namespace("team-y");
        localQueue("team-x");
        localQueue("team-y");
        created(KUEUE + "/namespaces/team-x/workloads", workload("holder"));
        await().atMost(Duration.ofSeconds(20)).until(() -> reserved("team-x", "holder"));
        created(KUEUE + "/namespaces/team-y/workloads", workload("waiter"));
        created("/api/v1/namespaces/team-x/secrets", "{'apiVersion':'v1','kind':'Secret','metadata':{'name':'s'},'stringData':{'k':'v'}}");
        assertThat(reserved("team-y", "waiter")).as("no quota left for the waiter while the holder runs").isFalse();

        String resourceVersion = send("GET", NAMESPACES + "/team-x", null).body().at("/metadata/resourceVersion").asText();
        List<JsonNode> events = new CopyOnWriteArrayList<>();
        CompletableFuture<HttpResponse<Stream<String>>> watch = harness.client().sendRawAsync("GET",
                NAMESPACES + "?watch=true&resourceVersion=" + resourceVersion, HttpRequest.BodyPublishers.noBody(), request -> { },
                HttpResponse.BodyHandlers.ofLines());
        watch.thenAccept(response -> response.body().forEach(line -> {
            try {
                if (!line.isBlank()) events.add(JSON.readTree(line));
            } catch (Exception ignored) {
                // a partial line at close
            }
        }));

        Reply deleted = send("DELETE", NAMESPACES + "/team-x", null);
        assertThat(deleted.code()).as(deleted.body().toString()).isEqualTo(200);
        assertThat(deleted.body().at("/status/phase").asText()).isEqualTo("Terminating");
        assertThat(deleted.body().at("/metadata/deletionTimestamp").asText()).isNotEmpty();

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(eventsFor(events, "team-x"))
                .containsSubsequence("MODIFIED:Terminating", "DELETED:Terminating"));
        assertThat(send("GET", NAMESPACES + "/team-x", null).code()).isEqualTo(404);
        for (String collection : List.of(KUEUE + "/namespaces/team-x/localqueues", KUEUE + "/namespaces/team-x/workloads",
                "/api/v1/namespaces/team-x/events", "/api/v1/namespaces/team-x/pods")) {
            assertThat(send("GET", collection, null).body().get("items")).as(collection).isEmpty();
        }
        assertThat(send("GET", KUEUE + "/localqueues", null).body().findValuesAsText("namespace")).containsOnly("team-y");
        await("the holder's quota is released and the waiter admitted").atMost(Duration.ofSeconds(20))
                .until(() -> reserved("team-y", "waiter"));
        watch.cancel(true);
    }

    @Test
    void creatingInAMissingNamespaceIsNotFoundAndStoresNothing() throws Exception {
        Reply refused = send("POST", KUEUE + "/namespaces/nowhere/localqueues", localQueueBody());

        assertThat(refused.code()).isEqualTo(404);
        assertThat(refused.body().get("reason").asText()).isEqualTo("NotFound");
        assertThat(refused.body().get("message").asText()).isEqualTo("namespaces \"nowhere\" not found");
        assertThat(refused.body().at("/details/kind").asText()).isEqualTo("namespaces");
        assertThat(send("GET", KUEUE + "/namespaces/nowhere/localqueues/lq", null).code()).isEqualTo(404);
        assertThat(send("GET", NAMESPACES + "/nowhere", null).code()).isEqualTo(404);
    }

    @Test
    void creatingInATerminatingNamespaceIsForbiddenAndStoresNothingUntilItsLastFinalizerGoes() throws Exception {
        created(NAMESPACES, "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'held','finalizers':['example.com/hold']}}");
        localQueue("held");
        assertThat(send("DELETE", NAMESPACES + "/held", null).code()).isEqualTo(200);
        JsonNode terminating = send("GET", NAMESPACES + "/held", null).body();
        assertThat(terminating.at("/status/phase").asText()).isEqualTo("Terminating");
        assertThat(send("GET", KUEUE + "/namespaces/held/localqueues", null).body().get("items")).isEmpty();

        Reply refused = send("POST", KUEUE + "/namespaces/held/localqueues", localQueueBody());

        assertThat(refused.code()).isEqualTo(403);
        assertThat(refused.body().get("reason").asText()).isEqualTo("Forbidden");
        assertThat(refused.body().get("message").asText()).isEqualTo("localqueues.kueue.x-k8s.io \"lq\" is forbidden: "
                + "unable to create new content in namespace held because it is being terminated");
        assertThat(refused.body().at("/details/causes/0/reason").asText()).isEqualTo("NamespaceTerminating");
        assertThat(refused.body().at("/details/causes/0/field").asText()).isEqualTo("metadata.namespace");
        assertThat(send("GET", KUEUE + "/namespaces/held/localqueues/lq", null).code()).isEqualTo(404);

        Reply released = send("PATCH", NAMESPACES + "/held", "application/merge-patch+json", "{'metadata':{'finalizers':null}}");
        assertThat(released.code()).as(released.body().toString()).isEqualTo(200);
        assertThat(send("GET", NAMESPACES + "/held", null).code()).isEqualTo(404);
    }

    @Test
    void theSystemNamespacesMayNotBeDeleted() throws Exception {
        for (String immortal : List.of("default", "kube-system", "kube-public")) {
            Reply refused = send("DELETE", NAMESPACES + "/" + immortal, null);
            assertThat(refused.code()).as(immortal).isEqualTo(403);
            assertThat(refused.body().get("message").asText())
                    .isEqualTo("namespaces \"" + immortal + "\" is forbidden: this namespace may not be deleted");
            assertThat(send("GET", NAMESPACES + "/" + immortal, null).body().at("/status/phase").asText()).isEqualTo("Active");
        }
    }

    private static List<String> eventsFor(List<JsonNode> events, String name) {
        return events.stream().filter(e -> name.equals(e.at("/object/metadata/name").asText()))
                .map(e -> e.get("type").asText() + ":" + e.at("/object/status/phase").asText()).toList();
    }

    private void queueWithFourCpus() throws Exception {
        created(KUEUE + "/resourceflavors", "{'apiVersion':'kueue.x-k8s.io/v1beta2','kind':'ResourceFlavor','metadata':{'name':'plain'}}");
        created(KUEUE + "/clusterqueues", "{'apiVersion':'kueue.x-k8s.io/v1beta2','kind':'ClusterQueue','metadata':{'name':'cq'},"
                + "'spec':{'namespaceSelector':{},'resourceGroups':[{'coveredResources':['cpu'],"
                + "'flavors':[{'name':'plain','resources':[{'name':'cpu','nominalQuota':'4'}]}]}]}}");
    }

    private void namespace(String name) throws Exception {
        created(NAMESPACES, "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + name + "'}}");
    }

    private void localQueue(String namespace) throws Exception {
        created(KUEUE + "/namespaces/" + namespace + "/localqueues", localQueueBody());
    }

    private static String localQueueBody() {
        return "{'apiVersion':'kueue.x-k8s.io/v1beta2','kind':'LocalQueue','metadata':{'name':'lq'},'spec':{'clusterQueue':'cq'}}";
    }

    private static String workload(String name) {
        return "{'apiVersion':'kueue.x-k8s.io/v1beta2','kind':'Workload','metadata':{'name':'" + name + "'},'spec':{'queueName':'lq',"
                + "'podSets':[{'name':'main','count':1,'template':{'spec':{'restartPolicy':'Never','containers':[{'name':'c',"
                + "'image':'busybox','resources':{'requests':{'cpu':'4'}}}]}}}]}}";
    }

    private boolean reserved(String namespace, String name) throws Exception {
        JsonNode workload = send("GET", KUEUE + "/namespaces/" + namespace + "/workloads/" + name, null).body();
        for (JsonNode condition : workload.at("/status/conditions")) {
            if ("QuotaReserved".equals(condition.path("type").asText())) return "True".equals(condition.path("status").asText());
        }
        return false;
    }

    private void created(String path, String body) throws Exception {
        Reply reply = send("POST", path, body);
        assertThat(reply.code()).as(path + ": " + reply.body()).isEqualTo(201);
    }

    private Reply send(String method, String path, String body) throws Exception {
        return send(method, path, "application/json", body);
    }

    private Reply send(String method, String path, String contentType, String body) throws Exception {
        HttpResponse<String> response = harness.client().send(method, path, contentType, body == null ? null : body.replace('\'', '"'));
        return new Reply(response.statusCode(), response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body()));
    }
}
