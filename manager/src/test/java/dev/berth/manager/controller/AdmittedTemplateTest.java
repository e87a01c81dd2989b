package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.Admission;
import dev.berth.manager.model.PodSetAssignment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What Kueue's RunWithPodSetsInfo does to a job it starts, applied to the template sent to the worker. */
class AdmittedTemplateTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode json(String text) throws Exception {
        return (ObjectNode) JSON.readTree(text.replace('\'', '"'));
    }

    private static Admission admitted(String podSet, int count) {
        return new Admission("cq", List.of(new PodSetAssignment(podSet, Map.of("cpu", "f"), Map.of("cpu", 1000L * count), count)));
    }

    @Test
    void podSetUpdatesOfReadyChecksAreMergedIntoTheJobsPodTemplate() throws Exception {
        ObjectNode job = json("{'kind':'Job','metadata':{'name':'j'},'spec':{'parallelism':2,'template':{"
                + "'metadata':{'labels':{'app':'x'}},'spec':{'nodeSelector':{'zone':'a'},'tolerations':[{'key':'t','operator':'Exists'}]}}}}");
        ObjectNode workload = json("{'status':{'admissionChecks':["
                + "{'name':'prov','state':'Ready','podSetUpdates':[{'name':'main','labels':{'prov':'yes','app':'other'},"
                + "'annotations':{'cluster-autoscaler.kubernetes.io/consume-provisioning-request':'pr-1'},"
                + "'nodeSelector':{'pool':'gpu'},'tolerations':[{'key':'t','operator':'Exists'},{'key':'gpu','operator':'Exists','effect':'NoSchedule'}]}]},"
                + "{'name':'late','state':'Pending','podSetUpdates':[{'name':'main','labels':{'pending':'no'}}]}]}}");

        AdmittedTemplate.apply(job, workload, admitted("main", 2));

        ObjectNode template = (ObjectNode) job.path("spec").path("template");
        assertThat(template.path("metadata").path("labels")).isEqualTo(json("{'app':'x','prov':'yes'}"));
        assertThat(template.path("metadata").path("annotations").path("cluster-autoscaler.kubernetes.io/consume-provisioning-request").asText())
                .isEqualTo("pr-1");
        assertThat(template.path("spec").path("nodeSelector")).isEqualTo(json("{'zone':'a','pool':'gpu'}"));
        assertThat(template.path("spec").path("tolerations")).isEqualTo(
                JSON.readTree("[{\"key\":\"t\",\"operator\":\"Exists\"},{\"key\":\"gpu\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]"));
        assertThat(job.path("spec").path("parallelism").asInt()).as("not partially admissible: untouched").isEqualTo(2);
    }

    @Test
    void podSetUpdatesReachTheMatchingReplicatedJobOfAJobSet() throws Exception {
        ObjectNode jobSet = json("{'kind':'JobSet','spec':{'replicatedJobs':["
                + "{'name':'leader','template':{'spec':{'template':{'spec':{}}}}},"
                + "{'name':'workers','template':{'spec':{'template':{'spec':{}}}}}]}}");
        ObjectNode workload = json("{'status':{'admissionChecks':[{'name':'prov','state':'Ready',"
                + "'podSetUpdates':[{'name':'workers','nodeSelector':{'pool':'gpu'}}]}]}}");

        AdmittedTemplate.apply(jobSet, workload, admitted("workers", 1));

        assertThat(jobSet.path("spec").path("replicatedJobs").get(1).path("template").path("spec").path("template")
                .path("spec").path("nodeSelector").path("pool").asText()).isEqualTo("gpu");
        assertThat(jobSet.path("spec").path("replicatedJobs").get(0).path("template").path("spec").path("template")
                .path("spec").has("nodeSelector")).isFalse();
    }

    @Test
    void aPartiallyAdmittedJobRunsWithTheAdmittedCountAndKeepsCompletionsUnlessAskedToSyncThem() throws Exception {
        ObjectNode job = json("{'kind':'Job','metadata':{'annotations':{'kueue.x-k8s.io/job-min-parallelism':'2'}},"
                + "'spec':{'parallelism':10,'completions':20,'template':{'spec':{}}}}");

        AdmittedTemplate.apply(job, json("{}"), admitted("main", 6));

        assertThat(job.path("spec").path("parallelism").asInt()).isEqualTo(6);
        assertThat(job.path("spec").path("completions").asInt()).isEqualTo(20);
    }

    @Test
    void aJobNeverRunsMorePodsThanItsWorkloadWasAdmittedFor() throws Exception {
        ObjectNode raised = json("{'kind':'Job','metadata':{},'spec':{'parallelism':8,'completions':8,'template':{'spec':{}}}}");
        AdmittedTemplate.apply(raised, json("{}"), admitted("main", 3));
        assertThat(raised.path("spec").path("parallelism").asInt()).as("raised after admission").isEqualTo(3);
        assertThat(raised.path("spec").path("completions").asInt()).isEqualTo(8);

        ObjectNode lowered = json("{'kind':'Job','metadata':{},'spec':{'parallelism':2,'template':{'spec':{}}}}");
        AdmittedTemplate.apply(lowered, json("{}"), admitted("main", 3));
        assertThat(lowered.path("spec").path("parallelism").asInt()).as("fewer than admitted is left alone").isEqualTo(2);
    }
}
