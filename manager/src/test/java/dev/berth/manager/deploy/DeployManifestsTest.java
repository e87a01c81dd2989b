package dev.berth.manager.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.testing.NeedsKubectl;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks the deployment assets under {@code deploy/}: renders each kustomization with the real kubectl
 * and asserts what a cluster operator relies on (kinds, non-root containers, probes, resources, least
 * RBAC), that the RemoteWorkload CRD copy matches what protocol generates, and that the Dockerfiles
 * take their base image as an argument and run as UID 65532.
 */
@NeedsKubectl
class DeployManifestsTest {
    private static final String CRD_FILE = "remoteworkloads.berth.dev-v1.yml";
    private static final String REFRESH_CRD = "./mvnw -q -pl protocol install -DskipTests && cp protocol/target/classes/META-INF/fabric8/"
            + CRD_FILE + " deploy/crds/";

    private static final Path REPO = repositoryRoot();
    private static final Path DEPLOY = REPO.resolve("deploy");

    private static List<JsonNode> manager;
    private static List<JsonNode> agent;
    private static List<JsonNode> managerAccess;
    private static List<JsonNode> managerHa;

    @BeforeAll
    static void renderKustomizations() throws Exception {
        var kubectl = KustomizeBuild.findKubectl();
        if (kubectl.isEmpty()) {
            String message = "!!! kubectl not found on PATH nor at " + KustomizeBuild.FALLBACK_KUBECTL
                    + ": the deploy/ manifests are NOT checked. Install kubectl to run DeployManifestsTest. !!!";
            if ("true".equals(System.getenv("CI"))) {
                fail(message + " (CI=true: kubectl is required)");
            }
            System.err.println(message);
            Assumptions.abort(message);
        }
        KustomizeBuild kustomize = new KustomizeBuild(kubectl.get());
        manager = kustomize.render(DEPLOY.resolve("manager/base"));
        agent = kustomize.render(DEPLOY.resolve("worker-agent/base"));
        managerAccess = kustomize.render(DEPLOY.resolve("worker-agent/manager-access"));
        managerHa = kustomize.render(DEPLOY.resolve("manager/ha"));
    }

    @Test
    void managerHaRunsThreeReplicasOnPostgresFromASecretJoinedByKubernetesDiscovery() {
        assertThat(kinds(managerHa)).contains("Deployment", "PodDisruptionBudget").doesNotContain("PersistentVolumeClaim");
        assertNamespacedObjectsIn(managerHa, "berth-system");
        JsonNode deployment = only(managerHa, "Deployment", "berth-manager");
        assertThat(deployment.at("/spec/replicas").asInt()).isEqualTo(3);
        JsonNode container = deployment.at("/spec/template/spec/containers/0");
        assertThat(container.toString()).contains("\"secretKeyRef\":{\"key\":\"url\",\"name\":\"berth-manager-postgres\"}")
                .doesNotContain("berth-manager-data");
        assertThat(deployment.at("/spec/template/spec/volumes").toString()).contains("\"secretName\":\"berth-manager-postgres\"");
        JsonNode config = only(managerHa, "ConfigMap", "berth-manager-config").at("/data");
        assertThat(config.at("/BERTH_STORE").asText()).isEqualTo("postgres");
        assertThat(config.at("/BERTH_K8S_SERVICE_DNS").asText()).startsWith("berth-manager-hazelcast.berth-system.");
        assertThat(config.at("/BERTH_MIN_MEMBERS_TO_LEAD").asText()).isEqualTo("2");
        assertThat(config.at("/BERTH_EXPECTED_MEMBERS").asText()).as("pods started at once join one cluster first").isEqualTo("3");
        JsonNode discovery = only(managerHa, "Service", "berth-manager-hazelcast");
        assertThat(discovery.at("/spec/clusterIP").asText()).isEqualTo("None");
        assertThat(discovery.at("/spec/ports/0/port").asInt()).isEqualTo(5701);
    }

