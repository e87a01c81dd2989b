package dev.berth.manager.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsPython;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Debian's python3-kubernetes with the no-data-loss invariant after every command
 * (src/test/resources/clients/python/stored_invariant.py, the rule of clients/node/stored_invariant.mjs): LocalQueue CRUD
 * and a merge patch whose null removes a label, a JSON patch, a Job's merge patch and dry runs, and a
 * refused write that leaves the stored object as it was. Skips loudly without the package; under
 * CI=true it is required (.ci/run installs it).
 */
@NeedsPython
class PythonClientInvariantTest {
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();

    @Test
    void everyCommandStoresWhatItPromised() throws Exception {
        String output = PythonScript.of("the Python invariant suite", "python/python_client_invariant.py").inItsDirectory().runAgainst(harness);
        assertThat(output).contains("ok localqueue-crud-merge-patch", "ok json-patch", "ok job-merge-patch-dry-run",
                "ok refused-write-stores-nothing");
    }
}
