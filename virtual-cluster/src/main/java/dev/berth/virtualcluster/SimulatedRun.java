package dev.berth.virtualcluster;

import dev.berth.protocol.Annotations;
import io.fabric8.kubernetes.api.model.Pod;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;

/** How long a simulated pod runs and how it exits, from its annotations. */
record SimulatedRun(Duration runtime, int exitCode) {
    static final Duration DEFAULT_RUNTIME = Duration.ofSeconds(2);

    static SimulatedRun of(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        if (annotations == null) {
            return new SimulatedRun(DEFAULT_RUNTIME, 0);
        }
        return new SimulatedRun(parseRuntime(annotations.get(Annotations.SIMULATED_RUNTIME)),
            parseExitCode(annotations.get(Annotations.SIMULATED_EXIT_CODE)));
    }

    /** An ISO-8601 duration (PT2S) or plain seconds (2, 0.5); the default when absent or invalid. */
    static Duration parseRuntime(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_RUNTIME;
        }
        try {
            return Duration.parse(value.trim());
        } catch (DateTimeParseException notIso) {
            try {
                return Duration.ofMillis(new BigDecimal(value.trim()).movePointRight(3).longValue());
            } catch (NumberFormatException notSeconds) {
                return DEFAULT_RUNTIME;
            }
        }
    }

    static int parseExitCode(String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
