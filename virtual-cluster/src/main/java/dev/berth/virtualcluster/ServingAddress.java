package dev.berth.virtualcluster;

/**
 * Where a virtual cluster's API server listens and the host its kubeconfig names. On one machine
 * both are loopback; in a container it binds every interface and advertises its network alias, so
 * that the manager and the agent in other containers can reach it.
 *
 * @param bindHost the interface to listen on
 * @param port the port (0 picks a free one)
 * @param advertisedHost the host written into the kubeconfig's server URL
 */
public record ServingAddress(String bindHost, int port, String advertisedHost) {
    public static final ServingAddress LOOPBACK = new ServingAddress("127.0.0.1", 0, "127.0.0.1");

    public ServingAddress {
        if (bindHost == null || bindHost.isBlank()) throw new IllegalArgumentException("--bind-host must not be empty");
        if (port < 0 || port > 65535) throw new IllegalArgumentException("--port must be between 0 and 65535, got " + port);
        if (advertisedHost == null || advertisedHost.isBlank()) throw new IllegalArgumentException("--advertise-host must not be empty");
    }

    /** The advertised host defaults to the bind host, or to loopback when binding every interface. */
    public static ServingAddress of(String bindHost, int port, String advertisedHost) {
        String advertised = advertisedHost != null ? advertisedHost : "0.0.0.0".equals(bindHost) ? "127.0.0.1" : bindHost;
        return new ServingAddress(bindHost, port, advertised);
    }
}
