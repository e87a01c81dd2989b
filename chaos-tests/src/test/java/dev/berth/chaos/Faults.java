package dev.berth.chaos;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ContainerNetwork;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;

/**
 * The faults a drill injects, as the Docker engine does them: a crash (SIGKILL), a freeze (cgroup
 * freezer: the process exists but runs nothing), and a cut network cable (the container leaves a
 * network; reconnecting restores its alias there).
 */
public final class Faults {
    private Faults() {}

    private static DockerClient docker() {
        return DockerClientFactory.instance().client();
    }

    public static void kill(GenericContainer<?> container) {
        docker().killContainerCmd(container.getContainerId()).exec();
    }

    /** Starts a killed container again, as Kubernetes restarts a crashed pod. */
    public static void start(GenericContainer<?> container) {
        docker().startContainerCmd(container.getContainerId()).exec();
    }

    public static void pause(GenericContainer<?> container) {
        docker().pauseContainerCmd(container.getContainerId()).exec();
    }

    public static void unpause(GenericContainer<?> container) {
        docker().unpauseContainerCmd(container.getContainerId()).exec();
    }

    public static void disconnect(GenericContainer<?> container, Network network) {
        docker().disconnectFromNetworkCmd().withNetworkId(network.getId()).withContainerId(container.getContainerId())
                .withForce(true).exec();
    }

    public static void connect(GenericContainer<?> container, Network network, String alias) {
        docker().connectToNetworkCmd().withNetworkId(network.getId()).withContainerId(container.getContainerId())
                .withContainerNetwork(new ContainerNetwork().withAliases(alias)).exec();
    }

    public static boolean isPaused(GenericContainer<?> container) {
        return Boolean.TRUE.equals(docker().inspectContainerCmd(container.getContainerId()).exec().getState().getPaused());
    }

    public static boolean isRunning(GenericContainer<?> container) {
        Boolean running = docker().inspectContainerCmd(container.getContainerId()).exec().getState().getRunning();
        return Boolean.TRUE.equals(running);
    }
}
