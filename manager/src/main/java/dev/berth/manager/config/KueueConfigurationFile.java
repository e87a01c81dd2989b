package dev.berth.manager.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads {@code --config FILE}: a Kueue Configuration in YAML (or JSON), as Kueue's manager-config
 * ConfigMap holds it. Parses it, builds the manager's settings with the flags on top, and logs one
 * structured warning (key {@code field}) for each field Berth does not act on.
 */
public final class KueueConfigurationFile {
    private static final Logger log = LoggerFactory.getLogger(KueueConfigurationFile.class);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private KueueConfigurationFile() {}

    public static KueueConfiguration read(Path file) {
        try {
            return fromYaml(Files.readString(file), file.toString());
        } catch (IOException unreadable) {
            throw new InvalidConfigurationException("", "cannot read " + file + ": " + unreadable.getMessage());
        }
    }

    /** A Configuration from YAML (or JSON) text; {@code source} names it in errors. */
    public static KueueConfiguration fromYaml(String text, String source) {
        Object document;
        try {
            document = YAML.readValue(text, Object.class);
        } catch (JacksonException notYaml) {
            throw new InvalidConfigurationException("", source + " is not YAML: " + notYaml.getOriginalMessage());
        }
        if (!(document instanceof Map<?, ?> map)) {
            throw new InvalidConfigurationException("", source + " does not hold a Kueue Configuration object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> values = (Map<String, Object>) map;
        return KueueConfigurationParser.parse(values);
    }

    /**
     * The manager's settings from the file (null: none given) and the flags; each warning is logged
     * once. Throws {@link InvalidConfigurationException} (exit code 2) naming the field at fault.
     */
    public static ManagerSettings settings(Path fileOrNull, ManagerSettings.Flags flags) {
        if (fileOrNull == null) return ManagerSettings.from(flags);
        KueueConfiguration kueue = read(fileOrNull);
        ManagerSettings settings = ManagerSettings.from(kueue, flags);
        for (ConfigWarning warning : settings.warnings()) {
            log.atWarn().addKeyValue("field", warning.field()).addKeyValue("file", fileOrNull).log(warning.toString());
        }
        log.atInfo().addKeyValue("file", fileOrNull).addKeyValue("apiVersion", kueue.apiVersion())
                .addKeyValue("warnings", settings.warnings().size()).log("Kueue Configuration loaded");
        return settings;
    }
}
