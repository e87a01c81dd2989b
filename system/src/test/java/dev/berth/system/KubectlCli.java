package dev.berth.system;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The real kubectl (/usr/bin/kubectl, or on PATH) against a running system's manager through a plain
 * kubeconfig written in a directory of the test's; every run bounded in time, run from the repository
 * root so {@code examples/...} paths read as the README writes them. Absent kubectl skips, or fails under CI=true.
 */
final class KubectlCli {
    private static final long TIMEOUT_SECONDS = 30;

    private final Path binary;
    private final Path kubeconfig;

    /** What one run printed and how it ended. */
    record Result(int exitCode, String stdout, String stderr) {
        Result ok() {
            if (exitCode != 0) fail("kubectl exited with " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr);
            return this;
        }
    }

    private KubectlCli(Path binary, Path kubeconfig) {
        this.binary = binary;
        this.kubeconfig = kubeconfig;
    }

    static KubectlCli against(String serverUrl, Path home) throws Exception {
        Path binary = find();
        Files.createDirectories(home);
        Path kubeconfig = Files.writeString(home.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: berth
                  cluster:
                    server: %s
                users:
                - name: berth-user
                  user: {}
                contexts:
                - name: berth
                  context:
                    cluster: berth
                    user: berth-user
                current-context: berth
                """.formatted(serverUrl));
        return new KubectlCli(binary, kubeconfig);
    }

    private static Path find() {
        List<Path> candidates = new ArrayList<>(List.of(Path.of("/usr/bin/kubectl")));
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) candidates.add(Path.of(dir, "kubectl"));
        for (Path candidate : candidates) if (Files.isExecutable(candidate)) return candidate;
        String message = "!!! kubectl not found: the kubectl end-to-end tests are NOT run. !!!";
        if ("true".equals(System.getenv("CI"))) fail(message + " (CI=true: kubectl is required)");
        Assumptions.abort(message);
        return null;
    }

    /** Runs kubectl with these words (no shell), e.g. {@code run("get", "pytorchjobs", "-n", "team-a")}. */
    Result run(String... words) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(List.of(words));
        ProcessBuilder builder = new ProcessBuilder(command).directory(new File(".."));
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        builder.environment().put("HOME", kubeconfig.getParent().toString());
        Path out = Files.createTempFile(kubeconfig.getParent(), "out", ".txt");
        Path err = Files.createTempFile(kubeconfig.getParent(), "err", ".txt");
        builder.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("kubectl " + String.join(" ", words) + " did not finish within " + TIMEOUT_SECONDS + "s");
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    /** {@code kubectl get <what> -n <namespace> -o jsonpath={<path>}}; empty when it failed. */
    String jsonpath(String namespace, String what, String name, String path) throws Exception {
        Result result = run("get", what, name, "-n", namespace, "-o", "jsonpath={" + path + "}");
        return result.exitCode() == 0 ? result.stdout() : "";
    }
}
