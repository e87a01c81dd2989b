package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.api.ResourceType;
import dev.berth.manager.objects.IntegrationFrameworks;
import dev.berth.protocol.JobKind;
import dev.berth.protocol.JobKinds;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The job kinds the manager serves as owners of Workloads ({@link Resources#OWNING_JOBS}) are exactly the
 * kinds fencing, the agent and integrations.frameworks know as dispatched ({@link JobKinds#DISPATCHED}),
 * under the same API names: a kind added to one list and not the other would be served but never fenced,
 * or fenced under a wrong plural.
 */
class DispatchedKindsTest {
    @ParameterizedTest
    @FieldSource("dev.berth.manager.controller.Resources#OWNING_JOBS")
    void everyServedJobKindIsADispatchedKindUnderTheSameApiNames(ResourceType served) {
        JobKind dispatched = JobKinds.named(served.kind()).orElseThrow(() -> new AssertionError(served.kind() + " is not in JobKinds.DISPATCHED"));
        assertThat(dispatched.group()).isEqualTo(served.group());
        assertThat(dispatched.version()).isEqualTo(served.version());
        assertThat(dispatched.plural()).isEqualTo(served.plural());
        assertThat(IntegrationFrameworks.frameworkOf(served.kind())).isEqualTo(dispatched.framework());
        assertThat(IntegrationFrameworks.SERVED).contains(dispatched.framework());
    }

    @ParameterizedTest
    @FieldSource("dev.berth.protocol.JobKinds#DISPATCHED")
    void everyDispatchedKindIsServed(JobKind dispatched) {
        assertThat(Resources.owningJob(dispatched.kind())).as(dispatched.kind()).isPresent();
    }
}
