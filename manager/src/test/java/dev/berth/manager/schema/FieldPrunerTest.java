package dev.berth.manager.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Structural pruning as kube-apiserver does it, one behaviour per test, on hand-written and vendored schemas. */
class FieldPrunerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaCatalog CATALOG = SchemaCatalog.bundled();
    private static final SchemaCatalog.GroupVersionKind GADGET = new SchemaCatalog.GroupVersionKind("test.berth.dev", "v1", "Gadget");

    @Test
    void preserveUnknownFieldsKeepsUnknownFieldsAtItsLevelButPrunesInsideKnownOnes() throws Exception {
        KindSchema schema = custom("{'type':'object','properties':{'spec':{'type':'object','x-kubernetes-preserve-unknown-fields':true,"
                + "'properties':{'known':{'type':'object','properties':{'a':{'type':'string'}}}}}}}");
        ObjectNode object = object("{'spec':{'free':{'any':1},'known':{'a':'x','b':'y'}}}");

        List<String> removed = FieldPruner.prune(schema, object, null);

        assertThat(removed).containsExactly("spec.known.b");
        assertThat(object.toString()).isEqualTo(json("{'spec':{'free':{'any':1},'known':{'a':'x'}}}"));
    }

    @Test
    void anObjectWithoutPropertiesInACrdKeepsNothing() throws Exception {
        KindSchema schema = custom("{'type':'object','properties':{'spec':{'type':'object'}}}");
        ObjectNode object = object("{'spec':{'a':1}}");

        assertThat(FieldPruner.prune(schema, object, null)).containsExactly("spec.a");
    }

    @Test
    void additionalPropertiesDescribeMapValues() throws Exception {
        KindSchema schema = custom("{'type':'object','properties':{'m':{'type':'object','additionalProperties':"
                + "{'type':'object','properties':{'v':{'type':'integer'}}}},'any':{'type':'object','additionalProperties':true}}}");
        ObjectNode object = object("{'m':{'k':{'v':1,'w':2}},'any':{'x':{'y':1}}}");

        assertThat(FieldPruner.prune(schema, object, null)).containsExactly("m.k.w");
        assertThat(object.at("/any/x/y").asInt()).isEqualTo(1);
    }

    @Test
    void anEmbeddedResourceKeepsApiVersionAndKindAndOnlyObjectMetaInItsMetadata() throws Exception {
        KindSchema schema = custom("{'type':'object','properties':{'inner':{'type':'object','x-kubernetes-embedded-resource':true,"
                + "'properties':{'spec':{'type':'object','properties':{}}}}}}");
        ObjectNode object = object("{'metadata':{'name':'n','labels':{'a':'b'},'bogus':1},'inner':{'apiVersion':'v1','kind':'K',"
                + "'metadata':{'name':'i','colour':'red'},'other':1}}");

        assertThat(FieldPruner.prune(schema, object, null)).containsExactly("metadata.bogus", "inner.metadata.colour", "inner.other");
        assertThat(object.at("/inner/kind").asText()).isEqualTo("K");
        assertThat(object.at("/metadata/labels/a").asText()).isEqualTo("b");
    }

    @Test
    void fieldsTheBaselineAlreadyHadAreNeitherReportedNorPruned() throws Exception {
        KindSchema schema = custom("{'type':'object','properties':{'spec':{'type':'object','properties':{'list':{'type':'array',"
                + "'items':{'type':'object','properties':{'a':{'type':'string'}}}}}}}}");
        ObjectNode object = object("{'spec':{'old':1,'new':2,'list':[{'a':'x','b':1},{'b':2}]}}");
        JsonNode baseline = object("{'spec':{'old':1,'list':[{'b':1}]}}");

        assertThat(FieldPruner.prune(schema, object, baseline)).containsExactly("spec.new", "spec.list[1].b");
        assertThat(object.at("/spec/old").asInt()).isEqualTo(1);
    }

    @Test
    void aBuiltInKindKeepsItsFreeFormObjectsAndPrunesTypedOnes() throws Exception {
        KindSchema job = CATALOG.schema("batch", "v1", "Job").orElseThrow();
        ObjectNode object = object("{'apiVersion':'batch/v1','kind':'Job','metadata':{'name':'j','managedFields':[{'manager':'m',"
                + "'fieldsV1':{'f:spec':{'f:x':{}}}}]},'spec':{'template':{'spec':{'containers':[{'name':'c','image':'i','imagePullPolicyy':'x',"
                + "'resources':{'limits':{'cpu':'1'}}}]}}}}");

        assertThat(FieldPruner.prune(job, object, null)).containsExactly("spec.template.spec.containers[0].imagePullPolicyy");
        assertThat(object.at("/metadata/managedFields/0/fieldsV1/f:spec/f:x").isObject()).isTrue();
        assertThat(object.at("/spec/template/spec/containers/0/resources/limits/cpu").asText()).isEqualTo("1");
    }

    @Test
    void berthsOwnWorkloadStatusFieldsAreKnown() throws Exception {
        KindSchema workload = CATALOG.schema("kueue.x-k8s.io", "v1beta2", "Workload").orElseThrow();
        ObjectNode object = object("{'status':{'dispatch':{'cluster':'w1','phase':'Running'},'dispatchHistory':[{'attempt':'a','outcome':'ClusterLost'}],"
                + "'dispatchHolds':{'x':1},'clusterName':'w1','mood':'calm'}}");

        assertThat(FieldPruner.prune(workload, object, null)).containsExactly("status.mood");
        assertThat(object.at("/status/dispatch/phase").asText()).isEqualTo("Running");
    }

    @Test
    void theCatalogHasEveryServedVersionOfEveryKueueKind() {
        for (String kind : List.of("ResourceFlavor", "ClusterQueue", "Cohort", "LocalQueue", "Workload", "WorkloadPriorityClass",
                "AdmissionCheck", "MultiKueueCluster", "MultiKueueConfig")) {
            for (String version : List.of("v1beta1", "v1beta2")) {
                assertThat(CATALOG.schema("kueue.x-k8s.io", version, kind)).as(kind + " " + version).isPresent();
            }
        }
        assertThat(CATALOG.schema("jobset.x-k8s.io", "v1alpha2", "JobSet")).isPresent();
        for (String kind : List.of("Pod", "Namespace", "Secret", "Event")) assertThat(CATALOG.schema("", "v1", kind)).as(kind).isPresent();
        assertThat(CATALOG.schema("scheduling.k8s.io", "v1", "PriorityClass")).isPresent();
        assertThat(CATALOG.schema("rbac.authorization.k8s.io", "v1", "ClusterRoleBinding")).isPresent();
        assertThat(CATALOG.schema("kueue.x-k8s.io", "v1beta1", "ClusterQueue").orElseThrow().root().at("/properties/spec/properties/cohort").isObject()).isTrue();
    }

    private static KindSchema custom(String schema) throws Exception {
        return KindSchema.custom(GADGET, (ObjectNode) JSON.readTree(json(schema)), CATALOG.definitions());
    }

    private static ObjectNode object(String text) throws Exception {
        return (ObjectNode) JSON.readTree(json(text));
    }

    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }
}
