package dev.berth.manager.clients;

import static org.assertj.core.api.Assertions.fail;

import dev.berth.manager.security.QuickstartCredentials;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsNode;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * npm's @kubernetes/client-node 1.4.0 (clients/node, installed by {@code npm ci} in .ci/run) in a real
 * Node.js against a manager started here with TLS and bearer tokens, through the quickstart's
 * kubeconfig. One dynamic test per case of clients/node/client_node_suite.mjs: CRUD, each patch type,
 * server-side apply with its conflict and force, watch, an informer, pagination, dry-run, cascading
 * deletes, label removal and the identity reviews; after each command the script reads the object back
 * with a plain GET and compares it with what the command promised (clients/node/stored_invariant.mjs).
 * Skips loudly without node or node_modules; under CI=true both are required.
 */
@NeedsNode
class NodeClientTest {
    static final Path SUITE_DIR = Path.of("..", "clients", "node").toAbsolutePath().normalize();
    static final long TIMEOUT_SECONDS = 180;
    static final List<String> CASES = List.of("crud-clusterqueue", "crud-localqueue", "crud-job", "patch-json",
            "patch-merge-removes-label-with-null", "patch-strategic-job", "patch-strategic-deployment", "server-side-apply-conflict-and-force", "watch",
            "informer", "pagination", "dry-run", "cascading-delete-orphan-keeps-workload",
            "cascading-delete-background-removes-workload", "identity");

    /** TLS and the quickstart's tokens, the example queues, MultiKueue objects and RBAC; started once node is found. */
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.empty().secured().manifests(Path.of("..", "examples", "queues"))
            .manifests(Path.of("..", "examples", "multikueue")).manifests(Path.of("..", "examples", "rbac")).startedByTheTest();
    @TempDir
    static Path home;
    static Map<String, String> outcomes;
    static String output;

    @BeforeAll
    static void runTheSuite() throws Exception {
        Path node = requireNodeClient();
        harness.start();
        Path kubeconfig = harness.writeKubeconfig(home.resolve("kubeconfig"));
        output = run(List.of(node.toString(), SUITE_DIR.resolve("client_node_suite.mjs").toString(), kubeconfig.toString(),
                QuickstartCredentials.ADMIN_CONTEXT));
        outcomes = outcomes(output);
    }

    /** One test per case; each case ends with the no-data-loss check of what it stored. */
    @TestFactory
    Stream<DynamicTest> everyCaseKeepsItsData() {
        return CASES.stream().map(name -> DynamicTest.dynamicTest(name, () -> {
            String outcome = outcomes.get(name);
            if (outcome == null) fail("case " + name + " did not report; the script printed:\n" + output);
            if (!outcome.equals("ok")) fail(name + " failed:\n" + outcome);
        }));
    }

    /** "ok name" or "FAIL name <json string>" per line, as the script prints them. */
    private static Map<String, String> outcomes(String printed) throws Exception {
        Map<String, String> byCase = new LinkedHashMap<>();
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        for (String line : printed.split("\n")) {
            if (line.startsWith("ok ")) byCase.put(line.substring(3).trim(), "ok");
            else if (line.startsWith("FAIL ")) {
                String rest = line.substring(5);
                int space = rest.indexOf(' ');
                byCase.put(rest.substring(0, space), json.readValue(rest.substring(space + 1), String.class));
            }
        }
        return byCase;
    }

    private static Path requireNodeClient() {
        Optional<Path> node = onPath("node").or(() -> onPath("nodejs"));
        boolean installed = Files.isDirectory(SUITE_DIR.resolve("node_modules").resolve("@kubernetes").resolve("client-node"));
        if (node.isPresent() && installed) return node.get();
        String message = "!!! " + (node.isEmpty() ? "node not on PATH" : "clients/node/node_modules missing (npm ci --prefix clients/node)")
                + ": the @kubernetes/client-node suite is NOT run. !!!";
        if ("true".equals(System.getenv("CI"))) fail(message + " (CI=true: .ci/run installs nodejs and npm and runs npm ci)");
        System.err.println(message);
        Assumptions.abort(message);
        return null;
    }

    private static Optional<Path> onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) return Optional.of(Path.of(dir, tool));
        }
        return Optional.empty();
    }

    private static String run(List<String> command) throws Exception {
        Path out = Files.createTempFile(home, "node", ".txt");
        Process process = new ProcessBuilder(command).directory(SUITE_DIR.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("node did not finish within " + TIMEOUT_SECONDS + "s:\n" + Files.readString(out, StandardCharsets.UTF_8));
        }
        String printed = Files.readString(out, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) fail("node exited with " + process.exitValue() + ":\n" + printed);
        return printed;
    }
}
