package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.AppWrapperApi;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Workload of a CodeFlare AppWrapper, as Kueue's appwrapper integration derives it (AppWrapper.PodSets
 * through the AppWrapper library's GetPodSets): one pod set per pod set its components declare (or the
 * webhook infers, {@link AppWrapperPodSets}), component by component, named {@code <appwrapper>-<index>},
 * counting the declared replicas (default 1), with the pod template found at the declared path. The
 * AppWrapper webhook's rules are applied at create: at least one component, each with a template; declared
 * pod sets have distinct paths leading to a pod template and, for a kind it infers, agree with the inferred
 * ones; a Workload has at least one and at most 8 pod sets. The priority class is the first pod set's naming one.
 */
public final class AppWrapperWorkloads {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private AppWrapperWorkloads() {}

    private record Draft(ObjectNode podSet, String specPath) {}

    public static ObjectNode from(ObjectNode appWrapper, PriorityResolver resolver) {
        List<FieldCause> causes = new ArrayList<>();
        String name = WorkloadFactory.requiredName(appWrapper, causes);
        JsonNode components = appWrapper.path("spec").path("components");
        if (!components.isArray() || components.isEmpty()) {
            causes.add(FieldCause.required("spec.components"));
            WorkloadFactory.throwIfAny(appWrapper, AppWrapperApi.KIND, name, causes);
        }
        List<Draft> drafts = new ArrayList<>();
        RequestTotals totals = new RequestTotals();
        for (int i = 0; i < components.size(); i++) {
            componentPodSets(name, components.path(i), "spec.components[" + i + "]", drafts, totals, causes);
        }
        if (drafts.isEmpty() && causes.isEmpty()) {
            causes.add(FieldCause.invalid("spec.components", "Invalid value: no component has a pod set to admit"));
        } else if (drafts.size() > WorkloadFactory.MAX_POD_SETS) {
            causes.add(FieldCause.invalid("spec.components", "Too many: " + drafts.size() + " pod sets: must have at most "
                    + WorkloadFactory.MAX_POD_SETS));
        }
        if (!name.isEmpty() && !drafts.isEmpty() && !WorkloadNormalizer.isDnsLabel(AppWrapperApi.podSetName(name, drafts.size() - 1))) {
            causes.add(FieldCause.invalid("metadata.name", "Invalid value: \"" + name + "\": the pod set names "
                    + AppWrapperApi.podSetName(name, 0) + ", ... must be RFC 1123 labels (at most 63 characters)"));
        }
        JsonNode prioritySpec = null;
        String prioritySpecPath = null;
        for (Draft draft : drafts) {
            if (!draft.podSet().path("template").path("spec").path("priorityClassName").asText("").isEmpty()) {
                prioritySpec = draft.podSet().path("template").path("spec");
                prioritySpecPath = draft.specPath();
                break;
            }
        }
        WorkloadPriority priority = WorkloadPriority.resolve(appWrapper, prioritySpec, prioritySpecPath, resolver, causes);
        WorkloadFactory.throwIfAny(appWrapper, AppWrapperApi.KIND, name, causes);
        ObjectNode workload = WorkloadFactory.newWorkload(
                WorkloadNames.forOwner(AppWrapperApi.KIND, AppWrapperApi.GROUP, name, WorkloadFactory.uid(appWrapper)),
                WorkloadFactory.namespace(appWrapper), appWrapper);
        WorkloadFactory.ownerReferences(workload).add(WorkloadFactory.ownerReference(appWrapper, AppWrapperApi.API_VERSION, AppWrapperApi.KIND, true));
        drafts.forEach(d -> WorkloadFactory.podSets(workload).add(d.podSet()));
        priority.writeInto(WorkloadFactory.spec(workload));
        return workload;
    }

