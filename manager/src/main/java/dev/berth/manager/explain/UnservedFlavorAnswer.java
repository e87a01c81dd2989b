package dev.berth.manager.explain;

import dev.berth.manager.core.AdmissionDiagnosis;
import dev.berth.manager.dispatch.UnservedFlavors;
import dev.berth.manager.scheduling.FlavorAssigner;
import dev.berth.protocol.Conditions.CheckStates;
import java.util.Optional;

/**
 * The first line for a workload held back because no connected worker cluster offers its flavor
 * (issue 20, rule 2), taken from its MultiKueue check's message, which names the missing flavor and
 * what the connected clusters offer instead: while it holds the quota ("... its quota is released at
 * T unless a worker cluster offering it connects"), and after the quota was released while its flavor
 * assignment skips that flavor ("... quota released after 5m, retrying").
 */
final class UnservedFlavorAnswer {
    private UnservedFlavorAnswer() {}

    static Optional<String> of(AdmissionDiagnosis diagnosis, DispatchFacts dispatch) {
        if (dispatch.check() == null || diagnosis.finished() || !CheckStates.PENDING.equals(dispatch.check().state())) return Optional.empty();
        String message = dispatch.check().message();
        if (message == null || !message.startsWith(UnservedFlavors.MESSAGE_PREFIX)) return Optional.empty();
        if (diagnosis.holdsQuota() && dispatch.attempt() == null) return Optional.of(sentence(message));
        if (!diagnosis.holdsQuota() && skipsAFlavor(diagnosis)) return Optional.of(sentence(message));
        return Optional.empty();
    }

    private static boolean skipsAFlavor(AdmissionDiagnosis diagnosis) {
        return diagnosis.podSets().stream().flatMap(p -> p.flavors().stream())
                .anyMatch(f -> FlavorAssigner.skippedAsUnserved(f.flavor()).equals(f.ineligible()));
    }

    private static String sentence(String message) {
        return Character.toUpperCase(message.charAt(0)) + message.substring(1) + ".";
    }
}
