package dev.berth.manager.store;

/** A fenced write was refused: the fence no longer holds (a newer leader raised the epoch); nothing was written. */
public final class FencedWriteException extends StoreUnavailableException {
    public FencedWriteException(String message) {
        super(message, null);
    }
}
