package dev.berth.manager.clients;

import static org.assertj.core.api.Assertions.fail;

import dev.berth.manager.testing.ManagerHarness;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A Python script using Debian's python3-kubernetes, run against a harness's manager (its URL is the
 * script's one argument) and bounded in time. Without the package it skips loudly; under CI=true the
 * package is required (.ci/run installs it).
 */
final class PythonScript {
    static final Path PYTHON = Path.of("/usr/bin/python3");
    static final Path SCRIPTS = Path.of("src", "test", "resources", "clients").toAbsolutePath();
    static final long TIMEOUT_SECONDS = 60;

    private final String suite;
    private final Path script;
    private Path workingDirectoryOrNull;

    private PythonScript(String suite, Path script) {
        this.suite = suite;
        this.script = script;
    }

    /** The script at path (under src/test/resources/clients), named suite in the skip message. */
    static PythonScript of(String suite, String path) {
        return new PythonScript(suite, SCRIPTS.resolve(path));
    }

    /** Runs the script from its own directory (for scripts importing their neighbours). */
    PythonScript inItsDirectory() {
        workingDirectoryOrNull = script.getParent();
        return this;
    }

    /** What the script printed; fails unless it exits 0 within {@link #TIMEOUT_SECONDS}. */
    String runAgainst(ManagerHarness harness) throws Exception {
        requirePythonClient();
        Path out = Files.createTempFile(harness.dataDir(), "py", ".txt");
        ProcessBuilder builder = new ProcessBuilder(PYTHON.toString(), script.toString(), harness.baseUrl());
        if (workingDirectoryOrNull != null) builder.directory(workingDirectoryOrNull.toFile());
        Process process = builder.redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("python did not finish within " + TIMEOUT_SECONDS + "s:\n" + Files.readString(out, StandardCharsets.UTF_8));
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) fail("python exited with " + process.exitValue() + ":\n" + output);
        return output;
    }

    private void requirePythonClient() throws Exception {
        boolean present = Files.isExecutable(PYTHON)
                && new ProcessBuilder(PYTHON.toString(), "-c", "import kubernetes").start().waitFor() == 0;
        if (present) return;
        String message = "!!! python3-kubernetes not importable by " + PYTHON + ": the " + suite + " is NOT run. !!!";
        if ("true".equals(System.getenv("CI"))) fail(message + " (CI=true: apt-get install python3-kubernetes)");
        System.err.println(message);
        Assumptions.abort(message);
    }
}