    private static void componentPodSets(String name, JsonNode component, String path, List<Draft> drafts,
                                         RequestTotals totals, List<FieldCause> causes) {
        JsonNode template = component.path("template");
        if (!template.isObject() || template.path("kind").asText("").isEmpty()) {
            causes.add(FieldCause.required(path + ".template" + (template.isObject() ? ".kind" : "")));
            return;
        }
        List<AppWrapperPodSets.Declared> inferred = AppWrapperPodSets.inferred(component);
        JsonNode declared = component.path("podSets");
        List<AppWrapperPodSets.Declared> podSets = new ArrayList<>();
        Set<String> paths = new HashSet<>();
        for (int j = 0; j < declared.size(); j++) {
            String podSetPath = path + ".podSets[" + j + "]";
            String target = declared.path(j).path("path").asText("");
            int replicas = IntegerFields.optional(declared.path(j), "replicas", podSetPath + ".replicas", 0, 1, causes);
            if (target.isEmpty()) {
                causes.add(FieldCause.required(podSetPath + ".path"));
            } else if (!paths.add(target)) {
                causes.add(FieldCause.invalid(podSetPath + ".path", "Duplicate value: \"" + target + "\""));
            } else {
                podSets.add(new AppWrapperPodSets.Declared(target, replicas));
            }
        }
        if (declared.isEmpty()) podSets = inferred;
        else if (!inferred.isEmpty()) checkAgainstInferred(path, podSets, inferred, causes);
        for (int j = 0; j < podSets.size(); j++) {
            AppWrapperPodSets.Declared podSet = podSets.get(j);
            String podSetPath = path + ".podSets[" + j + "]";
            StringBuilder why = new StringBuilder();
            Optional<JsonNode> found = AppWrapperPodSets.at(component, podSet.path(), why);
            if (found.isEmpty() || !found.get().path("spec").isObject()) {
                String reason = found.isEmpty() ? why.toString() : "does not lead to a pod template (no spec)";
                causes.add(FieldCause.invalid(podSetPath + ".path", "Invalid value: \"" + podSet.path() + "\": " + reason));
                continue;
            }
            ObjectNode podTemplate = WorkloadFactory.podTemplate(templateOnly(found.get()), path + "." + podSet.path(), causes);
            totals.add(WorkloadFactory.perPod(podTemplate), podSet.replicas(), podSetPath + ".replicas", causes);
            drafts.add(new Draft(WorkloadFactory.podSet(AppWrapperApi.podSetName(name, drafts.size()), podSet.replicas(), null, podTemplate),
                    path + "." + podSet.path() + ".spec"));
        }
    }

    /** The AppWrapper webhook's ValidatePodSets: declared pod sets of a known kind match the inferred ones. */
    private static void checkAgainstInferred(String path, List<AppWrapperPodSets.Declared> declared,
                                             List<AppWrapperPodSets.Declared> inferred, List<FieldCause> causes) {
        if (declared.size() != inferred.size()) {
            causes.add(FieldCause.invalid(path + ".podSets", "Invalid value: " + declared.size()
                    + " pod sets declared: the " + inferred.size() + " inferred from the template differ"));
            return;
        }
        Map<String, Integer> byPath = new HashMap<>();
        for (int j = 0; j < declared.size(); j++) byPath.put(declared.get(j).path(), j);
        for (AppWrapperPodSets.Declared expected : inferred) {
            Integer j = byPath.get(expected.path());
            if (j == null) {
                causes.add(FieldCause.invalid(path + ".podSets", "Invalid value: the pod set with path '" + expected.path() + "' is missing"));
            } else if (declared.get(j).replicas() != expected.replicas()) {
                causes.add(FieldCause.invalid(path + ".podSets[" + j + "].replicas", "Invalid value: " + declared.get(j).replicas()
                        + ": differs from the inferred count " + expected.replicas() + " for the pod set at '" + expected.path() + "'"));
            }
        }
    }

    /** The metadata (labels, annotations) and spec of what a path points at: a pod template, or a Pod. */
    private static ObjectNode templateOnly(JsonNode found) {
        ObjectNode template = JSON.objectNode();
        ObjectNode metadata = template.putObject("metadata");
        JsonNode labels = found.path("metadata").path("labels");
        if (labels.isObject()) metadata.set("labels", labels.deepCopy());
        JsonNode annotations = found.path("metadata").path("annotations");
        if (annotations.isObject()) metadata.set("annotations", annotations.deepCopy());
        template.set("spec", found.path("spec").deepCopy());
        return template;
    }
}
