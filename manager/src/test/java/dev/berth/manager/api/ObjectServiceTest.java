package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.StoredObject;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ObjectService without HTTP: loading manifest files and the core group. */
class ObjectServiceTest {
    final MemoryObjectStore store = new MemoryObjectStore();
    final TestKinds.WidgetHooks hooks = new TestKinds.WidgetHooks();
    final ObjectService service = new ObjectService(store, ResourceRegistry.builder()
            .add(ApiRouteTest.NAMESPACES, ObjectHooks.NONE)
            .add(TestKinds.WIDGET, hooks, "v1alpha1")
            .add(TestKinds.GADGET, ObjectHooks.NONE)
            .build());

    private static List<ObjectNode> yaml(String text) {
        return ManifestReader.read(text.getBytes(StandardCharsets.UTF_8), "application/yaml");
    }

    @Test
    void createAllRoutesEachDocumentByKind() {
        List<Outcome> created = service.createAll(yaml("""
                apiVersion: v1
                kind: Namespace
                metadata: {name: team-a}
                ---
                apiVersion: test.berth.dev/v1alpha1
                kind: Widget
                metadata: {name: w}
                ---
                apiVersion: test.berth.dev/v1
                kind: Gadget
                metadata: {name: g1, namespace: team-a}
                ---
                apiVersion: test.berth.dev/v1
                kind: Gadget
                metadata: {name: g2}
                """));

        assertThat(created).extracting(o -> o.object().at("/metadata/name").asText()).containsExactly("team-a", "w", "g1", "g2");
        assertThat(created.get(1).object().get("apiVersion").asText()).isEqualTo("test.berth.dev/v1alpha1");
        assertThat(store.list("/namespaces", null)).hasSize(1);
        assertThat(store.list(TestKinds.GADGET.resource(), null)).extracting(s -> s.key().namespace()).containsExactly("default", "team-a");
    }

    @Test
    void createAllStopsAtTheFirstRefusalAndNamesTheDocument() {
        List<ObjectNode> documents = yaml("""
                apiVersion: test.berth.dev/v1
                kind: Widget
                metadata: {name: ok}
                ---
                apiVersion: test.berth.dev/v1
                kind: Widget
                metadata: {name: bad}
                spec: {forbidden: true}
                ---
                apiVersion: test.berth.dev/v1
                kind: Widget
                metadata: {name: never}
                """);

        assertThatThrownBy(() -> service.createAll(documents))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(422);
                    assertThat(e.getMessage()).startsWith("document 2 (Widget \"bad\"): Widget \"bad\" is invalid");
                    assertThat(e.causes()).hasSize(1);
                });
        assertThat(store.list(TestKinds.WIDGET.resource(), null)).extracting(s -> s.key().name()).containsExactly("ok");
    }

    @Test
    void createAllRefusesAnUnknownKindNamingIt() {
        assertThatThrownBy(() -> service.createAll(yaml("apiVersion: other/v1\nkind: Sprocket\nmetadata: {name: s}\n")))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(400);
                    assertThat(e.getMessage()).contains("document 1").contains("kind \"Sprocket\"");
                });
        assertThat(store.revision()).isZero();
    }

    @Test
    void hooksSeeEveryDurableWrite() {
        service.createAll(yaml("apiVersion: test.berth.dev/v1\nkind: Widget\nmetadata: {name: w}\n"));
        ResourcePath w = new ResourcePath(TestKinds.WIDGET, "v1", "", "w");
        service.mergePatch(w, yaml("spec: {size: 2}").get(0));
        service.delete(w);
        assertThat(hooks.events).containsExactly("stored w@1", "stored w@2", "deleted w");
    }

    @Test
    void aDeleteHeldByAFinalizerIsStampedByTheServicesClock() {
        ObjectHooks holding = new ObjectHooks() {
            @Override
            public String finalizerHoldingDeletion(StoredObject existing) {
                return "example.com/hold";
            }
        };
        Clock fixed = Clock.fixed(Instant.parse("2031-02-03T04:05:06Z"), ZoneOffset.UTC);
        ObjectService clocked = new ObjectService(store, ResourceRegistry.builder().add(TestKinds.WIDGET, holding).build(),
                CreationGate.NONE, fixed);
        ResourcePath widgets = ResourcePath.collection(TestKinds.WIDGET, "v1", null);
        clocked.createAll(yaml("""
                apiVersion: test.berth.dev/v1
                kind: Widget
                metadata: {name: held}
                """));

        ObjectNode marked = clocked.delete(widgets.named("held")).object();

        assertThat(marked.at("/metadata/deletionTimestamp").asText()).isEqualTo("2031-02-03T04:05:06Z");
        assertThat(marked.at("/metadata/finalizers/0").asText()).isEqualTo("example.com/hold");
    }

    @Test
    void aDryRunDeleteOfAHeldObjectAnswersAsTheDeleteWouldAndChangesNothing() {
        ObjectHooks holding = new ObjectHooks() {
            @Override
            public String finalizerHoldingDeletion(StoredObject existing) {
                return "example.com/hold";
            }
        };
        ObjectService service = new ObjectService(store, ResourceRegistry.builder().add(TestKinds.WIDGET, holding).build());
        ResourcePath widgets = ResourcePath.collection(TestKinds.WIDGET, "v1", null);
        service.createAll(yaml("""
                apiVersion: test.berth.dev/v1
                kind: Widget
                metadata: {name: held}
                """));

        ObjectNode answered = service.dryRun().delete(widgets.named("held")).object();

        assertThat(answered.at("/metadata/deletionTimestamp").isTextual()).as(answered.toString()).isTrue();
        assertThat(answered.at("/metadata/finalizers/0").asText()).isEqualTo("example.com/hold");
        ObjectNode stored = service.get(widgets.named("held"));
        assertThat(stored.at("/metadata/deletionTimestamp").isMissingNode()).as(stored.toString()).isTrue();
        assertThat(stored.at("/metadata/finalizers").isMissingNode()).isTrue();
    }
}
