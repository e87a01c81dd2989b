package dev.berth.manager.clusters;

/**
 * Where a MultiKueueCluster's kubeconfig comes from: its content (read from a Secret), or a file
 * path, or an error found while resolving it (for example a missing Secret).
 */
public record KubeconfigSource(String content, String path, String error) {
    public static KubeconfigSource ofContent(String content) {
        return new KubeconfigSource(content, null, null);
    }

    public static KubeconfigSource ofPath(String path) {
        return new KubeconfigSource(null, path, null);
    }

    public static KubeconfigSource unresolved(String error) {
        return new KubeconfigSource(null, null, error);
    }

    /** Never prints the content. */
    @Override
    public String toString() {
        return path != null ? "kubeconfig file " + path : error != null ? "unresolved kubeconfig" : "kubeconfig from Secret";
    }
}
