package dev.berth.manager.config;

import dev.berth.manager.objects.IntegrationFrameworks;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * One startup warning: a field the file sets that Berth does not act on, and why. Each field gets one
 * warning, named by its path (internalCertManagement.enable); frameworks Berth does not serve are named
 * by their list position (integrations.frameworks[1]).
 */
public record ConfigWarning(String field, String reason) {
    @Override
    public String toString() {
        return field + " is not used by Berth: " + reason;
    }

    /** The warnings for everything the file sets that Berth does not act on, in path order. */
    public static List<ConfigWarning> of(KueueConfiguration config) {
        List<ConfigWarning> warnings = new ArrayList<>();
        for (String field : new TreeSet<>(config.fieldsSet())) {
            FieldSupport.Entry entry = FieldSupport.of(field);
            if (entry == null) {
                warnings.add(new ConfigWarning(field, "Berth has no rule for this field"));
            } else if (entry.support() != FieldSupport.Support.HONOURED) {
                warnings.add(new ConfigWarning(field, entry.note()));
            }
        }
        List<String> frameworks = config.integrations().frameworks();
        for (int i = 0; i < frameworks.size(); i++) {
            if (!IntegrationFrameworks.SERVED.contains(frameworks.get(i))) {
                warnings.add(new ConfigWarning("integrations.frameworks[" + i + "]", frameworks.get(i)
                        + " is a kind Berth does not serve (it serves " + String.join(", ", IntegrationFrameworks.SERVED) + ")"));
            }
        }
        String dispatcher = config.multiKueue().dispatcherName();
        if (config.isSet("multiKueue.dispatcherName") && !dispatcher.equals(KueueConfiguration.MultiKueue.ALL_AT_ONCE)
                && !dispatcher.equals(KueueConfiguration.MultiKueue.INCREMENTAL)) {
            warnings.add(new ConfigWarning("multiKueue.dispatcherName", "\"" + dispatcher
                    + "\" names an external dispatcher; Berth places workloads itself with its Default strategy"));
        }
        return List.copyOf(warnings);
    }
}
