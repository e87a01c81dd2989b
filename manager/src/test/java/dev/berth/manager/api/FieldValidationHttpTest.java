package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * fieldValidation on a real manager (issue 13): unknown fields are pruned before anything is stored,
 * Strict refuses the write naming each one, Warn (the default) answers a Warning per field, Ignore
 * says nothing; the schema is the one of the version the client wrote in.
 */
class FieldValidationHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CLUSTER_QUEUES = "/apis/kueue.x-k8s.io/v1beta2/clusterqueues";
    private static final String V1BETA1_CLUSTER_QUEUES = "/apis/kueue.x-k8s.io/v1beta1/clusterqueues";
    private static final String WORKLOADS = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads";
    private static final String FLAVORS = "/apis/kueue.x-k8s.io/v1beta2/resourceflavors";
    private static final String MERGE = "application/merge-patch+json";
    private static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/team-a/deployments";
    private static final String TRAINING_RUNTIMES = "/apis/trainer.kubeflow.org/v1alpha1/clustertrainingruntimes";


    record Reply(int code, JsonNode body, List<String> warnings) {}

    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();

    @Test
    void strictRefusesEveryUnknownFieldAndStoresNothing() throws Exception {
        Reply refused = call("POST", CLUSTER_QUEUES + "?fieldValidation=Strict", "application/json",
                clusterQueue("strict", "'cohort':'c','colour':'red'"));

        assertThat(refused.code()).isEqualTo(400);
        assertThat(refused.body().path("reason").asText()).isEqualTo("BadRequest");
        assertThat(refused.body().path("message").asText()).isEqualTo("ClusterQueue in version \"v1beta2\" cannot be handled as a ClusterQueue: "
                + "strict decoding error: unknown field \"spec.cohort\", unknown field \"spec.colour\"");
        assertThat(call("GET", CLUSTER_QUEUES + "/strict", null, null).code()).isEqualTo(404);
    }

    @Test
    void warnIsTheDefaultAndAnswersOneWarningPerFieldAndStoresThePrunedObject() throws Exception {
        Reply created = call("POST", CLUSTER_QUEUES, "application/json", clusterQueue("warned", "'cohort':'c','colour':'red'"));

        assertThat(created.code()).as(String.valueOf(created.body())).isEqualTo(201);
        assertThat(created.warnings()).contains("299 - \"unknown field \\\"spec.cohort\\\"\"", "299 - \"unknown field \\\"spec.colour\\\"\"");
        JsonNode stored = call("GET", CLUSTER_QUEUES + "/warned", null, null).body();
        assertThat(stored.path("spec").has("cohort")).isFalse();
        assertThat(stored.path("spec").has("colour")).isFalse();
        assertThat(stored.at("/spec/namespaceSelector").isObject()).isTrue();
    }

    @Test
    void theV1beta1FieldCohortOnAV1beta2ClusterQueueIsNamedNotSilentlyStored() throws Exception {
        Reply created = call("POST", CLUSTER_QUEUES + "?fieldValidation=Warn", "application/json", clusterQueue("v1beta1-field", "'cohort':'shared'"));

        assertThat(created.warnings()).containsExactly("299 - \"unknown field \\\"spec.cohort\\\"\"");
        assertThat(created.body().at("/spec/cohort").isMissingNode()).isTrue();
    }

    @Test
    void theSchemaIsTheOneOfTheVersionTheClientWroteIn() throws Exception {
        Reply created = call("POST", V1BETA1_CLUSTER_QUEUES + "?fieldValidation=Strict", "application/json",
                json("{'apiVersion':'kueue.x-k8s.io/v1beta1','kind':'ClusterQueue','metadata':{'name':'old-style'},"
                        + "'spec':{'cohort':'shared','namespaceSelector':{}}}"));

        assertThat(created.code()).as(String.valueOf(created.body())).isEqualTo(201);
        assertThat(call("GET", CLUSTER_QUEUES + "/old-style", null, null).body().at("/spec/cohortName").asText()).isEqualTo("shared");
    }

    @Test
    void ignoreAcceptsSilentlyButStillPrunes() throws Exception {
        Reply created = call("POST", CLUSTER_QUEUES + "?fieldValidation=Ignore", "application/json", clusterQueue("ignored", "'colour':'red'"));

        assertThat(created.code()).isEqualTo(201);
        assertThat(created.warnings()).isEmpty();
        assertThat(call("GET", CLUSTER_QUEUES + "/ignored", null, null).body().at("/spec/colour").isMissingNode()).isTrue();
    }

    @Test
    void anInvalidDirectiveIsABadRequest() throws Exception {
        Reply refused = call("POST", CLUSTER_QUEUES + "?fieldValidation=Loud", "application/json", clusterQueue("loud", ""));

        assertThat(refused.code()).isEqualTo(400);
        assertThat(refused.body().path("message").asText()).contains("fieldValidation", "\"Loud\"", "Strict");
        assertThat(call("GET", CLUSTER_QUEUES + "/loud", null, null).code()).isEqualTo(404);
    }

    @Test
    void anUnknownFieldDeepInAWorkloadPodTemplateIsNamedWithItsPath() throws Exception {
        String workload = json("{'apiVersion':'kueue.x-k8s.io/v1beta2','kind':'Workload','metadata':{'name':'deep'},'spec':{'queueName':'team-a-queue',"
                + "'podSets':[{'name':'main','count':1,'template':{'spec':{'restartPolicy':'Never','containers':[{'name':'c','image':'busybox',"
                + "'imagePullPolicyy':'Always','resources':{'requests':{'cpu':'1'}}}]}}}]}}");

        Reply refused = call("POST", WORKLOADS + "?fieldValidation=Strict", "application/json", workload);
        assertThat(refused.code()).isEqualTo(400);
        assertThat(refused.body().path("message").asText()).endsWith("unknown field \"spec.podSets[0].template.spec.containers[0].imagePullPolicyy\"");

        Reply created = call("POST", WORKLOADS, "application/json", workload);
        assertThat(created.code()).as(String.valueOf(created.body())).isEqualTo(201);
        assertThat(created.body().at("/spec/podSets/0/template/spec/containers/0").has("imagePullPolicyy")).isFalse();
        assertThat(created.body().at("/spec/podSets/0/template/spec/containers/0/image").asText()).isEqualTo("busybox");
    }

    @Test
    void unknownMetadataFieldsArePrunedButLabelsAndAnnotationsKept() throws Exception {
        Reply created = call("POST", FLAVORS, "application/json", json("{'apiVersion':'kueue.x-k8s.io/v1beta2','kind':'ResourceFlavor',"
                + "'metadata':{'name':'meta','labels':{'a':'b'},'annotations':{'x':'y'},'colour':'red'},'spec':{'nodeLabels':{'zone':'z1'}}}"));

        assertThat(created.warnings()).containsExactly("299 - \"unknown field \\\"metadata.colour\\\"\"");
        JsonNode stored = call("GET", FLAVORS + "/meta", null, null).body();
        assertThat(stored.at("/metadata/colour").isMissingNode()).isTrue();
        assertThat(stored.at("/metadata/labels/a").asText()).isEqualTo("b");
        assertThat(stored.at("/spec/nodeLabels/zone").asText()).isEqualTo("z1");
    }

    @Test
    void aStatusWriteIsPrunedToo() throws Exception {
        call("POST", CLUSTER_QUEUES, "application/json", clusterQueue("with-status", ""));
        JsonNode current = call("GET", CLUSTER_QUEUES + "/with-status", null, null).body();
        ((com.fasterxml.jackson.databind.node.ObjectNode) current).putObject("status").put("pendingWorkloads", 0).put("mood", "calm");

        Reply refused = call("PUT", CLUSTER_QUEUES + "/with-status/status?fieldValidation=Strict", "application/json", current.toString());

        assertThat(refused.code()).isEqualTo(400);
        assertThat(refused.body().path("message").asText()).endsWith("unknown field \"status.mood\"");
    }

    @Test
    void aReplaceOfWhatWasReadDrawsNoWarningForFieldsAlreadyStored() throws Exception {
        call("POST", CLUSTER_QUEUES, "application/json", clusterQueue("round-trip", ""));

        // The controller writes the new queue's status on its own; a replace that races it gets 409,
        // and a client then reads again and retries, as kubectl edit and replace do.
        java.util.concurrent.atomic.AtomicReference<Reply> replaced = new java.util.concurrent.atomic.AtomicReference<>();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            JsonNode read = call("GET", CLUSTER_QUEUES + "/round-trip", null, null).body();
            replaced.set(call("PUT", CLUSTER_QUEUES + "/round-trip?fieldValidation=Strict", "application/json", read.toString()));
            return replaced.get().code() != 409;
        });

        assertThat(replaced.get().code()).as(String.valueOf(replaced.get().body())).isEqualTo(200);
        assertThat(replaced.get().warnings()).isEmpty();
    }

    @Test
    void aMergePatchAddingAnUnknownFieldIsCheckedAndPruned() throws Exception {
        call("POST", CLUSTER_QUEUES, "application/json", clusterQueue("patched", ""));

        Reply refused = call("PATCH", CLUSTER_QUEUES + "/patched?fieldValidation=Strict", MERGE, json("{'spec':{'cohort':'x'}}"));
        assertThat(refused.code()).isEqualTo(400);
        assertThat(refused.body().path("message").asText()).contains("unknown field \"spec.cohort\"");

        Reply warned = call("PATCH", CLUSTER_QUEUES + "/patched", MERGE, json("{'spec':{'cohort':'x','cohortName':'y'}}"));
        assertThat(warned.code()).isEqualTo(200);
        assertThat(warned.warnings()).containsExactly("299 - \"unknown field \\\"spec.cohort\\\"\"");
        JsonNode stored = call("GET", CLUSTER_QUEUES + "/patched", null, null).body();
        assertThat(stored.at("/spec/cohort").isMissingNode()).isTrue();
        assertThat(stored.at("/spec/cohortName").asText()).isEqualTo("y");
    }

    /**
     * The kinds issue 17 added to what Berth serves, checked against their vendored schemas (apps/v1 from Kubernetes
     * 1.32, Trainer v2.1.0's CRDs): the shipped example with one unknown spec field is refused under Strict, as
     * kube-apiserver refuses a strict decoding error (400 BadRequest, the field named, nothing stored), and
     * created without it by default (Warn).
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
            "deployment.yaml,            0, Deployment,             /apis/apps/v1/namespaces/team-a/deployments,                   vllm-server",
            "statefulset.yaml,           0, StatefulSet,            /apis/apps/v1/namespaces/team-a/statefulsets,                  triton",
            "trainjob.yaml,              0, ClusterTrainingRuntime, /apis/trainer.kubeflow.org/v1alpha1/clustertrainingruntimes,   torch-distributed",
            "trainjob.yaml,              1, TrainJob,               /apis/trainer.kubeflow.org/v1alpha1/namespaces/team-a/trainjobs, torch-mnist",
    })
    void anUnknownSpecFieldOfAnExampleIsRefusedUnderStrictAndPrunedByDefault(String file, int document, String kind, String collection,
            String exampleName) throws Exception {
        String[] documents = java.nio.file.Files.readString(java.nio.file.Path.of("..", "examples", "jobs", file)).split("(?m)^---$");
        if (kind.equals("TrainJob")) ensureCreated(TRAINING_RUNTIMES, documents[0]);
        String name = "coloured-" + exampleName;
        String withColour = documents[document].replaceFirst("(?m)^  name: " + exampleName + "$", "  name: " + name)
                .replaceFirst("(?m)^spec:$", "spec:\n  colour: red");
        String version = kind.equals("Deployment") || kind.equals("StatefulSet") ? "v1" : "v1alpha1";

        Reply refused = call("POST", collection + "?fieldValidation=Strict", "application/yaml", withColour);
        assertThat(refused.code()).as(String.valueOf(refused.body())).isEqualTo(400);
        assertThat(refused.body().path("message").asText()).isEqualTo(kind + " in version \"" + version + "\" cannot be handled as a " + kind
                + ": strict decoding error: unknown field \"spec.colour\"");
        assertThat(call("GET", collection + "/" + name, null, null).code()).isEqualTo(404);

        Reply created = call("POST", collection, "application/yaml", withColour);
        assertThat(created.code()).as(String.valueOf(created.body())).isEqualTo(201);
        assertThat(created.warnings()).containsExactly("299 - \"unknown field \\\"spec.colour\\\"\"");
        JsonNode stored = call("GET", collection + "/" + name, null, null).body();
        assertThat(stored.at("/spec/colour").isMissingNode()).isTrue();
        assertThat(stored.path("spec").size()).as("the example's own fields are kept").isGreaterThan(1);
    }

    @Test
    void anUnknownFieldInADeploymentsPodTemplateIsNamedThroughTheBuiltInReferences() throws Exception {
        String deployment = java.nio.file.Files.readString(java.nio.file.Path.of("..", "examples", "jobs", "deployment.yaml"))
                .replace("name: vllm-server", "name: deep-deployment").replace("      - name: vllm", "      - name: vllm\n        imagePullPolicyy: Always");

        Reply refused = call("POST", DEPLOYMENTS + "?fieldValidation=Strict", "application/yaml", deployment);

        assertThat(refused.code()).isEqualTo(400);
        assertThat(refused.body().path("message").asText()).endsWith("unknown field \"spec.template.spec.containers[0].imagePullPolicyy\"");
    }

    @Test
    void aTrainJobStatusWriteKeepsTheTrainersFieldsAndRefusesOthersUnderStrict() throws Exception {
        String[] documents = java.nio.file.Files.readString(java.nio.file.Path.of("..", "examples", "jobs", "trainjob.yaml")).split("(?m)^---$");
        ensureCreated(TRAINING_RUNTIMES, documents[0]);
        String trainJobs = "/apis/trainer.kubeflow.org/v1alpha1/namespaces/team-a/trainjobs";
        assertThat(call("POST", trainJobs, "application/yaml", documents[1].replace("name: torch-mnist", "name: with-status")).code()).isEqualTo(201);
        String status = "'status':{'conditions':[{'type':'Complete','status':'True','reason':'JobSetCompleted','message':'done',"
                + "'lastTransitionTime':'2026-01-01T00:00:00Z'}],'jobsStatus':[{'name':'node','ready':0,'succeeded':2,'failed':0,'active':0,'suspended':0}]";

        Reply refused = call("PATCH", trainJobs + "/with-status/status?fieldValidation=Strict", MERGE, json("{" + status + ",'mood':'calm'}}"));
        assertThat(refused.code()).isEqualTo(400);
        assertThat(refused.body().path("message").asText()).endsWith("unknown field \"status.mood\"");

        Reply written = call("PATCH", trainJobs + "/with-status/status?fieldValidation=Strict", MERGE, json("{" + status + "}}"));
        assertThat(written.code()).as(String.valueOf(written.body())).isEqualTo(200);
        assertThat(call("GET", trainJobs + "/with-status", null, null).body().at("/status/jobsStatus/0/succeeded").asInt()).isEqualTo(2);
    }

    private static void ensureCreated(String collection, String yaml) throws Exception {
        int code = call("POST", collection, "application/yaml", yaml).code();
        assertThat(code).isIn(201, 409);
    }

    private static String clusterQueue(String name, String extraSpec) {
        String extra = extraSpec.isEmpty() ? "" : "," + extraSpec;
        return json("{'apiVersion':'kueue.x-k8s.io/v1beta2','kind':'ClusterQueue','metadata':{'name':'" + name + "'},"
                + "'spec':{'namespaceSelector':{}" + extra + "}}");
    }

    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    static Reply call(String method, String path, String contentType, String body) throws Exception {
        HttpResponse<String> response = harness.client().send(method, path, contentType, body);
        JsonNode parsed = response.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(response.body());
        return new Reply(response.statusCode(), parsed, response.headers().allValues("Warning"));
    }
}
