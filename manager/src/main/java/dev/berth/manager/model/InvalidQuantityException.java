package dev.berth.manager.model;

/** A quantity that does not parse or is out of range; the message is Kubernetes' wording. */
public class InvalidQuantityException extends IllegalArgumentException {
    public InvalidQuantityException(String message) {
        super(message);
    }
}
