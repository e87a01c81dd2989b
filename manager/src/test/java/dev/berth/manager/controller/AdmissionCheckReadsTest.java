package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectKey;
import dev.berth.protocol.KueueApi;
import org.junit.jupiter.api.Test;

/** AdmissionChecks and MultiKueueConfigs are decoded once per stored version: an edit or a delete is seen at the next read. */
class AdmissionCheckReadsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectKey CHECK = new ObjectKey(Resources.ADMISSION_CHECKS.resource(), "", "dispatch");
    private static final ObjectKey CONFIG = new ObjectKey(Resources.MULTIKUEUE_CONFIGS.resource(), "", "workers");

    private final MemoryObjectStore store = new MemoryObjectStore();
    private final AdmissionCheckReads reads = new AdmissionCheckReads(store);

    @Test
    void aCheckIsParsedOnceWhileItsStoredVersionStaysTheSame() {
        store.create(CHECK, check(KueueApi.MULTIKUEUE_CONTROLLER, "workers"));

        AdmissionCheckReads.Check first = reads.check("dispatch").orElseThrow();
        assertThat(first).isEqualTo(new AdmissionCheckReads.Check(KueueApi.MULTIKUEUE_CONTROLLER, "workers"));
        assertThat(reads.controllerOf("dispatch")).isEqualTo(KueueApi.MULTIKUEUE_CONTROLLER);
        assertThat(reads.check("dispatch").orElseThrow()).as("decoded once").isSameAs(first);
    }

    @Test
    void anEditedOrDeletedCheckIsSeenAtTheNextRead() {
        store.create(CHECK, check(KueueApi.MULTIKUEUE_CONTROLLER, "workers"));
        reads.controllerOf("dispatch");

        store.replace(CHECK, check("example.com/other", null), null);
        assertThat(reads.controllerOf("dispatch")).isEqualTo("example.com/other");
        assertThat(reads.check("dispatch").orElseThrow().multiKueueConfig()).isNull();

        store.delete(CHECK);
        assertThat(reads.controllerOf("dispatch")).isNull();
        store.create(CHECK, check(KueueApi.MULTIKUEUE_CONTROLLER, "workers"));
        assertThat(reads.controllerOf("dispatch")).as("created again").isEqualTo(KueueApi.MULTIKUEUE_CONTROLLER);
    }

    @Test
    void aConfigsClustersFollowItsEdits() {
        store.create(CONFIG, config("a", "b"));
        var first = reads.config("workers").orElseThrow();
        assertThat(first.clusters()).containsExactly("a", "b");
        assertThat(reads.config("workers").orElseThrow()).as("decoded once").isSameAs(first);

        store.replace(CONFIG, config("c"), null);
        assertThat(reads.config("workers").orElseThrow().clusters()).containsExactly("c");
        assertThat(reads.config("missing")).isEmpty();
    }

    private static ObjectNode check(String controller, String config) {
        ObjectNode check = JSON.createObjectNode().put("apiVersion", "kueue.x-k8s.io/v1beta2").put("kind", "AdmissionCheck");
        check.putObject("metadata").put("name", "dispatch");
        ObjectNode spec = check.putObject("spec").put("controllerName", controller);
        if (config != null) spec.putObject("parameters").put("apiGroup", "kueue.x-k8s.io").put("kind", KueueApi.MULTIKUEUE_CONFIG).put("name", config);
        return check;
    }

    private static ObjectNode config(String... clusters) {
        ObjectNode config = JSON.createObjectNode().put("apiVersion", "kueue.x-k8s.io/v1beta2").put("kind", "MultiKueueConfig");
        config.putObject("metadata").put("name", "workers");
        var list = config.putObject("spec").putArray("clusters");
        for (String cluster : clusters) list.add(cluster);
        return config;
    }
}
