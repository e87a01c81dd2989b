package dev.berth.chaos;

import com.github.dockerjava.api.exception.NotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * The PostgreSQL store that manager replicas share in a drill: a container on the drill's network
 * under {@value #ALIAS}, from the image {@code src/test/docker/postgres/make-postgres-image.sh} makes
 * out of the host's PostgreSQL 15 (made once per content of the script and entrypoint; never pulled).
 * It trusts connections from the drill's network only; no port is published on the host.
 */
final class ChaosPostgres {
    static final String ALIAS = "postgres";
    static final String JDBC_URL = "jdbc:postgresql://" + ALIAS + ":5432/postgres";
    static final String USER = "berth";

    private final GenericContainer<?> container;

    private ChaosPostgres(GenericContainer<?> container) {
        this.container = container;
    }

    @SuppressWarnings("resource")
    static ChaosPostgres start(Network network) {
        String subnet = DockerClientFactory.instance().client().inspectNetworkCmd().withNetworkId(network.getId()).exec()
                .getIpam().getConfig().get(0).getSubnet();
        GenericContainer<?> container = new GenericContainer<>(image())
                .withImagePullPolicy(image -> false)
                .withNetwork(network)
                .withNetworkAliases(ALIAS)
                .withEnv("BERTH_PG_TRUST_CIDR", subnet)
                .waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*", 1)
                        .withStartupTimeout(ChaosContainers.STARTUP));
        container.start();
        return new ChaosPostgres(container);
    }

    void saveLogs(Path dir) {
        ChaosContainers.saveLogs(container, dir, ALIAS);
    }

    void stop() {
        try {
            container.stop();
        } catch (RuntimeException e) {
            System.err.println("chaos: could not remove postgres: " + e);
        }
    }

    private static Path dir() {
        return ChaosImages.root().resolve("chaos-tests/src/test/docker/postgres");
    }

    /** The image's tag, a hash of the script and entrypoint; made with the script when missing. */
    static synchronized String image() {
        String tag = "berth-chaos/postgres:" + ChaosImages.contentHash("", java.util.List.of(
                dir().resolve("make-postgres-image.sh"), dir().resolve("entrypoint.sh")));
        try {
            DockerClientFactory.instance().client().inspectImageCmd(tag).exec();
            return tag;
        } catch (NotFoundException missing) {
            make(tag);
            return tag;
        }
    }

    private static void make(String tag) {
        try {
            Path log = Files.createTempFile("make-postgres-image", ".log");
            Process process = new ProcessBuilder("bash", dir().resolve("make-postgres-image.sh").toString(), tag)
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("make-postgres-image.sh failed:\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making " + tag, e);
        }
    }
}
