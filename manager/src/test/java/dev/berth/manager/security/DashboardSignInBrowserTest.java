package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.testing.ExternalTool;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MutableClock;
import dev.berth.manager.testing.NeedsBrowser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The quickstart's sign-in, in headless Chromium against a manager secured as the quickstart secures
 * it (QuickstartCredentials: TLS, token file, example RBAC): the link {@link QuickstartCredentials#dashboardLink}
 * mints (as the banner prints it) signs the browser in and lands on the pending view with a clean
 * address, no token in the URL or anywhere the page's scripts can read; the same link opened again,
 * and a fresh link opened after its 10 minutes, give the refusal page and no data.
 */
@NeedsBrowser
class DashboardSignInBrowserTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final Path EXAMPLES = Path.of("..", "examples");
    private static final String WAITING_JOB = """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: too-big
              namespace: team-a
              labels:
                kueue.x-k8s.io/queue-name: team-a-queue
            spec:
              parallelism: 40
              completions: 40
              suspend: true
              template:
                spec:
                  containers:
                  - name: train
                    image: registry.k8s.io/e2e-test-images/agnhost:2.53
                    resources:
                      requests:
                        nvidia.com/gpu: 1
                  restartPolicy: Never
            """;

    @TempDir
    Path home;
    private final MutableClock clock = new MutableClock(Instant.now());
    /** Started once the browser tools are found; the quickstart's credentials on the test's clock, so that links expire with it. */
    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().store(new MemoryObjectStore()).clock(clock).secured()
            .manifests(EXAMPLES.resolve("queues")).manifests(EXAMPLES.resolve("rbac")).manifests(EXAMPLES.resolve("multikueue"))
            .startedByTheTest();
    private QuickstartCredentials credentials;
    private String base;
    private WebDriver browser;

    @BeforeEach
    void start() throws Exception {
        Path chromium = ExternalTool.require("chromium", "apt-get install chromium");
        Path chromedriver = ExternalTool.require("chromedriver", "apt-get install chromium-driver");
        harness.start();
        credentials = harness.credentials();
        Path jobs = Files.createDirectories(home.resolve("jobs"));
        Files.writeString(jobs.resolve("too-big.yaml"), WAITING_JOB);
        harness.manager().loadManifests(jobs);
        base = harness.baseUrl();
        // The quickstart's certificate is self-signed; the browser is told to accept it as a user would.
        ChromeOptions options = new ChromeOptions().setBinary(chromium.toFile())
                .addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                        "--ignore-certificate-errors", "--window-size=1366,768");
        browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile())
                .usingAnyFreePort().build(), options);
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterEach
    void stop() {
        if (browser != null) browser.quit();
    }

    @Test
    void theBannersLinkSignsInOnceAndLandsOnThePendingViewWithACleanAddress() throws Exception {
        String adminToken = adminToken();
        String link = credentials.dashboardLink(base, Duration.ofSeconds(30));
        assertThat(link).startsWith(base + "/dashboard/sign-in?code=").doesNotContain(adminToken);

        browser.get(base + "/dashboard/#pending");
        await().atMost(PATIENCE).until(() -> text(By.id("connection")).equals("sign-in needed"));
        assertThat(browser.findElement(By.id("sign-in")).isDisplayed()).isTrue();

        browser.get(link);
        await().atMost(PATIENCE).until(() -> text(By.id("connection")).equals("live"));
        assertThat(browser.getCurrentUrl()).isEqualTo(base + "/dashboard/");
        assertThat(browser.findElement(By.id("sign-in")).isDisplayed()).isFalse();
        browser.findElement(By.id("tab-pending")).click();
        By waiting = By.cssSelector(".pending-row[data-workload^='team-a/']");
        await().atMost(PATIENCE).until(() -> text(waiting).contains("team-a-queue"));
        screenshot("10-signed-in-pending");
        assertThat(browser.getCurrentUrl()).doesNotContain(adminToken).doesNotContain("code=");
        JavascriptExecutor page = (JavascriptExecutor) browser;
        assertThat((String) page.executeScript("return document.cookie")).as("the session cookie is HttpOnly").isEmpty();
        assertThat((String) page.executeScript("return JSON.stringify(sessionStorage) + JSON.stringify(localStorage)"))
                .doesNotContain(adminToken);
        assertThat(browser.getPageSource()).doesNotContain(adminToken);

        browser.get(link);
        assertThat(text(By.id("sign-in-refused"))).isEqualTo("This sign-in link cannot be used");
        assertThat(browser.getPageSource()).contains("kubectl berth dashboard").doesNotContain("team-a-queue");
        screenshot("11-sign-in-link-used");
    }

    @Test
    void aLinkOpenedAfterTenMinutesIsRefused() throws Exception {
        String link = credentials.dashboardLink(base, Duration.ofSeconds(30));
        clock.advance(Duration.ofMinutes(10));
        browser.get(link);
        assertThat(text(By.id("sign-in-refused"))).isEqualTo("This sign-in link cannot be used");
        browser.get(base + "/dashboard/");
        await().atMost(PATIENCE).until(() -> text(By.id("connection")).equals("sign-in needed"));
    }

    private String adminToken() {
        return harness.adminToken();
    }

    private String text(By by) {
        return await().atMost(PATIENCE).ignoreException(StaleElementReferenceException.class).until(() -> {
            List<WebElement> found = browser.findElements(by);
            return found.isEmpty() ? "" : found.get(0).getText();
        }, t -> !t.isEmpty());
    }

    private void screenshot(String name) throws Exception {
        Files.write(SCREENSHOTS.resolve(name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }
}
