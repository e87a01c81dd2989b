package dev.berth.manager.logging;

import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.regex.Pattern;

/**
 * logback's JSON encoder (one object per line, slf4j key/value pairs such as workload, cluster and
 * attempt in {@code kvpList}), with "message" the formatted message: the plain encoder writes the
 * format string, so a library's line that logs with arguments (fabric8's "... {}") showed its '{}'
 * unfilled. The manager's production logging and the quickstart's JSON log both use it.
 *
 * <p>A last guard against secrets: a bearer token, or a token or one-time code in a URL's query, is
 * replaced by {@code <redacted>} in the message, whoever logged it (Berth's own code never logs them).
 */
public final class FormattedJsonEncoder extends JsonEncoder {
    static final String REDACTED = "<redacted>";
    private static final Pattern BEARER = Pattern.compile("(?i)(bearer\\s+)[A-Za-z0-9._~+/=-]+");
    private static final Pattern SECRET_PARAMETER = Pattern.compile("(?i)([?&](?:code|token|access_token|id_token)=)[^&\\s\"'<>]+");

    @Override
    public byte[] encode(ILoggingEvent event) {
        boolean withArguments = event.getArgumentArray() != null && event.getArgumentArray().length > 0;
        String message = withArguments ? event.getFormattedMessage() : event.getMessage();
        String shown = redact(message);
        if (!withArguments && (message == null || message.equals(shown))) return super.encode(event);
        ILoggingEvent formatted = (ILoggingEvent) Proxy.newProxyInstance(ILoggingEvent.class.getClassLoader(),
                new Class<?>[] {ILoggingEvent.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getMessage") || method.getName().equals("getFormattedMessage")) return shown;
                    if (method.getName().equals("getArgumentArray")) return null;
                    try {
                        return method.invoke(event, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        return super.encode(formatted);
    }

    /** The message with bearer tokens and secret query parameters replaced by {@link #REDACTED}. */
    static String redact(String message) {
        if (message == null) return null;
        String shown = BEARER.matcher(message).replaceAll("$1" + REDACTED);
        return SECRET_PARAMETER.matcher(shown).replaceAll("$1" + REDACTED);
    }
}