    @Test
    void managerBaseHasItsObjectsInBerthSystem() {
        assertThat(kinds(manager)).containsExactlyInAnyOrder("Namespace", "ServiceAccount",
                "ConfigMap", "PersistentVolumeClaim", "Deployment", "Service");
        assertNamespacedObjectsIn(manager, "berth-system");
        JsonNode deployment = only(manager, "Deployment", "berth-manager");
        assertThat(deployment.at("/spec/replicas").asInt()).isEqualTo(1);
        JsonNode service = only(manager, "Service", "berth-manager");
        assertThat(service.at("/spec/ports/0/port").asInt()).isEqualTo(8080);
    }

    @Test
    void managerKeepsItsStoreOnThePersistentVolumeClaim() {
        JsonNode pod = only(manager, "Deployment", "berth-manager").at("/spec/template/spec");
        String volume = stream(pod.get("volumes"))
                .filter(v -> "berth-manager-data".equals(v.at("/persistentVolumeClaim/claimName").asText()))
                .map(v -> v.get("name").asText()).findFirst()
                .orElseThrow(() -> new AssertionError("no volume uses PVC berth-manager-data"));
        JsonNode container = pod.at("/containers/0");
        assertThat(stream(container.get("volumeMounts")).filter(m -> volume.equals(m.get("name").asText()))
                .map(m -> m.get("mountPath").asText())).containsExactly("/var/lib/berth");
        assertThat(only(manager, "ConfigMap", "berth-manager-config").at("/data/BERTH_DATA_DIR").asText())
                .isEqualTo("/var/lib/berth");
        assertThat(only(manager, "PersistentVolumeClaim", "berth-manager-data")).isNotNull();
    }

    @Test
    void workerAgentBaseHasItsObjectsAndTheCrd() {
        assertThat(kinds(agent)).containsExactlyInAnyOrder("CustomResourceDefinition", "Namespace", "ServiceAccount",
                "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding", "ConfigMap", "Deployment");
        assertNamespacedObjectsIn(agent, "berth-system");
        JsonNode container = only(agent, "Deployment", "berth-agent").at("/spec/template/spec/containers/0");
        assertThat(container.at("/args/0").asText()).isEqualTo("--name");
        assertThat(container.at("/args/1").asText()).isEqualTo("$(BERTH_AGENT_NAME)");
        assertThat(stream(container.get("env")).filter(e -> "BERTH_AGENT_NAME".equals(e.get("name").asText()))
                .map(e -> e.at("/valueFrom/configMapKeyRef/name").asText())).containsExactly("berth-agent-config");
    }

    @Test
    void managerAccessHasItsObjects() {
        assertThat(kinds(managerAccess)).containsExactlyInAnyOrder("Namespace", "ServiceAccount", "Secret",
                "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding");
        assertNamespacedObjectsIn(managerAccess, "berth-system");
    }

    @Test
    void everyContainerRunsAsNonRootWithResourcesAndHealthProbes() {
        List<JsonNode> deployments = new ArrayList<>(ofKind(manager, "Deployment"));
        deployments.addAll(ofKind(agent, "Deployment"));
        assertThat(deployments).hasSize(2);
        for (JsonNode deployment : deployments) {
            JsonNode pod = deployment.at("/spec/template/spec");
            for (JsonNode container : pod.get("containers")) {
                String where = name(deployment) + "/" + container.get("name").asText();
                boolean nonRoot = container.at("/securityContext/runAsNonRoot").asBoolean(false)
                        || pod.at("/securityContext/runAsNonRoot").asBoolean(false);
                assertThat(nonRoot).as(where + " runAsNonRoot").isTrue();
                assertThat(container.at("/securityContext/runAsUser").asInt(pod.at("/securityContext/runAsUser").asInt()))
                        .as(where + " runAsUser").isEqualTo(65532);
                assertThat(container.at("/securityContext/readOnlyRootFilesystem").asBoolean()).as(where).isTrue();
                assertThat(container.at("/securityContext/allowPrivilegeEscalation").asBoolean(true)).as(where).isFalse();
                assertThat(container.at("/resources/requests/cpu").isMissingNode()).as(where + " cpu request").isFalse();
                assertThat(container.at("/resources/requests/memory").isMissingNode()).as(where + " memory request").isFalse();
                assertThat(container.at("/resources/limits/memory").isMissingNode()).as(where + " memory limit").isFalse();
                assertThat(container.at("/livenessProbe/httpGet/path").asText()).as(where + " liveness").isEqualTo("/healthz");
                assertThat(container.at("/readinessProbe/httpGet/path").asText()).as(where + " readiness").isEqualTo("/readyz");
            }
        }
    }

