package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Discovery lists Kueue's visibility API (issue 13) in the legacy documents and in the aggregated
 * apidiscovery.k8s.io/v2 form kubectl 1.32 asks for first.
 */
class DiscoveryVisibilityHttpTest extends ApiServerFixture {
    private static final String KUBECTL_ACCEPT = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
            + "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
    private static final String GROUP = "visibility.kueue.x-k8s.io";

    private HttpResponse<String> getWithAccept(String path, String accept) {
        return client.exchange("GET", path, Map.of("Accept", accept), HttpRequest.BodyPublishers.noBody());
    }

    @Test
    void theLegacyDocumentsListTheVisibilityGroupAndItsPendingWorkloads() throws Exception {
        assertThat(get("/apis").body().get("groups").findValuesAsText("name")).contains(GROUP);
        JsonNode group = get("/apis/" + GROUP).body();
        assertThat(group.at("/preferredVersion/version").asText()).isEqualTo("v1beta2");
        assertThat(group.get("versions").findValuesAsText("version")).containsExactly("v1beta2", "v1beta1");

        for (String version : List.of("v1beta2", "v1beta1")) {
            Reply resources = get("/apis/" + GROUP + "/" + version);
            assertThat(resources.code()).isEqualTo(200);
            List<String> rows = new ArrayList<>();
            for (JsonNode resource : resources.body().get("resources")) {
                rows.add(resource.get("name").asText() + " " + resource.get("namespaced").asBoolean() + " " + resource.get("kind").asText()
                        + " " + resource.get("verbs"));
            }
            assertThat(rows).containsExactly(
                    "clusterqueues false PendingWorkloadsSummary []",
                    "clusterqueues/pendingworkloads false PendingWorkloadsSummary [\"get\"]",
                    "localqueues true PendingWorkloadsSummary []",
                    "localqueues/pendingworkloads true PendingWorkloadsSummary [\"get\"]");
        }
    }

    @Test
    void aggregatedDiscoveryIsAnsweredWhenAskedForAndListsTheSameResources() throws Exception {
        HttpResponse<String> aggregated = getWithAccept("/apis", KUBECTL_ACCEPT);

        assertThat(aggregated.statusCode()).isEqualTo(200);
        assertThat(aggregated.headers().firstValue("content-type").orElse(""))
                .isEqualTo("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
        JsonNode list = JSON.readTree(aggregated.body());
        assertThat(list.get("kind").asText()).isEqualTo("APIGroupDiscoveryList");
        JsonNode visibility = null;
        for (JsonNode item : list.get("items")) if (item.at("/metadata/name").asText().equals(GROUP)) visibility = item;
        assertThat(visibility).isNotNull();
        JsonNode v1beta2 = visibility.at("/versions/0");
        assertThat(v1beta2.get("version").asText()).isEqualTo("v1beta2");
        JsonNode localQueues = v1beta2.at("/resources/1");
        assertThat(localQueues.get("resource").asText()).isEqualTo("localqueues");
        assertThat(localQueues.get("scope").asText()).isEqualTo("Namespaced");
        assertThat(localQueues.at("/subresources/0/subresource").asText()).isEqualTo("pendingworkloads");
        assertThat(localQueues.at("/subresources/0/responseKind/kind").asText()).isEqualTo("PendingWorkloadsSummary");
        assertThat(localQueues.at("/subresources/0/verbs/0").asText()).isEqualTo("get");

        JsonNode widgets = null;
        for (JsonNode item : list.get("items")) if (item.at("/metadata/name").asText().equals("test.berth.dev")) widgets = item;
        assertThat(widgets.at("/versions/0/resources").findValuesAsText("resource")).contains("widgets", "gadgets");

        HttpResponse<String> legacy = getWithAccept("/apis", "application/json");
        assertThat(JSON.readTree(legacy.body()).get("kind").asText()).isEqualTo("APIGroupList");
    }
}
