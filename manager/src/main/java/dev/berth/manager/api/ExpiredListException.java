package dev.berth.manager.api;

import java.util.List;

/**
 * 410 Expired for a continue token whose snapshot is gone, worded as kube-apiserver words it; the
 * Status's {@code metadata.continue} offers the rest of the list read from the current state.
 */
final class ExpiredListException extends ApiException {
    static final String MESSAGE = "The provided continue parameter is too old to display a consistent list result. "
            + "You can start a new list without the continue parameter, or use the continue token in this response to "
            + "retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - "
            + "objects that were created, modified, or deleted between the time the first chunk was returned and now may "
            + "show up in the list.";

    private final String inconsistentContinue;

    ExpiredListException(String inconsistentContinue) {
        super(410, "Expired", MESSAGE, null, null, null, List.of());
        this.inconsistentContinue = inconsistentContinue;
    }

    String inconsistentContinue() {
        return inconsistentContinue;
    }
}