    @Test
    void managerHasNoAccessToItsOwnClustersApi() {
        for (List<JsonNode> rendered : List.of(manager, managerHa)) {
            assertThat(kinds(rendered)).doesNotContain("Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding");
            assertThat(only(rendered, "ServiceAccount", "berth-manager").at("/automountServiceAccountToken").asBoolean(true))
                    .as("the manager's pods get no API token").isFalse();
            assertThat(only(rendered, "Deployment", "berth-manager").at("/spec/template/spec/automountServiceAccountToken").asBoolean(false))
                    .as("the pod spec does not mount the token back in").isFalse();
        }
    }

    /** The shape of the agent's roles; that they match what the agent really does is WorkerRbacContractTest's (system module). */
    @Test
    void agentIsGrantedExactlyWhatItNeeds() {
        // listed and watched: the agent's passes read informer caches of what it dispatched (ClusterCaches)
        Set<String> dispatchedKind = Set.of("list", "watch", "create", "delete");
        assertThat(grants(only(agent, "ClusterRole", "berth-agent"))).isEqualTo(grantsOf(
                "berth.dev/remoteworkloads", Set.of("list", "watch"),
                "berth.dev/remoteworkloads/status", Set.of("update"),
                "batch/jobs", dispatchedKind,
                "jobset.x-k8s.io/jobsets", dispatchedKind,
                "kubeflow.org/pytorchjobs", dispatchedKind,
                "kubeflow.org/mpijobs", dispatchedKind,
                "ray.io/rayjobs", dispatchedKind,
                "ray.io/rayclusters", dispatchedKind,
                "trainer.kubeflow.org/trainjobs", dispatchedKind,
                "trainer.kubeflow.org/trainingruntimes", Set.of("create"),
                "trainer.kubeflow.org/clustertrainingruntimes", Set.of("create"),
                "apps/deployments", dispatchedKind,
                "apps/statefulsets", dispatchedKind,
                "leaderworkerset.x-k8s.io/leaderworkersets", dispatchedKind,
                "workload.codeflare.dev/appwrappers", dispatchedKind,
                "/pods", Set.of("list", "watch", "create", "delete"),
                "/nodes", Set.of("list", "watch"),
                "autoscaling.x-k8s.io/provisioningrequests", Set.of("get", "create"),
                "/podtemplates", Set.of("get", "create")));
        assertThat(grants(only(agent, "Role", "berth-agent"))).isEqualTo(Map.of(
                "coordination.k8s.io/leases", Set.of("get", "create", "update"),
                "/configmaps", Set.of("get")));
        assertThat(namedGrants(only(agent, "Role", "berth-agent"))).isEqualTo(Map.of(
                "coordination.k8s.io/leases", Set.of("berth-agent"), "/configmaps", Set.of("berth-flavors", "berth-autoscaling")));
        assertThat(grants(only(agent, "ClusterRole", "berth-agent"))).doesNotContainKey("/namespaces");
        assertBoundTo(agent, "berth-agent");
    }

