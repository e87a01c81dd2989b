package dev.berth.chaos;

import static org.assertj.core.api.Assertions.assertThatCode;

import dev.berth.manager.controller.DispatchConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The drills' manager flags must pass the manager's own configuration checks, or every container exits with 2. */
class ManagerFlagsTest {
    @Test
    void theFailoverFlagsAreAcceptedByTheManager() {
        List<String> flags = new java.util.ArrayList<>(ManagerFlags.FAILOVER);
        flags.addAll(ManagerFlags.START_TIMEOUT);
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < flags.size(); i += 2) values.put(flags.get(i).substring(2), flags.get(i + 1));
        assertThatCode(() -> DispatchConfig.parse(values)).doesNotThrowAnyException();
    }
}
