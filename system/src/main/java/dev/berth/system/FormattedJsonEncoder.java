package dev.berth.system;

import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * logback's JSON encoder, with "message" the formatted message: the plain encoder writes the format
 * string, so a library's line that logs with arguments (fabric8's "... {}") showed its '{}' unfilled.
 */
public final class FormattedJsonEncoder extends JsonEncoder {
    @Override
    public byte[] encode(ILoggingEvent event) {
        if (event.getArgumentArray() == null || event.getArgumentArray().length == 0) return super.encode(event);
        ILoggingEvent formatted = (ILoggingEvent) Proxy.newProxyInstance(ILoggingEvent.class.getClassLoader(),
                new Class<?>[] {ILoggingEvent.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getMessage")) return event.getFormattedMessage();
                    if (method.getName().equals("getArgumentArray")) return null;
                    try {
                        return method.invoke(event, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        return super.encode(formatted);
    }
}
