package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.fail;

import dev.berth.manager.testing.ManagerHarness;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The real kubectl as a subprocess against a kubeconfig this class writes, every run bounded in time.
 * Absent kubectl skips loudly, or fails under CI=true.
 */
final class Kubectl {
    static final String FALLBACK = "/usr/lib/google-cloud-sdk/bin/kubectl";
    static final long TIMEOUT_SECONDS = 30;

    private Path binary;
    private Path kubeconfig;
    private ManagerHarness pointedAtOrNull;

    /** What one kubectl run printed and how it ended. */
    record Result(int exitCode, String stdout, String stderr) {
        Result ok() {
            if (exitCode != 0) fail("kubectl exited with " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr);
            return this;
        }
    }

    private Kubectl(Path binary, Path kubeconfig) {
        this.binary = binary;
        this.kubeconfig = kubeconfig;
    }

    /**
     * kubectl at a harness's manager: on its first run it writes a plain kubeconfig in the harness's
     * data directory (the harness is running by then); skips (or fails in CI) if kubectl is absent.
     */
    static Kubectl on(ManagerHarness harness) {
        Kubectl kubectl = new Kubectl(null, null);
        kubectl.pointedAtOrNull = harness;
        return kubectl;
    }

    private void pointAtTheHarness() throws IOException {
        if (kubeconfig != null) return;
        binary = binaryOrSkip();
        Path home = Files.createDirectories(pointedAtOrNull.dataDir().resolve("kubectl-home"));
        kubeconfig = Kubeconfig.plain(pointedAtOrNull.port()).writeTo(home);
    }

    /** kubectl pointed at server through a kubeconfig in directory; skips (or fails in CI) if kubectl is absent. */
    static Kubectl against(Kubeconfig config, Path directory) throws IOException {
        return new Kubectl(binaryOrSkip(), config.writeTo(directory));
    }

    /** kubectl with a kubeconfig written elsewhere (its directory is kubectl's HOME); skips (or fails in CI) if kubectl is absent. */
    static Kubectl withKubeconfig(Path kubeconfig) {
        return new Kubectl(binaryOrSkip(), kubeconfig.toAbsolutePath());
    }

    private static Path binaryOrSkip() {
        Path binary = find().orElse(null);
        if (binary == null) {
            String message = "!!! kubectl not found on PATH nor at " + FALLBACK + ": the kubectl runbook suite is NOT run. !!!";
            if ("true".equals(System.getenv("CI"))) fail(message + " (CI=true: kubectl is required)");
            System.err.println(message);
            Assumptions.abort(message);
        }
        return binary;
    }

    static Optional<Path> find() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "kubectl");
            if (Files.isExecutable(candidate)) return Optional.of(candidate);
        }
        Path fallback = Path.of(FALLBACK);
        return Files.isExecutable(fallback) ? Optional.of(fallback) : Optional.empty();
    }

    /** Runs a command line as a runbook writes it, e.g. {@code kubectl get workloads -A}; quotes group words. */
    Result run(String commandLine) throws Exception {
        return run(CommandLine.split(commandLine));
    }

    Result run(List<String> words) throws Exception {
        pointAtTheHarness();
        if (!words.isEmpty() && words.get(0).equals("kubectl")) words = words.subList(1, words.size());
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(words);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        builder.environment().put("HOME", kubeconfig.getParent().toString());
        Path out = Files.createTempFile(kubeconfig.getParent(), "out", ".txt");
        Path err = Files.createTempFile(kubeconfig.getParent(), "err", ".txt");
        builder.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(nullFile()));
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("kubectl " + String.join(" ", words) + " did not finish within " + TIMEOUT_SECONDS + "s");
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Starts a long-running kubectl (a watch); the caller destroys it. Output goes to the returned file. */
    Process start(String commandLine, Path output) throws IOException {
        pointAtTheHarness();
        List<String> words = new ArrayList<>(CommandLine.split(commandLine));
        if (words.get(0).equals("kubectl")) words.remove(0);
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(words);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        builder.environment().put("HOME", kubeconfig.getParent().toString());
        builder.redirectErrorStream(true).redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(nullFile()));
        return builder.start();
    }

    private static java.io.File nullFile() {
        return new java.io.File("/dev/null");
    }
}
