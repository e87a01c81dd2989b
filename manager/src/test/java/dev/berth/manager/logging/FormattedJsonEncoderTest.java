package dev.berth.manager.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.event.KeyValuePair;

/**
 * The manager's production logging (src/main/resources/logback.xml, loaded as the jar loads it):
 * one JSON object per line whose message is formatted, a fabric8-style "{}" line included, whose
 * key/value pairs are fields, and in which a bearer token or a one-time code never shows.
 */
class FormattedJsonEncoderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final LoggerContext context = new LoggerContext();
    private Encoder<ILoggingEvent> production;

    @BeforeEach
    @SuppressWarnings("unchecked")
    void loadTheProductionConfiguration() throws Exception {
        context.setMDCAdapter(new LogbackMDCAdapter());
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(Path.of("src", "main", "resources", "logback.xml").toFile());
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        production = ((OutputStreamAppender<ILoggingEvent>) root.getAppender("JSON")).getEncoder();
    }

    @Test
    void aFabric8StyleLineIsWrittenFormattedWithItsKeyValuesAsFields() throws Exception {
        LoggingEvent event = event("io.fabric8.kubernetes.client.dsl.internal.AbstractWatchManager",
                "Watch connection to {} closed after {} attempts", "https://10.0.0.7:6443/apis/batch/v1/jobs", 3);
        event.addKeyValuePair(new KeyValuePair("workload", "team-a/job-train-7f2c1"));
        event.addKeyValuePair(new KeyValuePair("cluster", "a100-spot"));
        event.addKeyValuePair(new KeyValuePair("attempt", "a100-spot-1"));

        JsonNode line = encode(event);

        assertThat(line.path("message").asText())
                .isEqualTo("Watch connection to https://10.0.0.7:6443/apis/batch/v1/jobs closed after 3 attempts");
        assertThat(line.path("message").asText()).doesNotContain("{}");
        assertThat(line.path("level").asText()).isEqualTo("WARN");
        assertThat(line.path("loggerName").asText()).endsWith("AbstractWatchManager");
        Map<String, String> fields = new HashMap<>();
        line.path("kvpList").forEach(pair -> pair.fields().forEachRemaining(field -> fields.put(field.getKey(), field.getValue().asText())));
        assertThat(fields).containsEntry("workload", "team-a/job-train-7f2c1").containsEntry("cluster", "a100-spot")
                .containsEntry("attempt", "a100-spot-1");
        assertThat(line.has("arguments")).as("raw arguments are not repeated").isFalse();
    }

    @Test
    void aLineWithoutArgumentsIsWrittenAsLogged() throws Exception {
        assertThat(encode(event("dev.berth.manager.controller.BerthManager", "manager started")).path("message").asText())
                .isEqualTo("manager started");
    }

    @Test
    void bearerTokensAndOneTimeCodesAreRedactedWhoeverLogsThem() throws Exception {
        String line = encode(event("io.vertx.ext.web.RoutingContext", "request {} with header Authorization: Bearer {} failed",
                "GET /dashboard/sign-in?code=Zx9_secretCode-123&next=1", "s3cr3t-t0ken.value")).path("message").asText();
        assertThat(line).doesNotContain("Zx9_secretCode-123", "s3cr3t-t0ken.value")
                .contains("code=" + FormattedJsonEncoder.REDACTED + "&next=1", "Bearer " + FormattedJsonEncoder.REDACTED);
        assertThat(encode(event("x", "GET /apis?token=abc")).path("message").asText())
                .isEqualTo("GET /apis?token=" + FormattedJsonEncoder.REDACTED);
    }

    private LoggingEvent event(String loggerName, String message, Object... arguments) {
        Logger logger = context.getLogger(loggerName);
        Level level = loggerName.startsWith("io.fabric8") ? Level.WARN : Level.INFO;
        return new LoggingEvent(Logger.class.getName(), logger, level, message, null, arguments.length == 0 ? null : arguments);
    }

    private JsonNode encode(LoggingEvent event) throws Exception {
        String text = new String(production.encode(event), StandardCharsets.UTF_8);
        assertThat(text).endsWith("\n").doesNotContain("\n{");
        return JSON.readTree(text);
    }
}