    /** The shape of the manager's roles in a worker; that they match what it really does is WorkerRbacContractTest's (system module). */
    @Test
    void managerAccessInWorkersIsGrantedExactlyWhatDispatchNeeds() {
        assertThat(grants(only(managerAccess, "ClusterRole", "berth-manager-access"))).isEqualTo(grantsOf(
                "berth.dev/remoteworkloads", Set.of("get", "list", "create", "patch", "delete"),
                "/namespaces", Set.of("get", "create"),
                "batch/jobs", Set.of("list", "delete"),
                "jobset.x-k8s.io/jobsets", Set.of("list", "delete"),
                "kubeflow.org/pytorchjobs", Set.of("list", "delete"),
                "kubeflow.org/mpijobs", Set.of("list", "delete"),
                "ray.io/rayjobs", Set.of("list", "delete"),
                "ray.io/rayclusters", Set.of("list", "delete"),
                "trainer.kubeflow.org/trainjobs", Set.of("list", "delete"),
                "apps/deployments", Set.of("list", "delete"),
                "apps/statefulsets", Set.of("list", "delete"),
                "leaderworkerset.x-k8s.io/leaderworkersets", Set.of("list", "delete"),
                "workload.codeflare.dev/appwrappers", Set.of("list", "delete"),
                "/pods", Set.of("list", "delete")));
        assertThat(grants(only(managerAccess, "Role", "berth-manager-access"))).isEqualTo(Map.of(
                "/configmaps", Set.of("get", "create", "update"),
                "coordination.k8s.io/leases", Set.of("get")));
        assertThat(namedGrants(only(managerAccess, "Role", "berth-manager-access"))).isEqualTo(Map.of(
                "coordination.k8s.io/leases", Set.of("berth-agent"), "/configmaps", Set.of("berth-flavors")));
        assertBoundTo(managerAccess, "berth-manager-access");
        JsonNode token = only(managerAccess, "Secret", "berth-manager-access-token");
        assertThat(token.at("/metadata/annotations/kubernetes.io~1service-account.name").asText())
                .isEqualTo("berth-manager-access");
    }

    @Test
    void noRoleGrantsWildcards() {
        for (List<JsonNode> rendered : List.of(manager, agent, managerAccess)) {
            for (JsonNode role : rendered) {
                if (!kind(role).endsWith("Role")) {
                    continue;
                }
                for (JsonNode rule : role.get("rules")) {
                    for (String field : List.of("apiGroups", "resources", "verbs", "resourceNames")) {
                        assertThat(stream(rule.get(field)).map(JsonNode::asText))
                                .as(kind(role) + " " + name(role) + " " + field).doesNotContain("*");
                    }
                }
            }
        }
    }

    @Test
    void renderedAgentCrdIsTheGeneratedOne() throws IOException {
        JsonNode rendered = only(agent, "CustomResourceDefinition", "remoteworkloads.berth.dev");
        assertThat(rendered.get("spec")).isEqualTo(generatedCrd().get("spec"));
    }

    @Test
    void crdCopyInDeployIsNotStale() throws IOException {
        JsonNode copy = KustomizeBuild.parseFile(DEPLOY.resolve("crds").resolve(CRD_FILE));
        assertThat(copy).as("deploy/crds/" + CRD_FILE + " differs from the CRD protocol generates; refresh it with: "
                + REFRESH_CRD).isEqualTo(generatedCrd());
    }

    @Test
    void managerDockerfileTakesItsBaseAndRunsAsNonRoot() throws IOException {
        List<String> lines = dockerfile("manager");
        assertCommonDockerfile(lines, "8080", "manager/target/berth-manager.jar", "manager/target/lib/");
        String entrypoint = instruction(lines, "ENTRYPOINT");
        for (String opened : List.of("java.base/java.lang", "java.base/java.util", "java.base/java.nio", "java.base/sun.nio.ch")) {
            assertThat(entrypoint).contains("\"" + opened + "=ALL-UNNAMED\"");
        }
        assertThat(instruction(lines, "CMD")).contains("\"--data\", \"/var/lib/berth\"");
    }

    @Test
    void agentDockerfileTakesItsBaseAndRunsAsNonRoot() throws IOException {
        List<String> lines = dockerfile("worker-agent");
        assertCommonDockerfile(lines, "8081", "worker-agent/target/berth-worker-agent.jar", "worker-agent/target/lib/");
        assertThat(instruction(lines, "ENTRYPOINT")).contains("\"/opt/berth/berth-worker-agent.jar\"");
    }

