package dev.berth.manager.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsPython;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Debian's python3-kubernetes (22.6) pages lists (issue 13): {@code limit}/{@code _continue} through
 * CustomObjectsApi stay consistent while objects are created and deleted between pages, the typed
 * CoreV1Api reads {@code _continue} and {@code remaining_item_count}, and a stale token is 410, a
 * garbage one 400. Skips loudly without the package; under CI=true the package is required.
 */
@NeedsPython
class PythonPaginationTest {
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();

    @Test
    void pythonClientPagesConsistently() throws Exception {
        String output = PythonScript.of("the Python client suite", "python_pagination_check.py").runAgainst(harness);
        assertThat(output).contains("ok custom-objects-pages", "ok typed-pages", "ok stale-and-garbage-tokens");
    }
}
