package dev.berth.system.rbac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.berth.virtualcluster.ApiRequest;
import dev.berth.virtualcluster.ClientIdentity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The worker-cluster RBAC contract. The CRUD mock API server has no RBAC, so the end-to-end suites
 * would pass with roles that a real cluster refuses. Instead every virtual cluster records the
 * requests it serves, tagged by the kubeconfig identity that made them; this class runs after the
 * suites (last, by {@code junit-platform.properties}) and holds the Roles and ClusterRoles shipped in
 * deploy/ against them: each recorded request of the agent and of the manager must be granted, and
 * every grant must have been used, or be in {@link WorkerRbacExceptions} with its reason.
 */
@Order(Integer.MAX_VALUE)
class WorkerRbacContractTest {
    private static final Path DEPLOY = repositoryRoot().resolve("deploy");
    private static final String SYSTEM_NAMESPACE = "berth-system";

    /** Who calls a worker cluster, and what deploy/ installs for that caller there. */
    private record Caller(ClientIdentity identity, String kustomization, String serviceAccount) {}

    private static final List<Caller> CALLERS = List.of(
            new Caller(ClientIdentity.AGENT, "worker-agent/base", "berth-agent"),
            new Caller(ClientIdentity.MANAGER, "worker-agent/manager-access", "berth-manager-access"));

    private static Map<ClientIdentity, List<BoundRule>> shipped;
    private static RecordedRequests recorded;

    @BeforeAll
    static void renderRolesAndReadTheRecords() throws Exception {
        Optional<Path> kubectl = ShippedRbac.findKubectl();
        if (kubectl.isEmpty()) {
            String message = "!!! kubectl not found: the worker RBAC contract is NOT checked. Install kubectl. !!!";
            if ("true".equals(System.getenv("CI"))) fail(message + " (CI=true: kubectl is required)");
            System.err.println(message);
            Assumptions.abort(message);
        }
        var rules = new java.util.EnumMap<ClientIdentity, List<BoundRule>>(ClientIdentity.class);
        for (Caller caller : CALLERS) {
            rules.put(caller.identity(), ShippedRbac.render(kubectl.get(), DEPLOY.resolve(caller.kustomization()))
                    .rulesOf(SYSTEM_NAMESPACE, caller.serviceAccount()));
        }
        shipped = rules;
        Path dir = RecordedRequests.configuredDir().orElseThrow(() -> new AssertionError(
                "system property berth.virtualcluster.requestLogDir is not set: run through Maven (system/pom.xml sets it)"));
        recorded = RecordedRequests.ofThisRun(dir);
        if (recorded.logs() == 0) {
            String message = "no virtual cluster of this test run recorded its API requests in " + dir
                    + ": the end-to-end suites must run before " + WorkerRbacContractTest.class.getSimpleName()
                    + " in the same JVM (./mvnw -pl system -am test)";
            if (isPartialRun()) Assumptions.abort(message);
            fail(message);
        }
    }

    @Test
    void everyRequestTheAgentAndTheManagerMadeIsGrantedByTheShippedRoles() {
        List<String> refused = new ArrayList<>();
        for (Caller caller : CALLERS) {
            for (ApiRequest request : recorded.by(caller.identity().user())) {
                boolean granted = shipped.get(caller.identity()).stream().anyMatch(rule -> rule.grants(request))
                        || BuiltInGrants.EVERY_AUTHENTICATED_USER.stream().anyMatch(rule -> rule.grants(request));
                if (!granted) refused.add(request + "  (not granted by deploy/" + caller.kustomization() + ")");
            }
        }
        assertThat(refused).as("requests a real worker cluster would refuse (403)").isEmpty();
    }

    @Test
    void theShippedRolesGrantNothingTheSuitesDidNotUse() {
        if (isPartialRun()) Assumptions.abort("not every end-to-end suite ran (-Dtest): unused grants are judged when all do");
        List<String> unused = new ArrayList<>();
        for (Caller caller : CALLERS) {
            List<ApiRequest> requests = recorded.by(caller.identity().user());
            for (BoundRule bound : shipped.get(caller.identity())) {
                if (bound.rule().hasWildcard()) {
                    unused.add(bound + ": a wildcard grants more than any recorded request shows is needed");
                    continue;
                }
                for (RbacRule single : bound.rule().singleGrants()) {
                    BoundRule grant = bound.with(single);
                    if (requests.stream().noneMatch(grant::grants) && !WorkerRbacExceptions.allowsUnused(caller.identity(), single)) {
                        unused.add(grant + ", but no recorded request needed it");
                    }
                }
            }
        }
        assertThat(unused).as("grants never used by the end-to-end suites and not in WorkerRbacExceptions").isEmpty();
    }

    @Test
    void whatIsUsedOnlyInBerthSystemIsNotGrantedClusterWide() {
        if (isPartialRun()) Assumptions.abort("not every end-to-end suite ran (-Dtest): grant scopes are judged when all do");
        List<String> tooWide = new ArrayList<>();
        for (Caller caller : CALLERS) {
            List<ApiRequest> requests = recorded.by(caller.identity().user());
            for (BoundRule bound : shipped.get(caller.identity())) {
                if (!bound.clusterWide()) continue;
                for (RbacRule single : bound.rule().singleGrants()) {
                    List<ApiRequest> uses = requests.stream().filter(bound.with(single)::grants).toList();
                    if (!uses.isEmpty() && uses.stream().allMatch(r -> r.namespace().equals(SYSTEM_NAMESPACE) && !r.resource().equals("namespaces"))) {
                        tooWide.add(bound.with(single) + ", but it was only used in " + SYSTEM_NAMESPACE + ": grant it in a Role there");
                    }
                }
            }
        }
        assertThat(tooWide).isEmpty();
    }

    @Test
    void theAgentTouchesNoNamespace() {
        assertThat(recorded.by(ClientIdentity.AGENT.user())).as("berth-system comes with deploy/worker-agent/base; the agent only uses it")
                .noneMatch(request -> request.resource().equals("namespaces"));
    }

    /** A -Dtest selection that leaves out an end-to-end suite: the paths it exercises may not have run. */
    private static boolean isPartialRun() {
        Path testClasses = Path.of(WorkerRbacContractTest.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        return !SuiteSelection.includesEverySuite(System.getProperty("test"), SuiteSelection.endToEndSuites(testClasses));
    }

    /** Surefire runs in the system module; the repository root is its parent. */
    private static Path repositoryRoot() {
        Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
        Path root = module.getParent();
        if (root == null || !Files.isDirectory(root.resolve("deploy"))) throw new AssertionError("cannot find deploy/ next to " + module);
        return root;
    }
}
