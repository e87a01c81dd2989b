package dev.berth.manager.testing;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * A program a test needs from the machine (promtool, prometheus, ...). Outside CI a missing tool
 * skips the test, saying why; with CI=true it fails it, so CI never passes without running it.
 */
public final class ExternalTool {
    private ExternalTool() {}

    /** The tool's path on PATH; skips (or, under CI=true, fails) the calling test when absent. */
    public static Path require(String name, String installHint) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) return candidate;
        }
        String message = "!!! " + name + " not found on PATH: this test is NOT run. " + installHint + " !!!";
        if ("true".equals(System.getenv("CI"))) fail(message + " (CI=true: " + name + " is required)");
        System.err.println(message);
        Assumptions.abort(message);
        throw new IllegalStateException("unreachable");
    }
}
