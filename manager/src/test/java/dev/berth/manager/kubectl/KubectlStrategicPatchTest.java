package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl's strategic merge patches lose nothing (issue 13): kubectl patch, set env and set
 * image on a pod template (a Deployment's; a Job's template is immutable, as on kube-apiserver) store what
 * they promise, keep the container's image and resources, and leave no $setElementOrder keys; a strategic
 * patch on a ClusterQueue (a custom resource) gets kube's 415.
 */
@NeedsKubectl
class KubectlStrategicPatchTest {
    // a Deployment, whose pod template may change (a Job's may not, as on kube-apiserver: KubectlJobUpdateTest)
    private static final String JOB = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: %s
              namespace: team-a
            spec:
              replicas: 1
              selector:
                matchLabels:
                  app: %<s
              template:
                metadata:
                  labels:
                    app: %<s
                spec:
                  containers:
                  - name: c
                    image: img:1
                    command: ["/agnhost", "pause"]
                    resources:
                      requests:
                        cpu: "1"
                        memory: 1Gi
                    env:
                    - name: X
                      value: "0"
            """;

    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();
    static final Kubectl kubectl = Kubectl.on(harness);
    @TempDir
    static Path home;

    @Test
    void patchingAContainersEnvKeepsItsImageAndResources() throws Exception {
        job("patched");

        kubectl.run("kubectl patch deployment patched -n team-a -p "
                + "'{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"env\":[{\"name\":\"A\",\"value\":\"1\"}]}]}}}}'").ok();

        assertThat(container("patched", "{.image}")).isEqualTo("img:1");
        assertThat(container("patched", "{.resources.requests.cpu}")).isEqualTo("1");
        assertThat(container("patched", "{.resources.requests.memory}")).isEqualTo("1Gi");
        assertThat(container("patched", "{range .env[*]}{.name}={.value};{end}")).isEqualTo("A=1;X=0;");
    }

    @Test
    void setEnvStoresTheVariableAfterTheOthersAndNoDirectives() throws Exception {
        job("env");

        kubectl.run("kubectl set env deployment/env -n team-a A=1").ok();

        assertThat(container("env", "{range .env[*]}{.name}={.value};{end}")).isEqualTo("X=0;A=1;");
        assertThat(container("env", "{.image}")).isEqualTo("img:1");
        assertThat(container("env", "{.resources.requests.cpu}")).isEqualTo("1");
        assertThat(json("env")).doesNotContain("$setElementOrder", "$patch", "$retainKeys");
    }

    @Test
    void setImageChangesOnlyTheImage() throws Exception {
        job("image");

        kubectl.run("kubectl set image deployment/image -n team-a c=img:2").ok();

        assertThat(container("image", "{.image}")).isEqualTo("img:2");
        assertThat(container("image", "{.resources.requests.memory}")).isEqualTo("1Gi");
        assertThat(container("image", "{.command}")).isEqualTo("[\"/agnhost\",\"pause\"]");
        assertThat(container("image", "{range .env[*]}{.name}={.value};{end}")).isEqualTo("X=0;");
        assertThat(json("image")).doesNotContain("$setElementOrder");
    }

    @Test
    void aSecondClientSideApplyStoresExactlyTheNewManifest() throws Exception {
        String first = JOB.formatted("applied").replace("                    env:\n                    - name: X\n                      value: \"0\"\n",
                "                    env:\n                    - name: X\n                      value: \"0\"\n                    - name: Y\n                      value: \"1\"\n");
        kubectl.run("kubectl apply -f " + Files.writeString(home.resolve("applied-1.yaml"), first)).ok();
        String second = JOB.formatted("applied").replace("value: \"0\"", "value: \"2\"").replace("cpu: \"1\"", "cpu: \"2\"");

        kubectl.run("kubectl apply -f " + Files.writeString(home.resolve("applied-2.yaml"), second)).ok();

        assertThat(container("applied", "{range .env[*]}{.name}={.value};{end}")).isEqualTo("X=2;");
        assertThat(container("applied", "{.resources.requests.cpu}")).isEqualTo("2");
        assertThat(container("applied", "{.image}")).isEqualTo("img:1");
        assertThat(json("applied")).doesNotContain("$setElementOrder", "$patch", "$retainKeys", "$deleteFromPrimitiveList");
    }

    @Test
    void aStrategicPatchOfAClusterQueueIs415() throws Exception {
        Kubectl.Result refused = kubectl.run("kubectl patch clusterqueue team-a-cq --type=strategic -p '{\"spec\":{\"cohortName\":\"x\"}}'");

        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).as("kubectl recognises kube's 415").contains(
                "application/strategic-merge-patch+json is not supported by kueue.x-k8s.io/v1beta2, Kind=ClusterQueue",
                "the body of the request was in an unknown format - accepted media types include: application/json-patch+json");
        assertThat(kubectl.run("kubectl get clusterqueue team-a-cq -o jsonpath={.spec.cohortName}").ok().stdout()).isNotEqualTo("x");
    }

    private static void job(String name) throws Exception {
        kubectl.run("kubectl create -f " + Files.writeString(home.resolve(name + ".yaml"), JOB.formatted(name))).ok();
    }

    private static String container(String job, String jsonPath) throws Exception {
        String path = "{.spec.template.spec.containers[0]" + jsonPath.substring(1);
        if (jsonPath.startsWith("{range")) {
            path = jsonPath.replace("{range .env[*]}", "{range .spec.template.spec.containers[0].env[*]}");
        }
        return kubectl.run(List.of("get", "deployment", job, "-n", "team-a", "-o", "jsonpath=" + path)).ok().stdout();
    }

    private static String json(String job) throws Exception {
        return kubectl.run(List.of("get", "deployment", job, "-n", "team-a", "-o", "json")).ok().stdout();
    }
}
