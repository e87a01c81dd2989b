package dev.berth.virtualcluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Requests resolve to the attributes kube-apiserver's RBAC authorizer decides on, one row per request shape. */
class ApiRequestTest {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', nullValues = "~", value = {
            "GET    | /api/v1/namespaces/berth-system                                  | get  |                 | namespaces      |        | berth-system | berth-system",
            "POST   | /api/v1/namespaces                                               | create |               | namespaces      |        |              | ",
            "GET    | /api/v1/namespaces/berth-system/status                           | get  |                 | namespaces      | status | berth-system | berth-system",
            "GET    | /api/v1/nodes                                                    | list |                 | nodes           |        |              | ",
            "GET    | /api/v1/pods?labelSelector=berth.dev%2Fremote-workload&watch=true | watch |                | pods            |        |              | ",
            "GET    | /api/v1/namespaces/team-a/pods?labelSelector=a%3Db               | list |                 | pods            |        | team-a       | ",
            "DELETE | /api/v1/namespaces/team-a/pods?labelSelector=a%3Db               | deletecollection | | pods          |        | team-a       | ",
            "DELETE | /api/v1/namespaces/team-a/pods/p-1                               | delete |               | pods            |        | team-a       | p-1",
            "POST   | /apis/batch/v1/namespaces/team-a/jobs                            | create | batch         | jobs            |        | team-a       | ",
            "PUT    | /apis/berth.dev/v1alpha1/namespaces/team-a/remoteworkloads/rw/status | update | berth.dev | remoteworkloads | status | team-a      | rw",
            "PATCH  | /apis/berth.dev/v1alpha1/namespaces/team-a/remoteworkloads/rw    | patch | berth.dev      | remoteworkloads |        | team-a       | rw",
            "GET    | /apis/coordination.k8s.io/v1/namespaces/berth-system/leases/berth-agent | get | coordination.k8s.io | leases | | berth-system | berth-agent",
            "GET    | /api/v1/namespaces/berth-system/configmaps?fieldSelector=metadata.name%3Dberth-flavors&watch=true | watch | | configmaps | | berth-system | berth-flavors",
    })
    void resolvesTheAttributesRbacDecidesOn(String method, String path, String verb, String group, String resource, String subresource,
                                            String namespace, String name) {
        ApiRequest request = ApiRequest.of("berth-agent", method, path);
        assertThat(request.isResourceRequest()).isTrue();
        assertThat(request.verb()).isEqualTo(verb);
        assertThat(request.apiGroup()).isEqualTo(group == null ? "" : group);
        assertThat(request.resource()).isEqualTo(resource);
        assertThat(request.subresource()).isEqualTo(subresource == null ? "" : subresource);
        assertThat(request.namespace()).isEqualTo(namespace == null ? "" : namespace);
        assertThat(request.name()).isEqualTo(name == null ? "" : name);
        assertThat(ApiRequest.fromLine(request.toLine())).isEqualTo(request);
    }

    @ParameterizedTest
    @CsvSource({"/version", "/apis", "/api", "/openapi/v2"})
    void discoveryIsANonResourceRequest(String path) {
        ApiRequest request = ApiRequest.of("berth-manager-access", "GET", path);
        assertThat(request.isResourceRequest()).isFalse();
        assertThat(request.nonResourcePath()).isEqualTo(path);
        assertThat(ApiRequest.fromLine(request.toLine())).isEqualTo(request);
    }
}
