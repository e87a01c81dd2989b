package dev.berth.virtualcluster;

import dev.berth.protocol.crd.BerthCrds;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The garbage collection the mock API server does not do: deletes Pods, Jobs, JobSets, Kubeflow jobs and serving objects
 * whose owner (a Job, JobSet, PyTorchJob, MPIJob, Deployment, StatefulSet, LeaderWorkerSet or RemoteWorkload) no longer exists. Children are listed before owners, so
 * an owner created after the children's list cannot be missed; each is deleted with its listed resourceVersion as
 * precondition, so a child created under the same name after the listing cannot be deleted in its place.
 */
final class OwnerGarbageCollector {
    private static final Logger LOG = LoggerFactory.getLogger(OwnerGarbageCollector.class);
    private static final Set<String> KNOWN_OWNER_KINDS = Set.of("Job", "JobSet", "RemoteWorkload", "PyTorchJob", "MPIJob",
        "RayJob", "RayCluster",
        "TrainJob",
            "Deployment", "StatefulSet", "LeaderWorkerSet",
            "AppWrapper");

    private final KubernetesClient client;

    OwnerGarbageCollector(KubernetesClient client) {
        this.client = client;
    }

    void reconcile() {
        List<HasMetadata> children = new ArrayList<>();
        children.addAll(client.pods().inAnyNamespace().list().getItems());
        children.addAll(client.batch().v1().jobs().inAnyNamespace().list().getItems());
        children.addAll(jobSets());
        List<GenericKubernetesResource> kubeflowJobs = kubeflowJobs();
        children.addAll(kubeflowJobs);
        List<GenericKubernetesResource> rayObjects = rayObjects();
        children.addAll(rayObjects);
        List<GenericKubernetesResource> servingObjects = servingObjects();
        children.addAll(servingObjects);
        List<GenericKubernetesResource> appWrappers = client.genericKubernetesResources(dev.berth.protocol.AppWrapperApi.API_VERSION,
                dev.berth.protocol.AppWrapperApi.KIND).inAnyNamespace().list().getItems();
        children.addAll(appWrappers);
        Set<String> owners = new HashSet<>();
        client.batch().v1().jobs().inAnyNamespace().list().getItems().forEach(j -> owners.add(j.getMetadata().getUid()));
        jobSets().forEach(j -> owners.add(j.getMetadata().getUid()));
        kubeflowJobs().forEach(j -> owners.add(j.getMetadata().getUid()));
        rayObjects().forEach(r -> owners.add(r.getMetadata().getUid()));
        servingObjects.forEach(j -> owners.add(j.getMetadata().getUid()));
        client.genericKubernetesResources(dev.berth.protocol.TrainerApi.API_VERSION, dev.berth.protocol.TrainerApi.TRAIN_JOB)
            .inAnyNamespace().list().getItems().forEach(j -> owners.add(j.getMetadata().getUid()));
        appWrappers.forEach(a -> owners.add(a.getMetadata().getUid()));
        remoteWorkloads().forEach(r -> owners.add(r.getMetadata().getUid()));
        for (HasMetadata child : children) {
            List<OwnerReference> references = child.getMetadata().getOwnerReferences();
            if (references == null || references.isEmpty()) {
                continue;
            }
            boolean orphaned = references.stream()
                .filter(o -> KNOWN_OWNER_KINDS.contains(o.getKind()))
                .anyMatch(o -> !owners.contains(o.getUid()));
            if (orphaned) {
                delete(child);
            }
        }
    }

    /**
     * Deletes the child listed, and only it: with its resourceVersion as precondition, as kube's garbage collector
     * deletes with the listed uid, so that an object created under the same name since the listing (a rescaled
     * Deployment's next copy, made by the agent once the old one was gone) is not deleted in its place. A child changed
     * since is looked at again in the next pass.
     */
    private void delete(HasMetadata child) {
        try {
            client.resource(child).lockResourceVersion().delete();
            LOG.info("Deleted {} {}/{}: its owner is gone", child.getKind(), child.getMetadata().getNamespace(),
                child.getMetadata().getName());
        } catch (KubernetesClientException e) {
            LOG.debug("Could not delete orphan {} {}: {}", child.getKind(), child.getMetadata().getName(), e.getMessage());
        }
    }

    private List<GenericKubernetesResource> jobSets() {
        return client.genericKubernetesResources(JobSetController.API_VERSION, JobSetController.KIND)
            .inAnyNamespace().list().getItems();
    }

    private List<GenericKubernetesResource> kubeflowJobs() {
        List<GenericKubernetesResource> jobs = new ArrayList<>();
        for (dev.berth.protocol.KubeflowJobKind kind : dev.berth.protocol.KubeflowJobKind.ALL) {
            jobs.addAll(client.genericKubernetesResources(kind.apiVersion(), kind.kind()).inAnyNamespace().list().getItems());
        }
        return jobs;
    }

    private List<GenericKubernetesResource> rayObjects() {
        List<GenericKubernetesResource> objects = new ArrayList<>();
        for (dev.berth.protocol.RayApi.Kind kind : dev.berth.protocol.RayApi.ALL) {
            objects.addAll(client.genericKubernetesResources(kind.apiVersion(), kind.kind()).inAnyNamespace().list().getItems());
        }
        return objects;
    }

    private List<GenericKubernetesResource> servingObjects() {
        List<GenericKubernetesResource> objects = new ArrayList<>();
        for (dev.berth.protocol.ServingKind kind : dev.berth.protocol.ServingKind.ALL) {
            objects.addAll(client.genericKubernetesResources(kind.apiVersion(), kind.kind()).inAnyNamespace().list().getItems());
        }
        return objects;
    }

    private List<GenericKubernetesResource> remoteWorkloads() {
        return client.genericKubernetesResources(BerthCrds.API_VERSION, "RemoteWorkload").inAnyNamespace().list().getItems();
    }
}
