package dev.berth.protocol.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * One dispatch attempt of a manager Workload on a worker cluster. The manager creates it, renews
 * its lease and deletes it; the agent runs the embedded job and reports through its status.
 * An agent runs an attempt only while its lease is fresh and its fencing epoch is the newest seen.
 */
@Group(BerthCrds.GROUP)
@Version(BerthCrds.VERSION)
@Kind("RemoteWorkload")
@Plural("remoteworkloads")
@Singular("remoteworkload")
@ShortNames("rwl")
public class RemoteWorkload extends CustomResource<RemoteWorkloadSpec, RemoteWorkloadStatus> implements Namespaced {
    private static final long serialVersionUID = 1L;
}
