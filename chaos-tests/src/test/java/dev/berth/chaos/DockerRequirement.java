package dev.berth.chaos;

import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;

/** Drills need a Docker engine: without one they are skipped loudly, except under CI=true, where that is a failure. */
final class DockerRequirement {
    private DockerRequirement() {}

    static void require() {
        boolean available;
        String why;
        try {
            available = DockerClientFactory.instance().isDockerAvailable();
            why = available ? "" : "no Docker engine answered";
        } catch (RuntimeException e) {
            available = false;
            why = e.toString();
        }
        if (available) return;
        String message = "!!! chaos drills NOT run: " + why + ". Start dockerd (see ../shared/STACK-NOTES.md) to run them. !!!";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError(message.replace("NOT run", "cannot run under CI=true"));
        }
        System.err.println(message);
        Assumptions.abort(message);
    }
}
