package dev.berth.agent;

import dev.berth.protocol.JsonValues;
import dev.berth.protocol.KubeflowJobKind;
import dev.berth.protocol.Labels;
import dev.berth.protocol.ServingKind;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.FlavorDefinition.TolerationSpec;
import dev.berth.protocol.crd.FlavorDefinition;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns an attempt's template into the objects to create: unsuspended, in the RemoteWorkload's
 * namespace, every pod template pinned to its flavor's nodes (nodeSelector, tolerations), labelled
 * with the attempt and owned by the RemoteWorkload. Kueue's queue label and admission gate are
 * dropped so that a Kueue on the worker, if any, does not suspend the object again.
 */
public final class TemplateRenderer {
    static final String KUEUE_ADMISSION_GATE = "kueue.x-k8s.io/admission";

    private TemplateRenderer() {}

    /** Whether the template is a kind the agent can run. */
    public static boolean canRender(RemoteWorkloadSpec spec) {
        return TemplatePods.isSupported(spec.getTemplate());
    }

    public static List<RenderedObject> render(AttemptOwner owner, RemoteWorkloadSpec spec) {
        return render(owner, spec, Map.of(), Map.of());
    }

    /**
     * As {@link #render(AttemptOwner, RemoteWorkloadSpec)}, with the pods of topology-placed pod sets pinned
     * ({@link TopologyPinning}) and annotations on every pod (a ProvisioningRequest's consume annotations).
     */
    public static List<RenderedObject> render(AttemptOwner owner, RemoteWorkloadSpec spec, Map<String, TopologyPlacement.Placed> topology,
                                              Map<String, String> podAnnotations) {
        @SuppressWarnings("unchecked")
        Map<String, Object> object = (Map<String, Object>) JsonValues.deepCopy(spec.getTemplate());
        RayTemplates.defaultSubmitter(object);
        boolean onePodPerSlot = List.of("Pod", "List").contains(String.valueOf(object.get("kind")));
        Map<String, Integer> podIndex = new java.util.HashMap<>();
        // a TrainJob's pods come from its runtime: pin the JobSet the Trainer will build, then hand that to the TrainJob as overrides
        Map<String, Object> trainJobSet = TrainJobTemplates.childJobSet(object).orElse(null);
        for (TemplatePods.Slot slot : TemplatePods.of(trainJobSet != null ? trainJobSet : object, spec.getPodSets())) {
            pinToFlavor(slot.podTemplate(), flavorsOf(spec, slot.podSet()));
            TopologyPlacement.Placed placed = topology.get(slot.podSet());
            if (onePodPerSlot) TopologyPinning.pinPod(slot.podTemplate(), placed, podIndex.merge(slot.podSet(), 1, Integer::sum) - 1);
            else TopologyPinning.pin(slot.podTemplate(), placed);
            TemplatePods.mapOrCreate(TemplatePods.mapOrCreate(slot.podTemplate(), "metadata"), "labels").putAll(attemptLabels(owner));
            if (!podAnnotations.isEmpty()) {
                TemplatePods.mapOrCreate(TemplatePods.mapOrCreate(slot.podTemplate(), "metadata"), "annotations").putAll(podAnnotations);
            }
        }
        if (trainJobSet != null) TrainJobTemplates.writeOverrides(object, trainJobSet);
        String kind = String.valueOf(object.get("kind"));
        List<RenderedObject> rendered = new ArrayList<>();
        switch (kind) {
            case "Job" -> rendered.add(topLevel(owner, object, "batch/v1", "Job", "jobs", owner.name()));
            case "JobSet" -> rendered.add(topLevel(owner, object, "jobset.x-k8s.io/v1alpha2", "JobSet", "jobsets", owner.name()));
            case "Pod" -> rendered.add(topLevel(owner, object, "v1", "Pod", "pods", owner.name()));
            case "List" -> {
                int index = 0;
                for (Object item : TemplatePods.list(object, "items")) {
                    if (item instanceof Map<?, ?> pod && "Pod".equals(pod.get("kind"))) {
                        rendered.add(topLevel(owner, TemplatePods.cast(pod), "v1", "Pod", "pods", owner.name() + "-" + index++));
                    }
                }
            }
            case "PyTorchJob", "MPIJob" -> {
                KubeflowJobKind kubeflow = KubeflowJobKind.of(kind).orElseThrow();
                rendered.add(topLevel(owner, object, kubeflow.apiVersion(), kind, kubeflow.plural(), owner.name()));
            }
            case "RayJob", "RayCluster" -> {
                dev.berth.protocol.RayApi.Kind ray = dev.berth.protocol.RayApi.of(kind).orElseThrow();
                rendered.add(topLevel(owner, object, ray.apiVersion(), kind, ray.plural(), owner.name()));
            }
            case "TrainJob" -> {
                // the runtime first (kept if the worker has it), then the TrainJob the worker's Trainer runs with it
                TrainJobTemplates.runtime(object).ifPresent(runtime -> rendered.add(runtime(runtime)));
                TemplatePods.map(TemplatePods.map(object, "metadata"), "annotations").ifPresent(a -> a.remove(dev.berth.protocol.TrainerApi.RUNTIME_ANNOTATION));
                rendered.add(topLevel(owner, object, dev.berth.protocol.TrainerApi.API_VERSION, kind, dev.berth.protocol.TrainerApi.TRAIN_JOB_KIND.plural(), owner.name()));
            }
            case "Deployment", "StatefulSet", "LeaderWorkerSet" -> {
                ServingKind serving = ServingKind.of(kind).orElseThrow();
                rendered.add(topLevel(owner, object, serving.apiVersion(), kind, serving.plural(), owner.name()));
            }
            case "AppWrapper" -> rendered.add(topLevel(owner, object, dev.berth.protocol.AppWrapperApi.API_VERSION, kind,
                    dev.berth.protocol.AppWrapperApi.PLURAL, owner.name()));
            default -> throw new IllegalArgumentException("unsupported template kind " + kind);
        }
        return rendered;
    }

