package dev.berth.manager.store;

/** The durable store could not be reached or refused the operation; nothing was written. */
public class StoreUnavailableException extends RuntimeException {
    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