    private static void assertCommonDockerfile(List<String> lines, String port, String jar, String lib) {
        assertThat(lines).contains("ARG BASE_IMAGE=eclipse-temurin:17-jre", "FROM ${BASE_IMAGE}",
                "USER 65532:65532", "EXPOSE " + port);
        assertThat(lines).anyMatch(l -> l.startsWith("COPY " + jar + " "));
        assertThat(lines).anyMatch(l -> l.startsWith("COPY " + lib + " "));
        assertThat(instruction(lines, "ENTRYPOINT")).startsWith("ENTRYPOINT [\"java\",").contains("\"-XX:MaxRAMPercentage=75\"");
    }

    /** The Dockerfile's instructions, one per entry, with continuation lines joined and comments dropped. */
    private static List<String> dockerfile(String image) throws IOException {
        List<String> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String raw : Files.readAllLines(DEPLOY.resolve(image).resolve("Dockerfile"), StandardCharsets.UTF_8)) {
            String line = raw.strip();
            if (line.startsWith("#") || (line.isEmpty() && current.length() == 0)) {
                continue;
            }
            if (line.endsWith("\\")) {
                current.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            instructions.add((current + line).replaceAll("\\s+", " ").strip());
            current.setLength(0);
        }
        return instructions;
    }

    private static String instruction(List<String> lines, String keyword) {
        return lines.stream().filter(l -> l.startsWith(keyword + " ")).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no " + keyword + " instruction"));
    }

