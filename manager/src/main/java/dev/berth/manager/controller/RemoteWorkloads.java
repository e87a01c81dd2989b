package dev.berth.manager.controller;

import dev.berth.manager.model.Amounts;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.dispatch.DomainChoice;
import dev.berth.manager.dispatch.PlacementRequest;
import dev.berth.manager.dispatch.PodSetDemand;
import dev.berth.manager.model.Admission;
import dev.berth.manager.model.PodSetAssignment;
import dev.berth.manager.model.Quantity;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.api.ResourceType;
import dev.berth.manager.objects.GatedPod;
import dev.berth.manager.objects.JobSuspension;
import dev.berth.manager.objects.ResourceFlavorDecoder;
import dev.berth.manager.objects.StatusJson;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.FlavorDefinition;
import dev.berth.protocol.crd.PodSetPlacement;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builds what is sent to worker clusters from what the manager stores: attempts and the flavor catalogue. */
final class RemoteWorkloads {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RemoteWorkloads() {}

    /** Kueue v1beta2's status.nominatedClusterNames, which an external dispatcher (the External strategy) sets. */
    static List<String> nominatedClusters(ObjectNode workload) {
        List<String> names = new ArrayList<>();
        workload.path("status").path("nominatedClusterNames").forEach(name -> names.add(name.asText()));
        return names;
    }

    /** The admitted pod sets as placement sees them: per-pod requests (without the implicit pods resource). */
    static PlacementRequest placementRequest(WorkloadKey key, int priority, Admission admission) {
        return placementRequest(key, priority, admission, null);
    }

    /** The same, with each pod set's spec.podSets[].topologyRequest read from the stored Workload (null: none). */
    static PlacementRequest placementRequest(WorkloadKey key, int priority, Admission admission, ObjectNode workload) {
        List<PodSetDemand> podSets = new ArrayList<>();
        for (PodSetAssignment assignment : admission.podSetAssignments()) {
            Map<String, Long> perPod = new HashMap<>();
            int count = Math.max(1, assignment.count());
            assignment.resourceUsage().forEach((resource, total) -> {
                if (!resource.equals("pods")) perPod.put(resource, Amounts.divideRoundingUp(total, count));
            });
            podSets.add(new PodSetDemand(assignment.name(), assignment.count(), perPod, assignment.flavors(),
                    workload == null ? null : TopologyRequests.of(workload, assignment.name())));
        }
        return new PlacementRequest(key, priority, podSets);
    }

    static RemoteWorkload attempt(ManagerState state, ObjectNode workload, Admission admission, String origin, String attemptId,
                                  long epoch, Instant now, int leaseSeconds) {
        return attempt(state, workload, admission, origin, attemptId, epoch, now, leaseSeconds, List.of());
    }

