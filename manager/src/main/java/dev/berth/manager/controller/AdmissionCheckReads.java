package dev.berth.manager.controller;

import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.protocol.KueueApi;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.MultiKueueDecoder;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the dispatcher reads of AdmissionChecks and MultiKueueConfigs, decoded once per stored version of each. The
 * dispatcher asks, per workload it reconciles, places or mirrors, which of the workload's checks is MultiKueue's (and
 * the provisioning side which is a provisioning check), and per placement the config's clusters; each such read parsed
 * the stored JSON again ({@code StoredObject.object}, a fifth of the state thread in the API benchmark). A decoded
 * value is kept with the resourceVersion it came from and used while the store still holds that version, so an edit
 * or a delete is seen at the next read, as before. Few objects (the checks and configs workloads name); state thread only.
 */
final class AdmissionCheckReads {
    /** What the dispatcher needs of an AdmissionCheck: its controller, and the MultiKueueConfig its parameters name (or null). */
    record Check(String controllerName, String multiKueueConfig) {}

    private final Decoded<Check> checks;
    private final Decoded<MultiKueueDecoder.ConfigInfo> configs;

    AdmissionCheckReads(ObjectStore store) {
        this.checks = new Decoded<>(store, Resources.ADMISSION_CHECKS.resource(), object -> new Check(
                object.path("spec").path("controllerName").asText(), MultiKueueDecoder.configOf(object)));
        this.configs = new Decoded<>(store, Resources.MULTIKUEUE_CONFIGS.resource(), MultiKueueDecoder::decodeConfig);
    }

    /** The named AdmissionCheck's controller, or null when there is no such check. */
    String controllerOf(String checkName) {
        return checks.get(checkName).map(Check::controllerName).orElse(null);
    }

    /** The workload's MultiKueue admission check, or null when it has none (or no status). */
    AdmissionCheckState multiKueueCheck(WorkloadStatus status) {
        if (status == null) return null;
        for (AdmissionCheckState check : status.admissionChecks()) {
            if (KueueApi.MULTIKUEUE_CONTROLLER.equals(controllerOf(check.name()))) return check;
        }
        return null;
    }

    Optional<Check> check(String checkName) {
        return checks.get(checkName);
    }

    Optional<MultiKueueDecoder.ConfigInfo> config(String configName) {
        return configs.get(configName);
    }

    /** One cluster-scoped kind's decoded objects by name, each with the resourceVersion it was decoded from. */
    private static final class Decoded<T> {
        private record Entry<T>(long resourceVersion, T value) {}

        private final ObjectStore store;
        private final String resource;
        private final Function<ObjectNode, T> decoder;
        private final Map<String, Entry<T>> byName = new HashMap<>();

        Decoded(ObjectStore store, String resource, Function<ObjectNode, T> decoder) {
            this.store = store;
            this.resource = resource;
            this.decoder = decoder;
        }

        Optional<T> get(String name) {
            Optional<StoredObject> stored = store.get(new ObjectKey(resource, "", name));
            if (stored.isEmpty()) {
                byName.remove(name);
                return Optional.empty();
            }
            Entry<T> entry = byName.get(name);
            if (entry == null || entry.resourceVersion() != stored.get().resourceVersion()) {
                entry = new Entry<>(stored.get().resourceVersion(), decoder.apply(stored.get().object()));
                byName.put(name, entry);
            }
            return Optional.ofNullable(entry.value());
        }
    }
}
