package dev.berth.manager.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsPython;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Debian's python3-kubernetes (22.6) against a manager started here (issue 13): VersionApi reads
 * every /version field, a V1Job without kind or apiVersion is created, a dry-run delete and a delete
 * with a wrong uid precondition keep it, Orphan keeps its Workload, and a None label is removed.
 * Skips loudly without the package; under CI=true the package is required (.ci/run installs it).
 */
@NeedsPython
class PythonClientTest {
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();

    @Test
    void pythonClientKeepsItsData() throws Exception {
        String output = PythonScript.of("the Python client suite", "python_client_check.py").runAgainst(harness);
        assertThat(output).contains("ok version", "ok job-dry-run-precondition-orphan", "ok label-removed");
    }
}
