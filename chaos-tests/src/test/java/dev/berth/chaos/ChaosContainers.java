package dev.berth.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;

/** How every drill container is made: from a locally built image, never pulled, with a small JVM. */
final class ChaosContainers {
    /** Small heaps and a quick JIT: seven JVMs share two cores during a drill. */
    static final String SMALL_JVM = "-Xmx192m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto";
    static final Duration STARTUP = Duration.ofSeconds(120);

    private ChaosContainers() {}

    @SuppressWarnings("resource")
    static GenericContainer<?> container(ChaosImages.Component component, Network network, String alias) {
        return new GenericContainer<>(ChaosImages.image(component))
                .withImagePullPolicy(image -> false)
                .withNetwork(network)
                .withNetworkAliases(alias)
                .withEnv("JAVA_TOOL_OPTIONS", SMALL_JVM)
                .withStartupTimeout(STARTUP);
    }

    /** Saves the container's output (also after it was killed) under {@code dir/<name>.log}. */
    static void saveLogs(GenericContainer<?> container, Path dir, String name) {
        if (container.getContainerId() == null) return;
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(name + ".log"), container.getLogs(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (RuntimeException gone) {
            System.err.println("chaos: no logs of " + name + ": " + gone);
        }
    }
}
