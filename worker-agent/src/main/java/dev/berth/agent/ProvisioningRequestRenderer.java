package dev.berth.agent;

import dev.berth.protocol.JsonValues;
import dev.berth.protocol.Provisioning;
import dev.berth.protocol.crd.PodSetPlacement;
import dev.berth.protocol.crd.ProvisioningAsk;
import dev.berth.protocol.crd.ProvisioningProgress;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects Kueue's provisioning check creates, for an attempt that does not fit yet: one PodTemplate per
 * pod set needing a managed resource ({@code ppt-<request>-<podset>}, the pod template pinned to its flavor as
 * the attempt's pods will be), and the autoscaling.x-k8s.io/v1 ProvisioningRequest naming them with their
 * counts, owned by the RemoteWorkload so it goes with the attempt. Pure: maps in, maps out.
 */
final class ProvisioningRequestRenderer {
    static final String MANAGED_BY = "kueue.x-k8s.io/managed";

    private ProvisioningRequestRenderer() {}

    record Rendered(Map<String, Object> request, List<Map<String, Object>> podTemplates) {}

    static Rendered render(AttemptOwner owner, RemoteWorkloadSpec spec) {
        ProvisioningAsk ask = spec.getProvisioning();
        List<Map<String, Object>> templates = new ArrayList<>();
        List<Object> podSets = new ArrayList<>();
        // the pod templates exactly as the attempt's pods will be rendered: flavor nodeSelector and tolerations
        var rendered = TemplateRenderer.render(owner, spec);
        Map<String, Object> object = rendered.get(0).body();
        for (TemplatePods.Slot slot : TemplatePods.of(object, spec.getPodSets())) {
            PodSetPlacement podSet = spec.getPodSets().stream().filter(p -> p.getName().equals(slot.podSet())).findFirst().orElse(null);
            if (podSet == null || !managed(podSet, ask.getManagedResources())) continue;
            String name = podTemplateName(ask.getRequestName(), slot.podSet());
            Map<String, Object> template = new LinkedHashMap<>();
            template.put("apiVersion", "v1");
            template.put("kind", Provisioning.POD_TEMPLATE_KIND);
            template.put("metadata", metadata(name, owner.namespace(), ownerRef(owner)));
            template.put("template", JsonValues.deepCopy(slot.podTemplate()));
            templates.add(template);
            podSets.add(Map.of("podTemplateRef", Map.of("name", name), "count", podSet.getCount()));
        }
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("apiVersion", Provisioning.API_VERSION);
        request.put("kind", Provisioning.KIND);
        request.put("metadata", metadata(ask.getRequestName(), owner.namespace(), ownerRef(owner)));
        Map<String, Object> requestSpec = new LinkedHashMap<>();
        requestSpec.put("provisioningClassName", ask.getProvisioningClassName());
        if (!ask.getParameters().isEmpty()) requestSpec.put("parameters", new LinkedHashMap<>(ask.getParameters()));
        requestSpec.put("podSets", podSets);
        request.put("spec", requestSpec);
        return new Rendered(request, templates);
    }

    /** The pod annotations that make pods consume the provisioned capacity (Kueue's podSetUpdates). */
    static Map<String, String> consumeAnnotations(ProvisioningAsk ask) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(Provisioning.CONSUME_ANNOTATION, ask.getRequestName());
        annotations.put(Provisioning.CLASS_ANNOTATION, ask.getProvisioningClassName());
        return annotations;
    }

    /** The request's progress as the manager reads it: name, attempt, creation time and conditions. */
    @SuppressWarnings("unchecked")
    static ProvisioningProgress progress(ProvisioningAsk ask, Map<String, Object> request) {
        ProvisioningProgress progress = new ProvisioningProgress();
        progress.setRequestName(ask.getRequestName());
        progress.setAttempt(ask.getAttempt());
        progress.setProvisioningClassName(ask.getProvisioningClassName());
        Map<String, Object> metadata = (Map<String, Object>) request.getOrDefault("metadata", Map.of());
        Object created = metadata.get("creationTimestamp");
        if (created != null) progress.setCreatedTime(created.toString());
        Map<String, Object> status = (Map<String, Object>) request.getOrDefault("status", Map.of());
        for (Object item : (List<Object>) status.getOrDefault("conditions", List.of())) {
            if (!(item instanceof Map<?, ?> c)) continue;
            progress.getConditions().add(new ProvisioningProgress.Condition(str(c.get("type")), str(c.get("status")), str(c.get("reason")),
                    str(c.get("message")), str(c.get("lastTransitionTime"))));
        }
        if (status.get("provisioningClassDetails") instanceof Map<?, ?> details) {
            details.forEach((k, v) -> progress.getProvisioningClassDetails().put(String.valueOf(k), String.valueOf(v)));
        }
        return progress;
    }

    static boolean isTrue(ProvisioningProgress progress, String type) {
        return progress.getConditions().stream().anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    static String podTemplateName(String request, String podSet) {
        String full = Provisioning.POD_TEMPLATE_PREFIX + "-" + request + "-" + podSet;
        if (full.length() <= 247) return full;
        try {
            byte[] hash = MessageDigest.getInstance("SHA-1").digest(full.getBytes(StandardCharsets.UTF_8));
            return full.substring(0, 247) + "-" + HexFormat.of().formatHex(hash).substring(0, 5);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean managed(PodSetPlacement podSet, List<String> managedResources) {
        if (managedResources == null || managedResources.isEmpty()) return true;
        return managedResources.stream().anyMatch(r -> podSet.getRequests().containsKey(r));
    }

    private static Map<String, Object> metadata(String name, String namespace, Map<String, Object> ownerRef) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        metadata.put("namespace", namespace);
        metadata.put("labels", Map.of(MANAGED_BY, "true"));
        metadata.put("ownerReferences", List.of(ownerRef));
        return metadata;
    }

    private static Map<String, Object> ownerRef(AttemptOwner owner) {
        Map<String, Object> ref = new LinkedHashMap<>();
        ref.put("apiVersion", dev.berth.protocol.crd.BerthCrds.API_VERSION);
        ref.put("kind", "RemoteWorkload");
        ref.put("name", owner.name());
        ref.put("uid", owner.uid());
        return ref;
    }

    private static String str(Object value) {
        return value == null ? null : value.toString();
    }
}
