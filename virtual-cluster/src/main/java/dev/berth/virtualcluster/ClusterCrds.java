package dev.berth.virtualcluster;

import dev.berth.protocol.KubeflowJobKind;
import dev.berth.protocol.ServingKind;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/** The custom resource definitions a virtual cluster serves: Berth's RemoteWorkload, JobSet, PyTorchJob and MPIJob. */
final class ClusterCrds {
    static final String REMOTE_WORKLOAD_CRD = "META-INF/fabric8/remoteworkloads.berth.dev-v1.yml";

    private ClusterCrds() {}

    static void register(KubernetesClient client) {
        try (InputStream yaml = ClusterCrds.class.getClassLoader().getResourceAsStream(REMOTE_WORKLOAD_CRD)) {
            if (yaml == null) {
                throw new IllegalStateException(REMOTE_WORKLOAD_CRD + " is not on the classpath (build the protocol module)");
            }
            client.apiextensions().v1().customResourceDefinitions().load(yaml).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        client.apiextensions().v1().customResourceDefinitions().resource(jobSetCrd()).create();
        for (KubeflowJobKind kind : KubeflowJobKind.ALL) {
            client.apiextensions().v1().customResourceDefinitions().resource(kubeflowCrd(kind)).create();
        }
        for (dev.berth.protocol.RayApi.Kind kind : dev.berth.protocol.RayApi.ALL) {
            client.apiextensions().v1().customResourceDefinitions()
                    .resource(schemaless(kind.group(), kind.version(), kind.kind(), kind.plural(), kind.singular())).create();
        }
        for (dev.berth.protocol.TrainerApi.Kind kind : List.of(dev.berth.protocol.TrainerApi.TRAIN_JOB_KIND,
                dev.berth.protocol.TrainerApi.TRAINING_RUNTIME_KIND, dev.berth.protocol.TrainerApi.CLUSTER_TRAINING_RUNTIME_KIND)) {
            CustomResourceDefinition crd = schemaless(kind.group(), kind.version(), kind.kind(), kind.plural(), kind.singular());
            if (!kind.namespaced()) crd.getSpec().setScope("Cluster");
            client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        }
        client.apiextensions().v1().customResourceDefinitions().resource(schemaless(dev.berth.protocol.AppWrapperApi.GROUP,
                dev.berth.protocol.AppWrapperApi.VERSION, dev.berth.protocol.AppWrapperApi.KIND, dev.berth.protocol.AppWrapperApi.PLURAL,
                dev.berth.protocol.AppWrapperApi.SINGULAR)).create();
        ServingKind lws = ServingKind.LEADER_WORKER_SET;
        client.apiextensions().v1().customResourceDefinitions()
            .resource(schemaless(lws.group(), lws.version(), lws.kind(), lws.plural(), lws.singular())).create();
    }

    /** cluster-autoscaler's ProvisioningRequest (schemaless, with a status subresource): only on autoscaling virtual clusters. */
    static void registerProvisioningRequests(KubernetesClient client) {
        client.apiextensions().v1().customResourceDefinitions().resource(schemaless(dev.berth.protocol.Provisioning.GROUP,
            dev.berth.protocol.Provisioning.VERSION, dev.berth.protocol.Provisioning.KIND, dev.berth.protocol.Provisioning.PLURAL,
            "provisioningrequest")).create();
    }

    /** A schemaless CRD of a Kubeflow training job kind (the training operator's group and version). */
    static CustomResourceDefinition kubeflowCrd(KubeflowJobKind kind) {
        return schemaless(kind.group(), kind.version(), kind.kind(), kind.plural(), kind.singular());
    }

    private static CustomResourceDefinition schemaless(String group, String version, String kind, String plural, String singular) {
        return new CustomResourceDefinitionBuilder()
            .withNewMetadata().withName(plural + "." + group).endMetadata()
            .withNewSpec()
                .withGroup(group)
                .withScope("Namespaced")
                .withNewNames().withKind(kind).withPlural(plural).withSingular(singular).withListKind(kind + "List").endNames()
                .addNewVersion()
                    .withName(version).withServed(true).withStorage(true)
                    .withNewSubresources().withNewStatus().endStatus().endSubresources()
                    .withNewSchema().withNewOpenAPIV3Schema().withType("object")
                        .withXKubernetesPreserveUnknownFields(true).endOpenAPIV3Schema().endSchema()
                .endVersion()
            .endSpec()
            .build();
    }

    /** A schemaless JobSet CRD: enough for the API to store JobSets and keep their status on update. */
    static CustomResourceDefinition jobSetCrd() {
        return new CustomResourceDefinitionBuilder()
            .withNewMetadata().withName("jobsets." + JobSetController.GROUP).endMetadata()
            .withNewSpec()
                .withGroup(JobSetController.GROUP)
                .withScope("Namespaced")
                .withNewNames().withKind(JobSetController.KIND).withPlural("jobsets").withSingular("jobset")
                    .withListKind("JobSetList").endNames()
                .addNewVersion()
                    .withName("v1alpha2").withServed(true).withStorage(true)
                    .withNewSubresources().withNewStatus().endStatus().endSubresources()
                    .withNewSchema().withNewOpenAPIV3Schema().withType("object")
                        .withXKubernetesPreserveUnknownFields(true).endOpenAPIV3Schema().endSchema()
                .endVersion()
            .endSpec()
            .build();
    }
}
