package dev.berth.virtualcluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** kube-apiserver's delete preconditions, which the CRUD mock skips: checked against the stored object, one rule per test. */
class DeletePreconditionsTest {
    private static final String STORED = "{\"metadata\":{\"name\":\"vllm-server\",\"uid\":\"uid-2\",\"resourceVersion\":\"13\"}}";
    private static final String RESOURCE = "deployments.apps \"vllm-server\"";

    @Test
    void aDeleteWithoutPreconditionsHasNoneToCheck() {
        assertThat(DeletePreconditions.of(null)).isEmpty();
        assertThat(DeletePreconditions.of("")).isEmpty();
        assertThat(DeletePreconditions.of("{\"propagationPolicy\":\"Background\"}")).isEmpty();
        assertThat(DeletePreconditions.of("{\"preconditions\":{}}")).isEmpty();
        assertThat(DeletePreconditions.of("not json")).isEmpty();
    }

    @Test
    void theListedObjectsUidOrResourceVersionLetsTheDeleteGoAhead() {
        assertThat(DeletePreconditions.conflict(DeletePreconditions.of("{\"preconditions\":{\"uid\":\"uid-2\"}}").orElseThrow(), STORED, RESOURCE))
                .isEmpty();
        assertThat(DeletePreconditions.conflict(DeletePreconditions.of("{\"preconditions\":{\"resourceVersion\":\"13\"}}").orElseThrow(),
                STORED, RESOURCE)).isEmpty();
    }

    @Test
    void anObjectCreatedUnderTheSameNameSinceIsAConflictInKubeApiserversWords() {
        assertThat(DeletePreconditions.conflict(DeletePreconditions.of("{\"preconditions\":{\"uid\":\"uid-1\"}}").orElseThrow(), STORED, RESOURCE))
                .hasValue("Operation cannot be fulfilled on deployments.apps \"vllm-server\": Precondition failed: UID in precondition: uid-1,"
                        + " UID in object meta: uid-2");
        assertThat(DeletePreconditions.conflict(DeletePreconditions.of("{\"preconditions\":{\"resourceVersion\":\"12\"}}").orElseThrow(),
                STORED, RESOURCE)).hasValueSatisfying(message -> assertThat(message)
                .contains("the ResourceVersion in the precondition (12) does not match the ResourceVersion in record (13)"));
    }
}
