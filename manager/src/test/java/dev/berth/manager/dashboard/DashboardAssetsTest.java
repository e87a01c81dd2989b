package dev.berth.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The dashboard's page and assets as a running manager serves them: content types, the redirects,
 * 404 for anything not in the list, and no reference to any other host (nothing is fetched off-host).
 */
class DashboardAssetsTest {
    private static final Pattern ABSOLUTE_URL = Pattern.compile("(?i)(https?:)?//[a-z0-9.-]+\\.[a-z]{2,}");
    private static final Pattern HTML_INJECTION = Pattern.compile("innerHTML|outerHTML|insertAdjacentHTML|document\\.write|eval\\(");

    @RegisterExtension
    final ManagerHarness harness = DashboardFixture.harness();
    private DashboardFixture berth;

    @BeforeEach
    void start() throws Exception {
        berth = new DashboardFixture(harness);
    }

    @Test
    void servesEveryAssetWithItsContentTypeAndNothingOffHost() throws Exception {
        for (String name : DashboardAssets.NAMES) {
            HttpResponse<String> asset = berth.send("GET", DashboardRoutes.PATH + name, null);
            assertThat(asset.statusCode()).as(name).isEqualTo(200);
            String expected = name.endsWith(".html") ? "text/html" : name.endsWith(".css") ? "text/css" : "text/javascript";
            assertThat(asset.headers().firstValue("content-type")).as(name).hasValueSatisfying(t -> assertThat(t).startsWith(expected));
            assertThat(asset.body()).as(name).doesNotContain("http://", "https://");
            Matcher url = ABSOLUTE_URL.matcher(asset.body());
            assertThat(url.find()).as(name + " refers to another host: " + (url.hitEnd() ? "" : url.group())).isFalse();
            if (name.endsWith(".js")) assertThat(HTML_INJECTION.matcher(asset.body()).find()).as(name + " parses data as HTML").isFalse();
        }
    }

    @Test
    void thePageLoadsOnlyItsOwnScriptsAndStyle() throws Exception {
        HttpResponse<String> page = berth.send("GET", DashboardRoutes.PATH, null);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("content-security-policy")).hasValueSatisfying(csp -> assertThat(csp)
                .contains("default-src 'self'"));
        Matcher sources = Pattern.compile("(?:src|href)=\"([^\"]+)\"").matcher(page.body());
        while (sources.find()) assertThat(DashboardAssets.NAMES).as("referenced by the page").contains(sources.group(1));
    }

    @Test
    void redirectsToThePageAndRefusesUnknownNames() throws Exception {
        for (String path : new String[] {"/", "/dashboard"}) {
            HttpResponse<String> redirect = berth.send("GET", path, null);
            assertThat(redirect.statusCode()).as(path).isEqualTo(302);
            assertThat(redirect.headers().firstValue("location")).as(path).contains(DashboardRoutes.PATH);
        }
        assertThat(berth.send("GET", DashboardRoutes.PATH + "nope.js", null).statusCode()).isEqualTo(404);
        assertThat(berth.send("GET", DashboardRoutes.PATH + "..%2Fapplication.yaml", null).statusCode())
                .as("an escaped slash is refused at the gate").isEqualTo(400);
    }
}
