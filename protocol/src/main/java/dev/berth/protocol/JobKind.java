package dev.berth.protocol;

/**
 * A job kind Berth dispatches: the object the agent creates on a worker for an attempt, labelled with its
 * attempt id, and which Kueue's integrations.frameworks entry enables it. {@link JobKinds} lists them all.
 *
 * @param framework Kueue's integrations.frameworks name
 */
public record JobKind(String group, String version, String kind, String plural, String framework) {
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }
}