    /** A TrainJob's runtime as sent by the manager: created as it is, not owned by the attempt (other TrainJobs use it too). */
    private static RenderedObject runtime(Map<String, Object> runtime) {
        String kind = String.valueOf(runtime.get("kind"));
        dev.berth.protocol.TrainerApi.Kind runtimeKind = dev.berth.protocol.TrainerApi.runtimeKind(kind).orElseThrow();
        String name = String.valueOf(TemplatePods.map(runtime, "metadata").orElse(Map.of()).get("name"));
        return new RenderedObject(dev.berth.protocol.TrainerApi.API_VERSION, kind, runtimeKind.plural(), name, runtime);
    }

    public static Map<String, String> attemptLabels(AttemptOwner owner) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Labels.REMOTE_WORKLOAD, owner.name());
        labels.put(Labels.ATTEMPT_ID, owner.attemptId());
        if (owner.workloadName() != null) labels.put(Labels.WORKLOAD_NAME, owner.workloadName());
        return labels;
    }

    private static RenderedObject topLevel(AttemptOwner owner, Map<String, Object> object, String defaultApiVersion,
                                           String kind, String plural, String defaultName) {
        String apiVersion = object.get("apiVersion") == null ? defaultApiVersion : object.get("apiVersion").toString();
        object.put("apiVersion", apiVersion);
        object.put("kind", kind);
        object.remove("status");
        Map<String, Object> metadata = TemplatePods.mapOrCreate(object, "metadata");
        for (String serverSet : List.of("resourceVersion", "uid", "creationTimestamp", "managedFields", "ownerReferences",
                "generation", "deletionTimestamp", "selfLink", "generateName")) {
            metadata.remove(serverSet);
        }
        String name = metadata.get("name") == null ? defaultName : metadata.get("name").toString();
        metadata.put("name", name);
        metadata.put("namespace", owner.namespace());
        Map<String, Object> labels = TemplatePods.mapOrCreate(metadata, "labels");
        labels.remove(Labels.QUEUE_NAME);
        labels.putAll(attemptLabels(owner));
        Map<String, Object> reference = new LinkedHashMap<>();
        reference.put("apiVersion", BerthCrds.API_VERSION);
        reference.put("kind", "RemoteWorkload");
        reference.put("name", owner.name());
        reference.put("uid", owner.uid());
        reference.put("controller", true);
        reference.put("blockOwnerDeletion", true);
        metadata.put("ownerReferences", new ArrayList<>(List.of(reference)));
        if (KubeflowJobKind.of(kind).isPresent()) {
            Map<String, Object> runPolicy = TemplatePods.mapOrCreate(TemplatePods.mapOrCreate(object, "spec"), "runPolicy");
            runPolicy.put("suspend", false);
            runPolicy.remove("managedBy"); // as Kueue's kubeflowjob MultiKueue adapter: the worker's operator runs the copy
        } else if (ServingKind.of(kind).isPresent()) {
            // no suspend switch: the copy runs once created; a LeaderWorkerSet's copy loses the manager's managedBy, if any
            TemplatePods.map(object, "spec").ifPresent(spec -> spec.remove("managedBy"));
        } else if (!"Pod".equals(kind)) {
            Map<String, Object> spec = TemplatePods.mapOrCreate(object, "spec");
            spec.put("suspend", false);
            spec.remove("managedBy"); // as MultiKueue's adapter: the worker's own controller runs the copy
            if ("Job".equals(kind)) dropGeneratedSelector(spec);
        }
        return new RenderedObject(apiVersion, kind, plural, name, object);
    }

    /** A Job copied from another cluster may carry that cluster's generated selector; let the worker generate its own. */
    private static void dropGeneratedSelector(Map<String, Object> jobSpec) {
        if (Boolean.TRUE.equals(jobSpec.get("manualSelector"))) return;
        jobSpec.remove("selector");
        TemplatePods.map(jobSpec, "template").flatMap(t -> TemplatePods.map(t, "metadata"))
                .flatMap(m -> TemplatePods.map(m, "labels"))
                .ifPresent(l -> {
                    l.remove("controller-uid");
                    l.remove("batch.kubernetes.io/controller-uid");
                });
    }

    private static List<FlavorDefinition> flavorsOf(RemoteWorkloadSpec spec, String podSet) {
        return spec.getPodSets().stream().filter(p -> podSet.equals(p.getName())).findFirst()
                .map(p -> AttemptDemand.flavorsOf(spec, p)).orElse(List.of());
    }

    private static void pinToFlavor(Map<String, Object> podTemplate, List<FlavorDefinition> flavors) {
        Map<String, Object> podSpec = TemplatePods.mapOrCreate(podTemplate, "spec");
        Map<String, Object> nodeSelector = TemplatePods.mapOrCreate(podSpec, "nodeSelector");
        List<Object> tolerations = new ArrayList<>(TemplatePods.list(podSpec, "tolerations"));
        for (FlavorDefinition flavor : flavors) {
            nodeSelector.putAll(flavor.getNodeLabels());
            for (TolerationSpec toleration : flavor.getTolerations()) {
                Map<String, Object> t = new LinkedHashMap<>();
                if (toleration.getKey() != null) t.put("key", toleration.getKey());
                if (toleration.getOperator() != null) t.put("operator", toleration.getOperator());
                if (toleration.getValue() != null) t.put("value", toleration.getValue());
                if (toleration.getEffect() != null) t.put("effect", toleration.getEffect());
                if (!tolerations.contains(t)) tolerations.add(t);
            }
        }
        if (nodeSelector.isEmpty()) podSpec.remove("nodeSelector");
        if (!tolerations.isEmpty()) podSpec.put("tolerations", tolerations);
        List<Object> gates = new ArrayList<>(TemplatePods.list(podSpec, "schedulingGates"));
        gates.removeIf(g -> g instanceof Map<?, ?> m && KUEUE_ADMISSION_GATE.equals(m.get("name")));
        if (gates.isEmpty()) podSpec.remove("schedulingGates");
        else podSpec.put("schedulingGates", gates);
    }
}
