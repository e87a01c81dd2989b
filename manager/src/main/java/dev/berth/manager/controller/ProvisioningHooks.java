package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ObjectHooks;
import dev.berth.manager.model.ProvisioningConfig;
import dev.berth.manager.objects.ApiVersionConverter;
import dev.berth.manager.objects.ProvisioningConfigDecoder;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.KueueApi;
import java.util.Optional;

/**
 * Kueue's ProvisioningRequestConfig and the Active condition of provisioning AdmissionChecks
 * (controllerName kueue.x-k8s.io/provisioning-request): a config is validated and defaulted when
 * written; a check is Active when its spec.parameters names a stored config, otherwise Active=False
 * with Kueue's reason BadParametersRef and message. Storing or deleting a config re-evaluates the checks.
 */
final class ProvisioningHooks {
    static final String BAD_PARAMETERS_REF = "BadParametersRef";
    private final ManagerState state;
    private final MultiKueueStatus status;

    ProvisioningHooks(ManagerState state, MultiKueueStatus status) {
        this.state = state;
        this.status = status;
    }

    ObjectHooks configHooks() {
        return new ObjectHooks() {
            @Override
            public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
                ApiVersionConverter.toV1beta2(incoming);
                ProvisioningConfigDecoder.decode(incoming);
                return ProvisioningConfigDecoder.withDefaults(incoming);
            }

            @Override
            public void stored(StoredObject object) {
                checksChanged();
                state.reschedule();
            }

            @Override
            public void deleted(StoredObject object) {
                checksChanged();
            }
        };
    }

    /** The config a provisioning check names, if it is stored; empty for other checks. */
    static Optional<ProvisioningConfig> configOf(ManagerState state, ObjectNode check) {
        String name = configName(check);
        if (name == null) return Optional.empty();
        return state.find(Resources.PROVISIONING_REQUEST_CONFIGS.resource(), "", name).map(ProvisioningConfigDecoder::decode);
    }

    void admissionCheckStored(ObjectNode check) {
        if (!isProvisioningCheck(check)) return;
        String name = check.path("metadata").path("name").asText();
        var parameters = check.path("spec").path("parameters");
        String config = parameters.path("name").asText("");
        if (parameters.isMissingNode() || parameters.isNull()) {
            status.admissionCheckActive(name, false, BAD_PARAMETERS_REF, "missing parameters reference");
        } else if (config.isEmpty()) {
            status.admissionCheckActive(name, false, BAD_PARAMETERS_REF, "empty name: bad parameters reference");
        } else if (!KueueApi.GROUP.equals(parameters.path("apiGroup").asText())) {
            status.admissionCheckActive(name, false, BAD_PARAMETERS_REF, "wrong group \"" + parameters.path("apiGroup").asText()
                    + "\", expecting \"" + KueueApi.GROUP + "\": bad parameters reference");
        } else if (!KueueApi.PROVISIONING_REQUEST_CONFIG.equals(parameters.path("kind").asText())) {
            status.admissionCheckActive(name, false, BAD_PARAMETERS_REF, "wrong kind \"" + parameters.path("kind").asText()
                    + "\", expecting \"" + KueueApi.PROVISIONING_REQUEST_CONFIG + "\": bad parameters reference");
        } else if (state.find(Resources.PROVISIONING_REQUEST_CONFIGS.resource(), "", config).isEmpty()) {
            status.admissionCheckActive(name, false, BAD_PARAMETERS_REF,
                    "provisioningrequestconfigs." + KueueApi.GROUP + " \"" + config + "\" not found");
        } else {
            status.admissionCheckActive(name, true, "The admission check is active");
        }
    }

    private void checksChanged() {
        for (StoredObject check : state.store.list(Resources.ADMISSION_CHECKS.resource(), null)) admissionCheckStored(check.object());
    }

    static boolean isProvisioningCheck(ObjectNode check) {
        return KueueApi.PROVISIONING_REQUEST_CONTROLLER.equals(check.path("spec").path("controllerName").asText());
    }

    static String configName(ObjectNode check) {
        if (!isProvisioningCheck(check)) return null;
        var parameters = check.path("spec").path("parameters");
        if (!KueueApi.PROVISIONING_REQUEST_CONFIG.equals(parameters.path("kind").asText())) return null;
        String name = parameters.path("name").asText("");
        return name.isEmpty() ? null : name;
    }
}
