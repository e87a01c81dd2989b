package dev.berth.chaos;

import java.util.List;

/** The outcome of a drill's invariant checks: how many acknowledged workloads were judged, and every violation. */
public record DrillVerdict(int workloads, List<String> violations) {
    public DrillVerdict {
        violations = List.copyOf(violations);
    }

    public boolean holds() {
        return violations.isEmpty();
    }

    /** Fails with every violation, one per line. */
    public void assertHolds() {
        if (holds()) return;
        StringBuilder message = new StringBuilder(violations.size() + " invariant violation(s) over " + workloads + " workload(s):");
        violations.forEach(v -> message.append("\n  ").append(v));
        throw new AssertionError(message.toString());
    }
}
