package dev.berth.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.testing.ExternalTool;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsBrowser;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.openqa.selenium.TakesScreenshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The dashboard in Debian's headless Chromium, driven by Selenium: each view shows what the manager
 * holds (queues, a borrowed bar, a pending workload, a worker cluster), a pending row opens the
 * explain panel on its blocking layer, a pending row shows the explain subresource's one-line answer,
 * the quota-versus-capacity view shows each flavor's quota against healthy capacity with its
 * over-committed and idle marks, and a job submitted through the API appears without a reload.
 * Screenshots of every view go to target/screenshots/ (kept as the build's artifact; dashboard.png is
 * the pending view with its answers). A 401 on the stream brings up how to sign in (a one-time link,
 * never a pasted token; the page sends no Authorization header), and a dropped stream shows "reconnecting".
 * The sign-in link itself against a secured manager: DashboardSignInBrowserTest.
 */
@NeedsBrowser
class DashboardBrowserTest {
    private static final Duration PATIENCE = Duration.ofSeconds(15);
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    @RegisterExtension
    final ManagerHarness harness = DashboardFixture.harness();
    private DashboardFixture berth;
    private WebDriver browser;

    @BeforeEach
    void start() throws Exception {
        Path chromium = ExternalTool.require("chromium", "apt-get install chromium");
        Path chromedriver = ExternalTool.require("chromedriver", "apt-get install chromium-driver");
        berth = new DashboardFixture(harness);
        ChromeOptions options = new ChromeOptions().setBinary(chromium.toFile())
                .addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                        "--window-size=1366,768");
        // The driver and the browser are given by path, so Selenium Manager has nothing to look up or download.
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile())
                .usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        browser.manage().window().setSize(new Dimension(1366, 768));
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterEach
    void stop() {
        if (browser != null) browser.quit();
    }

    @Test
    void clicksThroughEveryViewAndFollowsTheManagerLive() throws Exception {
        berth.submit("team-a", "fill-a100", 8);
        berth.submit("team-a", "fill-h100", 8);
        berth.submit("team-a", "borrower", 4);
        String waiting = berth.submit("team-a", "too-big", 40);
        String needsEight = berth.submit("team-a", "needs-eight", 8);
        berth.registerUnreachableCluster("gpu-west");
        String now = Instant.now().toString();
        berth.manager.dashboardEvents(limit -> List.of(
                new DashboardEvent("team-b", "Warning", "Pending", "<b>not bold</b> & not markup", "Workload", "job-x", 3, now),
                new DashboardEvent("team-a", "Normal", "QuotaReserved", "Quota reserved in ClusterQueue team-a-cq",
                        "Workload", "job-fill-a100", 1, now)));

        browser.get(berth.base() + "/");
        await().atMost(PATIENCE).until(() -> text(By.id("connection")).equals("live"));

        // Cohorts and ClusterQueues: both queues, team-a's a100 bar borrowing 4 from team-b-cq.
        await().atMost(PATIENCE).until(() -> text(By.id("view-cohorts")).contains("Cohort gpu-pool"));
        assertThat(text(By.id("view-cohorts"))).contains("team-a-cq", "team-b-cq", "a100", "nvidia.com/gpu");
        By borrowing = By.cssSelector(".queue-row[data-queue='team-a-cq'][data-borrowed='4'] .bar-borrowed");
        await().atMost(PATIENCE).ignoreException(StaleElementReferenceException.class)
                .until(() -> browser.findElement(borrowing).getSize().getWidth() > 0);
        assertThat(text(By.id("view-cohorts"))).contains("borrowed 4 from team-b-cq 4", "lent 4 to team-a-cq 4");
        screenshot("1-cohorts");

        // Pending workloads: the 40-GPU job, then its explanation one click away.
        browser.findElement(By.id("tab-pending")).click();
        By waitingRow = By.cssSelector(".pending-row[data-workload='team-a/" + waiting + "']");
        await().atMost(PATIENCE).ignoreException(StaleElementReferenceException.class)
                .until(() -> !browser.findElements(waitingRow).isEmpty()
                && browser.findElement(waitingRow).getText().contains("insufficient quota"));
        assertThat(text(waitingRow)).contains(waiting, "team-a-queue");
        // Its one-line answer, the same as the explain subresource gives. While the 40-GPU job is in the active
        // queue ahead of it, the answer opens "Behind 1 workload in team-a-cq ..."; once the scheduler has set it
        // aside as inadmissible, "Waiting for ...". Either way it names the 4 GPUs it lacks, and the cell shows
        // the answer the explain subresource gives at that moment.
        By answerCell = By.cssSelector(".pending-row[data-workload='team-a/" + needsEight + "'] .one-line");
        String explain = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads/" + needsEight + "/explain";
        await().atMost(PATIENCE).ignoreException(StaleElementReferenceException.class).until(() -> {
            String answer = DashboardFixture.JSON.readTree(berth.send("GET", explain, null).body()).path("answer").asText();
            return answer.toLowerCase(java.util.Locale.ROOT).contains("waiting for 4 nvidia.com/gpu") && text(answerCell).equals(answer);
        });
        screenshot("dashboard");
        await().atMost(PATIENCE).ignoreException(StaleElementReferenceException.class).until(() -> {
            browser.findElement(waitingRow).click();
            return true;
        });
        By admission = By.cssSelector("#explain .layer[data-layer='admission']");
        await().atMost(PATIENCE).until(() -> !browser.findElements(admission).isEmpty());
        assertThat(browser.findElement(By.id("explain")).isDisplayed()).isTrue();
        String blocking = text(admission);
        assertThat(blocking).contains("blocked", "admission", "needs 40", "nvidia.com/gpu");
        assertThat(text(By.cssSelector("#explain .answer"))).isEqualTo("Blocked at admission: BorrowingLimited");
        assertThat(text(By.cssSelector("#explain .layer[data-layer='dispatch'] .badge"))).isEqualTo("notReached");
        screenshot("2-pending-explain");
        browser.findElement(By.id("explain-close")).click();

        // Live: a job submitted through the API shows up without a reload.
        String late = berth.submit("team-a", "late-arrival", 24);
        await().atMost(PATIENCE).until(() -> !browser.findElements(
                By.cssSelector(".pending-row[data-workload='team-a/" + late + "']")).isEmpty());
        screenshot("3-pending-live");

        // Worker clusters: registered, not connected.
        browser.findElement(By.id("tab-clusters")).click();
        await().atMost(PATIENCE).until(() -> text(By.id("view-clusters")).contains("gpu-west"));
        // Not connected: Degraded until the health policy's contact grace has passed, Unreachable after.
        assertThat(text(By.cssSelector(".cluster[data-cluster='gpu-west']")))
                .contains("Connected", "no", "gpu-west-kubeconfig not found").containsPattern("Degraded|Unreachable")
                .doesNotContain("Healthy");
        screenshot("4-clusters");

        // Quota vs capacity: no healthy cluster, so every flavor with quota is over-committed.
        browser.findElement(By.id("tab-capacity")).click();
        JsonNode capacity = DashboardFixture.JSON.readTree(berth.send("GET", "/apis/visibility.berth.dev/v1alpha1/capacity", null).body());
        JsonNode a100 = null;
        for (JsonNode item : capacity.path("items")) {
            if (item.path("flavor").asText().equals("a100") && item.path("resource").asText().equals("nvidia.com/gpu")) a100 = item;
        }
        assertThat(a100).as(capacity.toString()).isNotNull();
        By a100Row = By.cssSelector(".capacity-row[data-flavor='a100'][data-resource='nvidia.com/gpu']");
        await().atMost(PATIENCE).until(() -> !text(a100Row).isEmpty());
        assertThat(browser.findElements(By.cssSelector(".capacity-row"))).hasSize(capacity.path("items").size());
        assertThat(text(a100Row).split("\\s+")).containsSubsequence("a100", "nvidia.com/gpu",
                a100.path("nominalQuota").asText(), a100.path("inUse").asText(), "0", "0", "0", "over-committed");
        assertThat(text(a100Row)).doesNotContain("idle");
        screenshot("5-capacity");

        // Events: the list (empty until an event source records any) with its filters.
        browser.findElement(By.id("tab-events")).click();
        await().atMost(PATIENCE).until(() -> browser.findElements(By.cssSelector(".event-row")).size() == 2);
        assertThat(text(By.id("event-list"))).contains("QuotaReserved", "Workload team-a/job-fill-a100",
                "<b>not bold</b> & not markup");
        screenshot("6-events");
        browser.findElement(By.cssSelector("#event-reason option[value='Pending']")).click();
        await().atMost(PATIENCE).until(() -> browser.findElements(By.cssSelector(".event-row")).size() == 1);
        assertThat(text(By.id("event-list"))).contains("Pending", "team-b/job-x").doesNotContain("QuotaReserved");

        browser.manage().window().setSize(new Dimension(1920, 1080));
        browser.findElement(By.id("tab-cohorts")).click();
        screenshot("7-cohorts-1920");
        List<WebElement> tabs = browser.findElements(By.cssSelector(".tab"));
        assertThat(tabs).extracting(WebElement::getText)
                .containsExactly("Cohorts & queues", "Pending workloads", "Worker clusters", "Quota vs capacity", "Events");
    }

    @Test
    void saysHowToSignInWhenTheStreamAnswers401AndNeverSendsATokenOfItsOwn() throws Exception {
        String snapshot = "{\"cohorts\":[],\"clusterQueues\":[{\"name\":\"secured-cq\",\"cohort\":null,"
                + "\"pendingCount\":0,\"pending\":[]}],\"clusters\":[],\"events\":[]}";
        List<String> authorizations = new CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean signedIn = new java.util.concurrent.atomic.AtomicBoolean();
        Router router = Router.router(berth.vertx);
        router.route(DashboardRoutes.STREAM).handler(ctx -> {
            authorizations.add(String.valueOf(ctx.request().getHeader("Authorization")));
            if (!signedIn.get()) ctx.response().setStatusCode(401).end();
            else ctx.next();
        });
        new DashboardRoutes(new DashboardStream(() -> CompletableFuture.completedFuture(snapshot),
                Duration.ofMillis(100), Duration.ofSeconds(15), Duration.ofSeconds(1)), new DashboardAssets()).register(router);
        HttpServer secured = berth.vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();

        browser.get("http://127.0.0.1:" + secured.actualPort() + DashboardRoutes.PATH);
        await().atMost(PATIENCE).until(() -> browser.findElement(By.id("sign-in")).isDisplayed());
        await().atMost(PATIENCE).until(() -> text(By.id("connection")).equals("sign-in needed"));
        assertThat(text(By.id("sign-in"))).contains("kubectl berth dashboard", "bin/berth dashboard-link");
        assertThat(browser.findElements(By.cssSelector("input"))).as("no box to paste a token into").isEmpty();
        screenshot("8-sign-in");

        signedIn.set(true); // as if a sign-in link had left its cookie: the link's redirect loads the page again
        browser.navigate().refresh();
        await().atMost(PATIENCE).until(() -> text(By.id("connection")).equals("live"));
        assertThat(browser.findElement(By.id("sign-in")).isDisplayed()).isFalse();
        assertThat(authorizations).containsOnly("null");
        browser.findElement(By.id("tab-pending")).click();
        await().atMost(PATIENCE).until(() -> text(By.id("view-pending")).contains("secured-cq"));
        secured.close().await();
        await().atMost(PATIENCE).until(() -> text(By.id("connection")).equals("reconnecting"));
    }

    @Test
    void marksIdleCapacityNextToOverCommittedQuota() throws Exception {
        String gpu = "nvidia.com/gpu";
        String snapshot = DashboardFixture.JSON.writeValueAsString(DashboardSnapshot.render(
                new dev.berth.manager.core.QuotaSnapshot(List.of(), List.of()), cq -> List.of(), key -> null,
                List.of(new dev.berth.manager.explain.QuotaAgainstCapacity.Row("a100", gpu, 20, 14, 16, 2, 1),
                        new dev.berth.manager.explain.QuotaAgainstCapacity.Row("a100-spot", gpu, 0, 0, 16, 16, 2)),
                List.of(), List.of()));
        Router router = Router.router(berth.vertx);
        new DashboardRoutes(new DashboardStream(() -> CompletableFuture.completedFuture(snapshot),
                Duration.ofMillis(100), Duration.ofSeconds(15), Duration.ofSeconds(1)), new DashboardAssets()).register(router);
        HttpServer canned = berth.vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();

        browser.get("http://127.0.0.1:" + canned.actualPort() + DashboardRoutes.PATH + "#capacity");
        By spot = By.cssSelector(".capacity-row.idle[data-flavor='a100-spot']");
        await().atMost(PATIENCE).until(() -> !text(spot).isEmpty());
        assertThat(text(spot)).contains("16 idle").doesNotContain("over-committed");
        assertThat(text(By.cssSelector(".capacity-row.overcommitted[data-flavor='a100']")))
                .contains("20", "14", "16", "over-committed").doesNotContain("idle");
        screenshot("9-capacity-idle");
        canned.close().await();
    }

    /** The element's text; the page re-renders a view on every snapshot, so a stale element is looked up again. */
    private String text(By by) {
        return await().atMost(PATIENCE).ignoreException(StaleElementReferenceException.class).until(() -> {
            List<WebElement> found = browser.findElements(by);
            return found.isEmpty() ? "" : found.get(0).getText();
        }, t -> true);
    }

    private void screenshot(String name) throws Exception {
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(SCREENSHOTS.resolve(name + ".png"), png);
    }
}
