package dev.berth.protocol;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Every kind whose objects Berth dispatches, in one list: the manager's fencing of old attempts, the agent's
 * search for an attempt's objects, Kueue's integrations.frameworks and "is this owned by a managed job" all
 * derive from it, so a new kind is added here once. Each kind's own shape lives with its API class
 * ({@link KubeflowJobKind}, {@link RayApi}, {@link TrainerApi}, {@link ServingKind}, {@link AppWrapperApi}).
 */
public final class JobKinds {
    public static final JobKind JOB = new JobKind(KueueApi.BATCH_GROUP, "v1", KueueApi.JOB, "jobs", "batch/job");
    public static final JobKind JOBSET = new JobKind(KueueApi.JOBSET_GROUP, KueueApi.JOBSET_VERSION, KueueApi.JOBSET, "jobsets",
            "jobset.x-k8s.io/jobset");
    public static final JobKind TRAIN_JOB = new JobKind(TrainerApi.GROUP, TrainerApi.VERSION, TrainerApi.TRAIN_JOB,
            TrainerApi.TRAIN_JOB_KIND.plural(), TrainerApi.FRAMEWORK);
    public static final JobKind APP_WRAPPER = new JobKind(AppWrapperApi.GROUP, AppWrapperApi.VERSION, AppWrapperApi.KIND,
            AppWrapperApi.PLURAL, AppWrapperApi.FRAMEWORK);

    /** Every dispatched kind, in the order fencing deletes an old attempt's objects (batch kinds first). */
    public static final List<JobKind> DISPATCHED = Stream.of(
            Stream.of(JOB, JOBSET),
            KubeflowJobKind.ALL.stream().map(k -> new JobKind(k.group(), k.version(), k.kind(), k.plural(), k.framework())),
            RayApi.ALL.stream().map(k -> new JobKind(k.group(), k.version(), k.kind(), k.plural(), k.framework())),
            Stream.of(TRAIN_JOB),
            ServingKind.ALL.stream().map(k -> new JobKind(k.group(), k.version(), k.kind(), k.plural(), k.framework())),
            Stream.of(APP_WRAPPER)).flatMap(s -> s).toList();

    private JobKinds() {}

    /** The dispatched kind of this kind name, if any. */
    public static Optional<JobKind> named(String kind) {
        return DISPATCHED.stream().filter(k -> k.kind().equals(kind)).findFirst();
    }
}
