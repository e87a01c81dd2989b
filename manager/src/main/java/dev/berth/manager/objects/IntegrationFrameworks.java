package dev.berth.manager.objects;

import dev.berth.protocol.JobKind;
import dev.berth.protocol.JobKinds;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Which job kinds get a Workload (Kueue's integrations.frameworks). A job of a kind not enabled is
 * stored and left alone, as Kueue leaves it: not suspended, no Workload. Without a Configuration
 * file Berth manages every kind it serves.
 */
public record IntegrationFrameworks(Set<String> enabled) {
    public static final String BATCH_JOB = JobKinds.JOB.framework();
    public static final String JOBSET = JobKinds.JOBSET.framework();
    public static final String POD = "pod";
    /** The frameworks Berth can act on: plain pods and every dispatched kind; the others of Kueue's are warned about at start. */
    public static final List<String> SERVED = Stream.concat(Stream.of(POD), JobKinds.DISPATCHED.stream().map(JobKind::framework)).toList();
    public static final IntegrationFrameworks ALL_SERVED = new IntegrationFrameworks(Set.copyOf(SERVED));

    public IntegrationFrameworks {
        enabled = Set.copyOf(enabled);
    }

    public boolean manages(String framework) {
        return enabled.contains(framework);
    }

    /** The framework a served kind belongs to (Pod, or one of {@link JobKinds#DISPATCHED}), or null. */
    public static String frameworkOf(String kind) {
        if (kind.equals("Pod")) return POD;
        return JobKinds.named(kind).map(JobKind::framework).orElse(null);
    }

    public boolean managesKind(String kind) {
        String framework = frameworkOf(kind);
        return framework == null || manages(framework);
    }
}
