package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * LIST with limit and continue over real HTTP (issue 13): pages that add up to the whole list, read
 * at the first page's resourceVersion whatever is written in between, 410 Expired for a token whose
 * snapshot is gone, 400 for a token that is not one, and resourceVersion/resourceVersionMatch.
 */
class PaginationHttpTest extends ApiServerFixture {

    private void widgets(String... names) throws Exception {
        for (String name : names) assertThat(post(WIDGETS, widget(name, "{'size':1}")).code()).isEqualTo(201);
    }

    private Reply page(String path, String limit, String token) throws Exception {
        String query = "?limit=" + limit + (token == null ? "" : "&continue=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
        return get(path + (path.contains("?") ? query.replace('?', '&') : query));
    }

    private static String continueOf(Reply reply) {
        JsonNode token = reply.body().at("/metadata/continue");
        return token.isMissingNode() || token.asText().isEmpty() ? null : token.asText();
    }

    @Test
    void pagesOfTwoOverSevenObjectsListEveryObjectOnceAtOneResourceVersion() throws Exception {
        widgets("a", "b", "c", "d", "e", "f", "g");

        Reply first = page(WIDGETS, "2", null);
        assertThat(first.code()).isEqualTo(200);
        assertThat(names(first)).containsExactly("a", "b");
        assertThat(first.body().at("/metadata/remainingItemCount").asLong()).isEqualTo(5);
        String resourceVersion = first.body().at("/metadata/resourceVersion").asText();

        List<List<String>> pages = new ArrayList<>(List.of(names(first)));
        String token = continueOf(first);
        while (token != null) {
            Reply next = page(WIDGETS, "2", token);
            assertThat(next.code()).as(String.valueOf(next.body())).isEqualTo(200);
            assertThat(next.body().at("/metadata/resourceVersion").asText()).isEqualTo(resourceVersion);
            pages.add(names(next));
            token = continueOf(next);
            if (token != null) assertThat(next.body().at("/metadata/remainingItemCount").asLong()).isPositive();
        }
        assertThat(pages).containsExactly(List.of("a", "b"), List.of("c", "d"), List.of("e", "f"), List.of("g"));
        assertThat(get(WIDGETS).body().at("/metadata/continue").isMissingNode()).as("an unpaged list has no continue").isTrue();
    }

    @Test
    void objectsCreatedChangedAndDeletedBetweenPagesNeitherAppearNorVanishMidWay() throws Exception {
        widgets("a", "b", "c", "d", "e", "f", "g");
        Reply first = page(WIDGETS, "2", null);

        assertThat(call("DELETE", WIDGETS + "/e", null, (byte[]) null).code()).isEqualTo(200);
        widgets("c2", "h");
        assertThat(call("PATCH", WIDGETS + "/f", MERGE, json("{'spec':{'size':9}}")).code()).isEqualTo(200);

        List<JsonNode> rest = new ArrayList<>();
        String token = continueOf(first);
        while (token != null) {
            Reply next = page(WIDGETS, "2", token);
            next.body().get("items").forEach(rest::add);
            token = continueOf(next);
        }
        assertThat(rest).extracting(item -> item.at("/metadata/name").asText()).containsExactly("c", "d", "e", "f", "g");
        assertThat(rest.get(3).at("/spec/size").asInt()).as("f as it was when the first page was read").isEqualTo(1);

        assertThat(names(get(WIDGETS))).as("a new list sees the writes").containsExactly("a", "b", "c", "c2", "d", "f", "g", "h");
    }

    @Test
    void aTokenWhoseSnapshotIsGoneIs410ExpiredOfferingTheRestFromTheCurrentState() throws Exception {
        widgets("a", "b", "c", "d", "e");
        String unknown = Base64.getUrlEncoder().withoutPadding().encodeToString(
                json("{'v':'meta.k8s.io/v1','rv':3,'start':'/b','snapshot':'forgotten'}").getBytes(StandardCharsets.UTF_8));

        Reply expired = page(WIDGETS, "2", unknown);

        assertThat(expired.code()).isEqualTo(410);
        assertThat(expired.body().get("reason").asText()).isEqualTo("Expired");
        assertThat(expired.body().get("message").asText()).isEqualTo("The provided continue parameter is too old to display a "
                + "consistent list result. You can start a new list without the continue parameter, or use the continue token "
                + "in this response to retrieve the remainder of the results. Continuing with the provided token results in an "
                + "inconsistent list - objects that were created, modified, or deleted between the time the first chunk was "
                + "returned and now may show up in the list.");
        String inconsistent = expired.body().at("/metadata/continue").asText();
        assertThat(inconsistent).isNotEmpty();
        Reply rest = page(WIDGETS, "10", inconsistent);
        assertThat(rest.code()).isEqualTo(200);
        assertThat(names(rest)).containsExactly("c", "d", "e");
    }

    @Test
    void aTokenFromASnapshotDroppedForNewerListsIs410() throws Exception {
        widgets("a", "b", "c");
        String oldest = continueOf(page(WIDGETS, "1", null));
        for (int i = 0; i < ListSnapshots.DEFAULT_MAX_SNAPSHOTS; i++) assertThat(continueOf(page(WIDGETS, "1", null))).isNotNull();

        Reply expired = page(WIDGETS, "1", oldest);

        assertThat(expired.code()).isEqualTo(410);
        assertThat(expired.body().get("reason").asText()).isEqualTo("Expired");
    }

    @Test
    void aContinueThatIsNoTokenIs400() throws Exception {
        widgets("a", "b", "c");
        for (String garbage : List.of("%%%not-base64", Base64.getUrlEncoder().encodeToString("[1,2]".getBytes(StandardCharsets.UTF_8)),
                Base64.getUrlEncoder().encodeToString(json("{'v':'other/v9','rv':3,'start':'/a'}").getBytes(StandardCharsets.UTF_8)))) {
            Reply refused = page(WIDGETS, "2", garbage);
            assertThat(refused.code()).as(garbage).isEqualTo(400);
            assertThat(refused.body().get("reason").asText()).isEqualTo("BadRequest");
            assertThat(refused.body().get("message").asText()).startsWith("continue key is not valid");
        }
        String widgetToken = continueOf(page(WIDGETS, "1", null));
        assertThat(page(GADGETS, "1", widgetToken).code()).as("a token for another list").isEqualTo(400);
    }

    @Test
    void limitWithALabelSelectorPagesOnlyTheMatchesWithoutARemainingCount() throws Exception {
        for (int i = 0; i < 7; i++) {
            assertThat(post(GADGETS, gadget("g" + i, i % 2 == 0 ? "{'team':'red'}" : "{'team':'blue'}")).code()).isEqualTo(201);
        }
        List<String> seen = new ArrayList<>();
        String token = null;
        do {
            Reply next = page(GADGETS + "?labelSelector=team%3Dred", "2", token);
            assertThat(next.code()).isEqualTo(200);
            assertThat(next.body().get("items").size()).isLessThanOrEqualTo(2);
            assertThat(next.body().at("/metadata/remainingItemCount").isMissingNode()).isTrue();
            seen.addAll(names(next));
            token = continueOf(next);
        } while (token != null);
        assertThat(seen).containsExactly("g0", "g2", "g4", "g6");
    }

    @Test
    void resourceVersionAndResourceVersionMatchAreAnsweredAsKubeAnswersThem() throws Exception {
        widgets("a", "b");
        long current = store.revision();

        assertThat(get(WIDGETS + "?resourceVersion=" + current + "&resourceVersionMatch=Exact").code()).isEqualTo(200);
        assertThat(get(WIDGETS + "?resourceVersion=1&resourceVersionMatch=NotOlderThan").code()).isEqualTo(200);
        assertThat(get(WIDGETS + "?resourceVersion=0").code()).isEqualTo(200);
        Reply exactOld = get(WIDGETS + "?resourceVersion=1&resourceVersionMatch=Exact");
        assertThat(exactOld.code()).isEqualTo(410);
        assertThat(exactOld.body().get("message").asText()).isEqualTo("too old resource version: 1 (" + current + ")");
        Reply future = get(WIDGETS + "?resourceVersion=" + (current + 100));
        assertThat(future.code()).isEqualTo(504);
        assertThat(future.body().get("message").asText()).startsWith("Too large resource version");

        Reply matchAlone = get(WIDGETS + "?resourceVersionMatch=Exact");
        assertThat(matchAlone.code()).isEqualTo(422);
        assertThat(matchAlone.body().get("message").asText()).contains("resourceVersionMatch is forbidden unless resourceVersion is provided");
        Reply exactZero = get(WIDGETS + "?resourceVersion=0&resourceVersionMatch=Exact");
        assertThat(exactZero.code()).isEqualTo(422);
        Reply notAVersion = get(WIDGETS + "?resourceVersion=abc");
        assertThat(notAVersion.code()).isEqualTo(400);
        assertThat(notAVersion.body().get("message").asText()).contains("resourceVersion");
        String token = continueOf(page(WIDGETS, "1", null));
        Reply both = get(WIDGETS + "?resourceVersion=" + current + "&continue=" + token);
        assertThat(both.code()).isEqualTo(400);
        assertThat(both.body().get("message").asText()).isEqualTo("specifying resource version is not allowed when using continue");
    }
}
