package dev.berth.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Prints a drill's detection and recovery times and writes them, with its verdict, to target/drill-reports/<drill>.json. */
final class DrillReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private DrillReport() {}

    static Path directory() {
        return Path.of(System.getProperty("berth.drillReports", "target/drill-reports"));
    }

    static void write(String drill, String invariant, DrillTimeline timeline, DrillVerdict verdict) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("drill", drill);
        report.put("invariant", invariant);
        report.put("faultInjectedAt", timeline.faultAt() == null ? null : timeline.faultAt().toString());
        report.put("detectionSeconds", timeline.detectionSeconds());
        report.put("recoverySeconds", timeline.recoverySeconds());
        report.put("notes", timeline.notes());
        report.put("invariantsHeld", verdict.holds());
        report.put("violations", verdict.violations());
        report.put("workloads", verdict.workloads());
        System.out.printf("chaos drill %s: detection %s s, recovery %s s, invariants %s%n", drill,
                timeline.detectionSeconds(), timeline.recoverySeconds(), verdict.holds() ? "held" : "VIOLATED " + verdict.violations());
        try {
            Files.createDirectories(directory());
            JSON.writeValue(directory().resolve(drill + ".json").toFile(), report);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
