package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * kubectl's typed generators ({@code kubectl create namespace|secret|job|role|...}, {@code kubectl run}) post protobuf bodies
 * for built-in kinds (issue 13). Each is accepted, and what is stored holds everything kubectl promised:
 * the object {@code --dry-run=client -o json} prints is contained in what {@code kubectl get -o json} reads back.
 */
@NeedsKubectl
class KubectlCreateTypedTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();
    static final Kubectl kubectl = Kubectl.on(harness);
    @TempDir
    static Path home;

    @Test
    void createNamespaceStoresTheNamespace() throws Exception {
        createsWhatItPromised("create namespace typed-ns", "namespace typed-ns");
    }

    @Test
    void createSecretFromFileStoresTheFileAsData() throws Exception {
        // kueue-system, where Kueue reads MultiKueue kubeconfig Secrets from, exists from the manager's start.
        String kubeconfig = "apiVersion: v1\nkind: Config\nclusters: []\n# \u00e9\u0000 bytes\n";
        Path file = Files.writeString(home.resolve("worker.kubeconfig"), kubeconfig);
        String create = "kubectl create secret generic s1 -n kueue-system --type=Opaque --from-file=kubeconfig=" + file;
        JsonNode promised = JSON.readTree(kubectl.run(create + " --dry-run=client -o json").ok().stdout());
        kubectl.run(create).ok();
        // Secrets cannot be read back through the Berth API: read what was stored
        JsonNode stored = harness.store().get(ObjectKey.of("/secrets", "kueue-system", "s1")).orElseThrow().object();
        assertContained(promised, stored, "");
        String data = stored.path("data").path("kubeconfig").asText();
        assertThat(new String(Base64.getDecoder().decode(data), StandardCharsets.UTF_8)).isEqualTo(kubeconfig);
    }

    @Test
    void createJobStoresItsImage() throws Exception {
        createsWhatItPromised("create job typed-job -n team-a --image=busybox", "job typed-job -n team-a");
        assertThat(kubectl.run("kubectl get job typed-job -n team-a -o jsonpath={.spec.template.spec.containers[0].image}").ok().stdout())
                .isEqualTo("busybox");
    }

    @Test
    void serverDryRunOfATypedCreateStoresNothing() throws Exception {
        assertThat(kubectl.run("kubectl create job dry-job -n team-a --image=busybox --dry-run=server -o json").ok().stdout())
                .contains("\"busybox\"");
        assertThat(kubectl.run("kubectl get job dry-job -n team-a").exitCode()).isNotZero();
    }

    @Test
    void createRoleAndRoleBindingStoreTheirRulesAndSubjects() throws Exception {
        createsWhatItPromised("create role pod-reader -n team-a --verb=get,list --resource=pods,jobs.batch --resource-name=a",
                "role pod-reader -n team-a");
        createsWhatItPromised("create rolebinding read-pods -n team-a --role=pod-reader --user=alice --group=devs --serviceaccount=team-a:robot",
                "rolebinding read-pods -n team-a");
    }

    @Test
    void createClusterRoleAndBindingStoreTheirRules() throws Exception {
        createsWhatItPromised("create clusterrole queue-viewer --verb=get --resource=clusterqueues.kueue.x-k8s.io --non-resource-url=/healthz",
                "clusterrole queue-viewer");
        createsWhatItPromised("create clusterrolebinding view-queues --clusterrole=queue-viewer --user=bob", "clusterrolebinding view-queues");
    }

    @Test
    void createPriorityClassStoresItsValue() throws Exception {
        createsWhatItPromised("create priorityclass typed-high --value=1000 --description=urgent --preemption-policy=Never", "priorityclass typed-high");
        createsWhatItPromised("create priorityclass typed-zero --value=0", "priorityclass typed-zero");
        assertThat(kubectl.run("kubectl get priorityclass typed-zero -o jsonpath={.value}").ok().stdout()).isEqualTo("0");
    }

    @Test
    void runStoresThePod() throws Exception {
        createsWhatItPromised("run typed-pod -n team-a --image=busybox --restart=Never --labels=app=typed --env=GREETING=hi --port=8080",
                "pod typed-pod -n team-a");
    }

    /** Runs the create, then checks every field kubectl's client-side rendering holds was stored with that value. */
    private static void createsWhatItPromised(String create, String get) throws Exception {
        JsonNode promised = JSON.readTree(kubectl.run("kubectl " + create + " --dry-run=client -o json").ok().stdout());
        kubectl.run("kubectl " + create).ok();
        JsonNode stored = JSON.readTree(kubectl.run("kubectl get " + get + " -o json").ok().stdout());
        assertContained(promised, stored, "");
    }

    private static void assertContained(JsonNode promised, JsonNode stored, String where) {
        if (promised.isNull()) return;
        if (promised.isObject()) {
            assertThat(stored.isObject()).as(where + " is an object in " + stored).isTrue();
            for (Iterator<Map.Entry<String, JsonNode>> fields = promised.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (field.getValue().isNull() || (field.getValue().isObject() && field.getValue().isEmpty())) continue;
                assertThat(stored.has(field.getKey())).as(where + "." + field.getKey() + " stored").isTrue();
                assertContained(field.getValue(), stored.get(field.getKey()), where + "." + field.getKey());
            }
        } else if (promised.isArray()) {
            assertThat(stored.size()).as(where + " length").isEqualTo(promised.size());
            for (int i = 0; i < promised.size(); i++) assertContained(promised.get(i), stored.get(i), where + "[" + i + "]");
        } else {
            assertThat(stored).as(where).isEqualTo(promised);
        }
    }
}
