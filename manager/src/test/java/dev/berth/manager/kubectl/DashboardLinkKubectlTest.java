package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.berth.manager.security.QuickstartCredentials;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.io.File;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl berth dashboard} and {@code bin/berth dashboard-link}, run as a user runs them against
 * a manager secured as the quickstart secures it: each prints a link for the kubeconfig context's user
 * (through kubectl, so the token never passes through the script's output), and the link signs a browser
 * in once.
 */
@NeedsKubectl
class DashboardLinkKubectlTest {
    static final Path BIN = Path.of("..", "bin").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("(https://127\\.0\\.0\\.1:\\d+/dashboard/sign-in\\?code=[A-Za-z0-9_-]{43})\\s");

    /** Secured as the quickstart secures it, with the example RBAC; started once kubectl is found. */
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.empty().secured().manifests(Path.of("..", "examples", "rbac")).startedByTheTest();
    @TempDir
    static Path home;
    static Path kubeconfig;
    static Path kubectlBinary;
    /** No token: the link alone signs in. */
    static ManagerClient browser;

    @BeforeAll
    static void start() throws Exception {
        kubectlBinary = Kubectl.find().orElse(null);
        Kubectl.withKubeconfig(home.resolve("unused")); // skips, or fails under CI=true, without kubectl
        harness.start();
        kubeconfig = harness.writeKubeconfig(home.resolve("kube").resolve("berth.yaml"));
        browser = harness.client().withoutToken();
    }

    @Test
    void thePluginPrintsALinkForTheContextsUserThatSignsInOnce() throws Exception {
        String output = ok("kubectl", "berth", "dashboard", "--context=" + QuickstartCredentials.TENANT_CONTEXT);
        String link = link(output);
        assertThat(output).contains("one use, until").doesNotContain(tokens());
        HttpResponse<String> first = open(link);
        assertThat(first.statusCode()).isEqualTo(303);
        assertThat(first.headers().firstValue("set-cookie")).hasValueSatisfying(cookie -> assertThat(cookie).contains("SameSite=Strict"));
        assertThat(open(link).statusCode()).isEqualTo(401);
    }

    @Test
    void binBerthDashboardLinkDoesTheSameWithTheCurrentContext() throws Exception {
        String output = ok(BIN.resolve("berth").toString(), "dashboard-link");
        assertThat(output).doesNotContain(tokens());
        assertThat(open(link(output)).statusCode()).isEqualTo(303);
        assertThat(ok("kubectl", "berth", "dashboard", "-o", "json")).contains("\"kind\":\"DashboardSignInLink\"", "\"expiresAt\"");
    }

    private static String link(String output) {
        Matcher matcher = LINK.matcher(output);
        if (!matcher.find()) fail("no sign-in link in:\n" + output);
        return matcher.group(1);
    }

    private static List<String> tokens() throws Exception {
        List<String> tokens = new ArrayList<>();
        for (String line : Files.readAllLines(harness.dataDir().resolve("security").resolve("tokens.csv"))) {
            if (!line.startsWith("#") && line.contains(",")) tokens.add(line.substring(0, line.indexOf(',')));
        }
        assertThat(tokens).hasSize(2);
        return tokens;
    }

    private static HttpResponse<String> open(String link) {
        assertThat(link).startsWith(browser.baseUrl());
        return browser.send("GET", link.substring(browser.baseUrl().length()), null, null);
    }

    private static String ok(String... command) throws Exception {
        Path workdir = Files.createDirectories(home.resolve("elsewhere-dir"));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workdir.toFile());
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        builder.environment().put("HOME", home.toString());
        builder.environment().put("PATH", BIN + File.pathSeparator + kubectlBinary.getParent() + File.pathSeparator
                + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        Path out = Files.createTempFile(home, "plugin", ".txt");
        builder.redirectErrorStream(true).redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process process = builder.start();
        if (!process.waitFor(Kubectl.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(String.join(" ", command) + " did not finish within " + Kubectl.TIMEOUT_SECONDS + "s");
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) fail(String.join(" ", command) + " exited with " + process.exitValue() + ":\n" + output);
        return output;
    }
}
