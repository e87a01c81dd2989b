package dev.berth.manager.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.server.BerthManager;
import dev.berth.manager.store.MemoryObjectStore;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's python3-kubernetes with the no-data-loss invariant after every command
 * (src/test/resources/clients/python/stored_invariant.py, the rule of clients/node/stored_invariant.mjs): LocalQueue CRUD
 * and a merge patch whose null removes a label, a JSON patch, a Job's merge patch and dry runs, and a
 * refused write that leaves the stored object as it was. Skips loudly without the package; under
 * CI=true it is required (.ci/run installs it).
 */
class PythonClientInvariantTest {
    static final Path PYTHON = Path.of("/usr/bin/python3");
    static final Path SCRIPT_DIR = Path.of("src", "test", "resources", "clients", "python").toAbsolutePath();
    static final long TIMEOUT_SECONDS = 60;

    @TempDir
    static Path home;
    static Vertx vertx;
    static BerthManager manager;

    @BeforeAll
    static void start() throws Exception {
        requirePythonClient();
        vertx = Vertx.vertx();
        manager = new BerthManager(new MemoryObjectStore(), Clock.systemUTC(), SchedulerOptions.DEFAULTS);
        manager.start(vertx, "127.0.0.1", 0).await();
        manager.loadManifests(Path.of("src", "test", "resources", "e2e-queues"));
    }

    @AfterAll
    static void stop() {
        if (manager != null) manager.close();
        if (vertx != null) vertx.close().await();
    }

    @Test
    void everyCommandStoresWhatItPromised() throws Exception {
        String output = run(List.of(PYTHON.toString(), SCRIPT_DIR.resolve("python_client_invariant.py").toString(),
                "http://127.0.0.1:" + manager.port()));
        assertThat(output).contains("ok localqueue-crud-merge-patch", "ok json-patch", "ok job-merge-patch-dry-run",
                "ok refused-write-stores-nothing");
    }

    private static void requirePythonClient() throws Exception {
        boolean present = Files.isExecutable(PYTHON)
                && new ProcessBuilder(PYTHON.toString(), "-c", "import kubernetes").start().waitFor() == 0;
        if (present) return;
        String message = "!!! python3-kubernetes not importable by " + PYTHON + ": the Python invariant suite is NOT run. !!!";
        if ("true".equals(System.getenv("CI"))) fail(message + " (CI=true: apt-get install python3-kubernetes)");
        System.err.println(message);
        Assumptions.abort(message);
    }

    private static String run(List<String> command) throws Exception {
        Path out = Files.createTempFile(home, "py", ".txt");
        Process process = new ProcessBuilder(command).directory(SCRIPT_DIR.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("python did not finish within " + TIMEOUT_SECONDS + "s:\n" + Files.readString(out, StandardCharsets.UTF_8));
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) fail("python exited with " + process.exitValue() + ":\n" + output);
        return output;
    }
}