    /** @param domains the topology domains placement chose on the cluster, one per pod set with a topology request */
    static RemoteWorkload attempt(ManagerState state, ObjectNode workload, Admission admission, String origin, String attemptId,
                                  long epoch, Instant now, int leaseSeconds, List<DomainChoice> domains) {
        String namespace = workload.path("metadata").path("namespace").asText();
        String name = workload.path("metadata").path("name").asText();
        RemoteWorkloadSpec spec = new RemoteWorkloadSpec();
        spec.setOrigin(origin);
        spec.setWorkloadName(name);
        spec.setAttemptId(attemptId);
        spec.setFencingEpoch(epoch);
        spec.setLeaseRenewTime(StatusJson.timestamp(now));
        spec.setLeaseDurationSeconds(leaseSeconds);
        spec.setPriority(workload.path("spec").path("priority").asInt(0));
        for (PodSetAssignment assignment : admission.podSetAssignments()) {
            Map<String, String> requests = new LinkedHashMap<>();
            int count = Math.max(1, assignment.count());
            assignment.resourceUsage().forEach((resource, total) -> {
                if (!resource.equals("pods")) requests.put(resource, Quantity.format(resource, Amounts.divideRoundingUp(total, count)));
            });
            PodSetPlacement placement = new PodSetPlacement(assignment.name(), assignment.count(), requests, assignment.flavors());
            placement.setTopology(TopologyRequests.placement(state, workload, assignment, domains));
            spec.getPodSets().add(placement);
        }
        for (String flavor : admission.flavors()) {
            state.find(Resources.RESOURCE_FLAVORS.resource(), "", flavor)
                    .ifPresent(object -> spec.getFlavors().add(definition(state, object)));
        }
        ObjectNode template = template(state, workload);
        AdmittedTemplate.apply(template, workload, admission);
        TrainingRuntimes.attach(state, template);
        spec.setTemplate(JSON.convertValue(template, Map.class));
        RemoteWorkload attempt = new RemoteWorkload();
        attempt.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name)
                .addToLabels(Labels.ORIGIN, origin).addToLabels(Labels.ATTEMPT_ID, attemptId).addToLabels(Labels.WORKLOAD_NAME, name)
                .build());
        attempt.setSpec(spec);
        return attempt;
    }

    /** Every stored ResourceFlavor as a FlavorDefinition JSON array: the catalogue agents read. */
    static String flavorCatalogue(ManagerState state) {
        List<FlavorDefinition> definitions = new ArrayList<>();
        for (StoredObject flavor : state.store.list(Resources.RESOURCE_FLAVORS.resource(), null)) {
            definitions.add(definition(state, flavor.object()));
        }
        try {
            return JSON.writeValueAsString(definitions);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The flavor as agents need it, with its Topology's name and levels when it names one. */
    static FlavorDefinition definition(ManagerState state, ObjectNode flavor) {
        FlavorDefinition definition = definition(ResourceFlavorDecoder.decode(flavor));
        TopologyRequests.describeTopology(state, flavor, definition);
        return definition;
    }

    static FlavorDefinition definition(ResourceFlavor flavor) {
        FlavorDefinition definition = new FlavorDefinition();
        definition.setName(flavor.name());
        definition.setNodeLabels(new LinkedHashMap<>(new java.util.TreeMap<>(flavor.nodeLabels())));
        flavor.nodeTaints().forEach(t -> definition.getNodeTaints().add(new FlavorDefinition.TaintSpec(t.key(), t.value(), t.effect())));
        flavor.tolerations().forEach(t -> definition.getTolerations().add(
                new FlavorDefinition.TolerationSpec(t.key(), t.operator(), t.value(), t.effect())));
        return definition;
    }

    /** The submitted objects the workload stands for (its owners), without status and server metadata. */
    static ObjectNode template(ManagerState state, ObjectNode workload) {
        String namespace = workload.path("metadata").path("namespace").asText();
        List<ObjectNode> owners = owners(state, workload, namespace);
        if (owners.size() == 1 && !owners.get(0).path("kind").asText().equals("Pod")) return owners.get(0);
        ObjectNode list = JSON.createObjectNode();
        list.put("apiVersion", "v1");
        list.put("kind", "List");
        ArrayNode items = list.putArray("items");
        owners.forEach(items::add);
        return list;
    }

    /** The check message of a Workload nothing would run: created on its own, with no Job, JobSet or Pod behind it. */
    static final String NOTHING_TO_RUN = "nothing to run: no Job, JobSet or Pod owns this Workload; its quota stays reserved, "
            + "as Kueue keeps it, until the Workload is deleted or finished";

    /** Whether a Job, JobSet or Pod the workload stands for is stored: without one there is nothing to send a worker. */
    static boolean hasSomethingToRun(ManagerState state, ObjectNode workload) {
        return !owners(state, workload, workload.path("metadata").path("namespace").asText()).isEmpty();
    }

    /** The stored owner object of a workload that a job kind created, if any. */
    static Optional<ObjectKey> ownerKey(ObjectNode workload) {
        String namespace = workload.path("metadata").path("namespace").asText();
        for (JsonNode owner : workload.path("metadata").path("ownerReferences")) {
            String kind = owner.path("kind").asText();
            String name = owner.path("name").asText();
            Optional<ResourceType> job = Resources.owningJob(kind);
            if (job.isPresent()) return Optional.of(new ObjectKey(job.get().resource(), namespace, name));
        }
        return Optional.empty();
    }

    private static List<ObjectNode> owners(ManagerState state, ObjectNode workload, String namespace) {
        List<ObjectNode> owners = new ArrayList<>();
        for (JsonNode owner : workload.path("metadata").path("ownerReferences")) {
            String kind = owner.path("kind").asText();
            String resource = kind.equals(Resources.PODS.kind()) ? Resources.PODS.resource()
                    : Resources.owningJob(kind).map(ResourceType::resource).orElse(null);
            if (resource == null) continue;
            state.find(resource, namespace, owner.path("name").asText()).ifPresent(object -> owners.add(stripped(object, owner)));
        }
        return owners;
    }

    private static ObjectNode stripped(ObjectNode object, JsonNode owner) {
        object.remove("status");
        ObjectNode metadata = (ObjectNode) object.path("metadata");
        ObjectNode kept = JSON.createObjectNode();
        for (String field : List.of("name", "namespace", "labels", "annotations")) {
            if (metadata.has(field)) kept.set(field, metadata.get(field));
        }
        object.set("metadata", kept);
        // As MultiKueue's Job adapter: the copy is the worker's own Job controller's to run.
        JobSuspension.clearManagedBy(object);
        if (owner.path("kind").asText().equals(Resources.PODS.kind())) GatedPod.ungated(object);
        if (!object.has("apiVersion")) object.put("apiVersion", owner.path("apiVersion").asText());
        if (!object.has("kind")) object.put("kind", owner.path("kind").asText());
        return object;
    }
}
