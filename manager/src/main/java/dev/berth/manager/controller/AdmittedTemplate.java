package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.Admission;
import dev.berth.manager.model.PodSetAssignment;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.KubeflowJobKind;
import dev.berth.protocol.ServingKind;
import dev.berth.manager.objects.ServingTemplates;
import dev.berth.protocol.Conditions.CheckStates;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What Kueue's job integrations do to a job when they start it (RunWithPodSetsInfo), applied to the
 * template sent to the worker:
 * <ul>
 * <li>a partially admitted Job (one with kueue.x-k8s.io/job-min-parallelism) runs with the admitted
 * count as its parallelism, and as its completions too when kueue.x-k8s.io/job-completions-equal-parallelism
 * is "true";</li>
 * <li>any other Job runs with at most the admitted count as its parallelism, so a parallelism raised while its
 * Workload held quota never runs more pods than were admitted (a waiting job's Workload is derived again instead,
 * {@link QueuedJobUpdates});</li>
 * <li>the podSetUpdates of the workload's Ready admission checks are merged into the matching pod
 * templates (podset.Merge): labels, annotations and nodeSelector entries added, tolerations appended.
 * An entry that conflicts with a different value already on the template is not applied (Kueue refuses
 * to start the job instead).</li>
 * </ul>
 */
final class AdmittedTemplate {
    private AdmittedTemplate() {}

    /** Applies the admission to the template (changed in place). */
    static void apply(ObjectNode template, ObjectNode workload, Admission admission) {
        String kind = template.path("kind").asText();
        JsonNode checks = workload.path("status").path("admissionChecks");
        if (kind.equals(Resources.JOBS.kind())) {
            reduceParallelism(template, admission);
            podTemplate(template.path("spec").path("template")).ifPresent(t -> merge(t, "main", checks));
        } else if (kind.equals(Resources.JOBSETS.kind())) {
            for (JsonNode replicatedJob : template.path("spec").path("replicatedJobs")) {
                String podSet = replicatedJob.path("name").asText();
                podTemplate(replicatedJob.path("template").path("spec").path("template")).ifPresent(t -> merge(t, podSet, checks));
            }
        } else if (KubeflowJobKind.of(kind).isPresent()) {
            KubeflowJobKind kubeflow = KubeflowJobKind.of(kind).get();
            JsonNode replicaSpecs = template.path("spec").path(kubeflow.replicaSpecsField());
            for (String type : kubeflow.replicaTypes()) {
                podTemplate(replicaSpecs.path(type).path("template")).ifPresent(t -> merge(t, KubeflowJobKind.podSetName(type), checks));
            }
        } else if (dev.berth.protocol.RayApi.of(kind).isPresent()) {
            boolean job = kind.equals(dev.berth.protocol.RayApi.RAY_JOB);
            JsonNode cluster = job ? template.path("spec").path("rayClusterSpec") : template.path("spec");
            podTemplate(cluster.path("headGroupSpec").path("template")).ifPresent(t -> merge(t, dev.berth.protocol.RayApi.HEAD_POD_SET, checks));
            for (JsonNode group : cluster.path("workerGroupSpecs")) {
                String podSet = dev.berth.protocol.RayApi.workerPodSetName(group.path("groupName").asText());
                podTemplate(group.path("template")).ifPresent(t -> merge(t, podSet, checks));
            }
            if (job) podTemplate(template.path("spec").path("submitterPodTemplate")).ifPresent(t -> merge(t, dev.berth.protocol.RayApi.SUBMITTER_POD_SET, checks));
        } else if (kind.equals(dev.berth.protocol.AppWrapperApi.KIND)) {
            dev.berth.manager.objects.AppWrapperPodSets.templates(template).forEach((podSet, t) -> merge(t, podSet, checks));
        } else if (ServingKind.of(kind).isPresent()) {
            ServingTemplates.of(template).forEach((podSet, t) -> merge(t, podSet, checks));
        } else if (kind.equals(Resources.PODS.kind())) {
            merge(template, "main", checks);
        }
    }

    private static void reduceParallelism(ObjectNode job, Admission admission) {
        JsonNode annotations = job.path("metadata").path("annotations");
        if (!job.path("spec").isObject()) return;
        ObjectNode spec = (ObjectNode) job.get("spec");
        for (PodSetAssignment assignment : admission.podSetAssignments()) {
            if (!assignment.name().equals("main")) continue;
            // never more pods than admitted: a parallelism raised while the Workload held quota is not run on its quota
            if (!annotations.has(Annotations.JOB_MIN_PARALLELISM)) {
                if (spec.path("parallelism").asInt(1) > assignment.count()) spec.put("parallelism", assignment.count());
                continue;
            }
            spec.put("parallelism", assignment.count());
            if ("true".equalsIgnoreCase(annotations.path(Annotations.JOB_COMPLETIONS_EQUAL_PARALLELISM).asText())) {
                spec.put("completions", assignment.count());
            }
        }
    }

    private static java.util.Optional<ObjectNode> podTemplate(JsonNode node) {
        return node.isObject() ? java.util.Optional.of((ObjectNode) node) : java.util.Optional.empty();
    }

    private static void merge(ObjectNode podTemplate, String podSet, JsonNode checks) {
        for (JsonNode check : checks) {
            if (!CheckStates.READY.equals(check.path("state").asText())) continue;
            for (JsonNode update : check.path("podSetUpdates")) {
                if (!podSet.equals(update.path("name").asText())) continue;
                mergeMap(podTemplate.with("metadata"), "labels", update.path("labels"));
                mergeMap(podTemplate.with("metadata"), "annotations", update.path("annotations"));
                mergeMap(podTemplate.with("spec"), "nodeSelector", update.path("nodeSelector"));
                appendTolerations(podTemplate.with("spec"), update.path("tolerations"));
            }
        }
    }

    private static void mergeMap(ObjectNode parent, String field, JsonNode additions) {
        if (!additions.isObject() || additions.isEmpty()) return;
        ObjectNode target = parent.with(field);
        for (Iterator<Map.Entry<String, JsonNode>> it = additions.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            if (!target.has(entry.getKey())) target.set(entry.getKey(), entry.getValue());
        }
    }

    private static void appendTolerations(ObjectNode podSpec, JsonNode additions) {
        if (!additions.isArray() || additions.isEmpty()) return;
        ArrayNode tolerations = podSpec.withArray("tolerations");
        List<JsonNode> present = new ArrayList<>();
        tolerations.forEach(present::add);
        for (JsonNode toleration : additions) {
            if (!present.contains(toleration)) tolerations.add(toleration);
        }
    }
}