    /** The CRD protocol's crd-generator wrote: from the reactor's protocol/target, else from the class path. */
    private static JsonNode generatedCrd() throws IOException {
        Path built = REPO.resolve("protocol/target/classes/META-INF/fabric8").resolve(CRD_FILE);
        if (Files.isRegularFile(built)) {
            return KustomizeBuild.parseFile(built);
        }
        try (InputStream in = DeployManifestsTest.class.getResourceAsStream("/META-INF/fabric8/" + CRD_FILE)) {
            if (in == null) {
                throw new AssertionError("the generated CRD is neither at " + built + " nor on the class path; build protocol first: "
                        + "./mvnw -q -pl protocol install -DskipTests");
            }
            return KustomizeBuild.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** "group/resource" to verbs, merged over the role's rules. */
    private static Map<String, Set<String>> grants(JsonNode role) {
        Map<String, Set<String>> grants = new TreeMap<>();
        for (JsonNode rule : role.get("rules")) {
            for (JsonNode group : rule.get("apiGroups")) {
                for (JsonNode resource : rule.get("resources")) {
                    grants.computeIfAbsent(group.asText() + "/" + resource.asText(), k -> new TreeSet<>())
                            .addAll(stream(rule.get("verbs")).map(JsonNode::asText).toList());
                }
            }
        }
        return grants;
    }

    /** "group/resource" to the object names its rules with resourceNames are limited to. */
    private static Map<String, Set<String>> namedGrants(JsonNode role) {
        Map<String, Set<String>> names = new TreeMap<>();
        for (JsonNode rule : role.get("rules")) {
            if (rule.get("resourceNames") == null) continue;
            for (JsonNode group : rule.get("apiGroups")) {
                for (JsonNode resource : rule.get("resources")) {
                    names.computeIfAbsent(group.asText() + "/" + resource.asText(), k -> new TreeSet<>())
                            .addAll(stream(rule.get("resourceNames")).map(JsonNode::asText).toList());
                }
            }
        }
        return names;
    }

    private static void assertBoundTo(List<JsonNode> rendered, String serviceAccount) {
        for (JsonNode binding : rendered) {
            if (kind(binding).endsWith("RoleBinding")) {
                assertThat(binding.at("/subjects/0/kind").asText()).isEqualTo("ServiceAccount");
                assertThat(binding.at("/subjects/0/name").asText()).isEqualTo(serviceAccount);
                assertThat(binding.at("/subjects/0/namespace").asText()).isEqualTo("berth-system");
                assertThat(binding.at("/roleRef/kind").asText() + "Binding").isEqualTo(kind(binding));
                assertThat(only(rendered, binding.at("/roleRef/kind").asText(), binding.at("/roleRef/name").asText())).isNotNull();
            }
        }
    }

    private static void assertNamespacedObjectsIn(List<JsonNode> rendered, String namespace) {
        Set<String> clusterScoped = Set.of("Namespace", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition");
        for (JsonNode object : rendered) {
            if (!clusterScoped.contains(kind(object))) {
                assertThat(object.at("/metadata/namespace").asText()).as(kind(object) + " " + name(object)).isEqualTo(namespace);
            }
        }
    }

    @Test
    void theManagerIsStartedWithTheKueueConfigurationOfItsConfigMapWhichLoadsWithoutWarnings() {
        JsonNode configMap = only(manager, "ConfigMap", "berth-kueue-manager-config");
        var settings = dev.berth.manager.config.ManagerSettings.from(dev.berth.manager.config.KueueConfigurationFile.fromYaml(
                configMap.at("/data/controller_manager_config.yaml").asText(), "berth-kueue-manager-config"),
                dev.berth.manager.config.ManagerSettings.Flags.NONE);
        assertThat(settings.warnings()).isEmpty();
        JsonNode pod = only(manager, "Deployment", "berth-manager").at("/spec/template/spec");
        String volume = stream(pod.get("volumes")).filter(v -> "berth-kueue-manager-config".equals(v.at("/configMap/name").asText()))
                .map(v -> v.get("name").asText()).findFirst().orElseThrow(() -> new AssertionError("the Kueue ConfigMap is not mounted"));
        JsonNode container = pod.at("/containers/0");
        String mountPath = stream(container.get("volumeMounts")).filter(m -> volume.equals(m.get("name").asText()))
                .map(m -> m.get("mountPath").asText()).findFirst().orElseThrow();
        List<String> args = stream(container.get("args")).map(JsonNode::asText).toList();
        assertThat(args.get(args.indexOf("--config") + 1)).isEqualTo(mountPath + "/controller_manager_config.yaml");
    }

    private static JsonNode only(List<JsonNode> rendered, String kind, String name) {
        List<JsonNode> matches = rendered.stream().filter(o -> kind.equals(kind(o)) && name.equals(name(o))).toList();
        assertThat(matches).as(kind + " " + name).hasSize(1);
        return matches.get(0);
    }

    private static List<JsonNode> ofKind(List<JsonNode> rendered, String kind) {
        return rendered.stream().filter(o -> kind.equals(kind(o))).toList();
    }

    private static List<String> kinds(List<JsonNode> rendered) {
        return rendered.stream().map(DeployManifestsTest::kind).distinct().collect(Collectors.toList());
    }

    private static String kind(JsonNode object) {
        return object.path("kind").asText();
    }

    private static String name(JsonNode object) {
        return object.at("/metadata/name").asText();
    }

    private static java.util.stream.Stream<JsonNode> stream(JsonNode array) {
        return array == null ? java.util.stream.Stream.empty() : StreamSupport.stream(array.spliterator(), false);
    }

    /** Surefire runs in the manager module; the repository root is its parent. */
    private static Path repositoryRoot() {
        Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
        Path root = module.getParent();
        if (root == null || !Files.isDirectory(root.resolve("deploy"))) {
            throw new AssertionError("cannot find deploy/ next to " + module);
        }
        return root;
    }

    /** A map of grants from resource, verbs pairs (more than Map.of takes). */
    @SuppressWarnings("unchecked")
    private static Map<String, Set<String>> grantsOf(Object... resourceThenVerbs) {
        Map<String, Set<String>> grants = new java.util.HashMap<>();
        for (int i = 0; i < resourceThenVerbs.length; i += 2) grants.put((String) resourceThenVerbs[i], (Set<String>) resourceThenVerbs[i + 1]);
        return grants;
    }
}
