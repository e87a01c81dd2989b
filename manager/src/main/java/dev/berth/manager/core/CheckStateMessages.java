package dev.berth.manager.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Kueue's buildAdmissionChecksMessage: {@code AdmissionCheck in Retry state: "prov" (no capacity)}. */
final class CheckStateMessages {
    private CheckStateMessages() {}

    /** The checks of the status in the given state, by name, with their messages. */
    static String describe(WorkloadStatus status, String state) {
        List<AdmissionCheckState> matching = new ArrayList<>();
        for (AdmissionCheckState check : status.admissionChecks()) if (state.equals(check.state())) matching.add(check);
        matching.sort(Comparator.comparing(AdmissionCheckState::name));
        List<String> parts = new ArrayList<>();
        for (AdmissionCheckState check : matching) {
            String quoted = "\"" + check.name() + "\"";
            parts.add(check.message() == null || check.message().isEmpty() ? quoted : quoted + " (" + check.message() + ")");
        }
        return (matching.size() > 1 ? "AdmissionChecks" : "AdmissionCheck") + " in " + state + " state: " + String.join("; ", parts);
    }
}
