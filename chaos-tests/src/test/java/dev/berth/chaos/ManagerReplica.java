package dev.berth.chaos;

import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Volume;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * One manager replica in its own container, its API mapped to a localhost port. Its store lives on a
 * named Docker volume ({@code /var/lib/berth}), which outlives the container: a replica started again
 * on the same volume is the same manager restarted, as a pod on its PersistentVolumeClaim would be.
 */
public final class ManagerReplica {
    static final int API_PORT = 8080;

    private final String alias;
    private final String volume;
    private final GenericContainer<?> container;

    private ManagerReplica(String alias, String volume, GenericContainer<?> container) {
        this.alias = alias;
        this.volume = volume;
        this.container = container;
    }

    /** Starts a replica on {@code network} under {@code alias}, its store on {@code volume}, with the extra flags. */
    static ManagerReplica start(Network network, String alias, String volume, List<String> flags) {
        List<String> command = new ArrayList<>(List.of("--host", "0.0.0.0", "--port", Integer.toString(API_PORT),
                "--data", "/var/lib/berth/data", "--examples", "/var/lib/berth/no-examples"));
        command.addAll(flags);
        GenericContainer<?> container = ChaosContainers.container(ChaosImages.Component.MANAGER, network, alias)
                .withCommand(command.toArray(String[]::new))
                .withExposedPorts(API_PORT)
                .withEnv("BERTH_PG_PASSWORD", ManagerFlags.pgPassword())
                .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withBinds(new Bind(volume, new Volume("/var/lib/berth"))))
                .waitingFor(Wait.forHttp("/readyz").forPort(API_PORT).forStatusCode(200).withStartupTimeout(ChaosContainers.STARTUP));
        container.start();
        return new ManagerReplica(alias, volume, container);
    }

    public String alias() {
        return alias;
    }

    String volume() {
        return volume;
    }

    public GenericContainer<?> container() {
        return container;
    }

    public ManagerApi api() {
        return new ManagerApi("http://127.0.0.1:" + container.getMappedPort(API_PORT));
    }

    void saveLogs(Path dir, String name) {
        ChaosContainers.saveLogs(container, dir, name);
    }

    void remove() {
        try {
            container.stop();
        } catch (RuntimeException e) {
            System.err.println("chaos: could not remove manager " + alias + ": " + e);
        }
    }
}
