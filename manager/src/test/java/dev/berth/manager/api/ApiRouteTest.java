package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ApiRouteTest {
    static final ResourceType NAMESPACES = new ResourceType("", "v1", "namespaces", "namespace", "Namespace", false, List.of("ns"), true);
    static final ResourceType PODS = new ResourceType("", "v1", "pods", "pod", "Pod", true, List.of("po"), true);
    static final ResourceRegistry REGISTRY = ResourceRegistry.builder()
            .add(NAMESPACES, ObjectHooks.NONE)
            .add(PODS, ObjectHooks.NONE)
            .add(TestKinds.WIDGET, ObjectHooks.NONE, "v1alpha1")
            .add(TestKinds.GADGET, ObjectHooks.NONE)
            .build();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "/api/v1/namespaces                                 | namespaces | v1       | ''  | -  | false",
            "/api/v1/namespaces/team-a                          | namespaces | v1       | ''  | team-a | false",
            "/api/v1/namespaces/team-a/status                   | namespaces | v1       | ''  | team-a | true",
            "/api/v1/namespaces/team-a/pods                     | pods       | v1       | team-a | - | false",
            "/api/v1/namespaces/team-a/pods/p                   | pods       | v1       | team-a | p | false",
            "/api/v1/namespaces/team-a/pods/p/status            | pods       | v1       | team-a | p | true",
            "/api/v1/pods                                       | pods       | v1       | -   | -  | false",
            "/apis/test.berth.dev/v1alpha1/widgets/w            | widgets    | v1alpha1 | ''  | w  | false",
            "/apis/test.berth.dev/v1/gadgets                    | gadgets    | v1       | -   | -  | false",
            "/apis/test.berth.dev/v1/namespaces/n/gadgets/g/status | gadgets | v1       | n   | g  | true",
    })
    void pathsResolveToResources(String path, String plural, String version, String namespace, String name, boolean status) {
        ApiRoute route = ApiRoute.resolve(path, REGISTRY);
        assertThat(route.path().type().plural()).isEqualTo(plural);
        assertThat(route.path().version()).isEqualTo(version);
        assertThat(route.path().namespace()).isEqualTo(namespace);
        assertThat(route.path().name()).isEqualTo(name);
        assertThat(route.status()).isEqualTo(status);
    }

    @ParameterizedTest
    @CsvSource({
            "/api/v2/namespaces", "/apis/test.berth.dev/v1", "/apis/test.berth.dev/v1/sprockets",
            "/apis/test.berth.dev/v1/widgets/w/status", "/apis/test.berth.dev/v1/widgets/w/scale",
            "/apis/test.berth.dev/v1/namespaces/n/widgets", "/apis/test.berth.dev/v1/gadgets/g",
            "/api/v1/namespaces/a/pods/p/status/extra", "/apis/test.berth.dev/v1beta1/widgets"
    })
    void pathsThatNameNothingAre404(String path) {
        assertThatThrownBy(() -> ApiRoute.resolve(path, REGISTRY))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(404));
    }
}
