package dev.berth.virtualcluster.proxy;

/** Where a {@link LatencyProxy} forwards to, parsed from {@code host:port}. */
public record ProxyTarget(String host, int port) {
    public ProxyTarget {
        if (host == null || host.isBlank()) throw new IllegalArgumentException("--target needs a host, as in api:6443");
        if (port < 1 || port > 65535) throw new IllegalArgumentException("--target port must be between 1 and 65535, got " + port);
    }

    public static ProxyTarget parse(String text) {
        int colon = text == null ? -1 : text.lastIndexOf(':');
        if (colon <= 0) throw new IllegalArgumentException("--target must be host:port, got " + text);
        try {
            return new ProxyTarget(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--target must be host:port, got " + text);
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
