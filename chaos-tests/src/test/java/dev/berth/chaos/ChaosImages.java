package dev.berth.chaos;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * The drills' images, built from the project's own Dockerfiles ({@code deploy/<component>/Dockerfile})
 * over the base image that {@code deploy/base-image/make-base-image.sh} makes on this machine (made once
 * when missing). Each image is tagged with a hash of its Dockerfile, the base image and the packaged jars,
 * so an unchanged build reuses the image and a changed jar gets a new one. Nothing is ever pulled.
 */
final class ChaosImages {
    /** The base image's repository; its tag is a hash of the script that makes it, so a changed script makes a new one. */
    static final String BASE_REPOSITORY = "berth/base";

    /** A component: its module (whose target/ holds the jar and lib/) and its jar. */
    enum Component {
        MANAGER("manager", "berth-manager.jar"),
        AGENT("worker-agent", "berth-worker-agent.jar"),
        VIRTUAL_CLUSTER("virtual-cluster", "berth-virtual-cluster.jar");

        final String module;
        final String jar;

        Component(String module, String jar) {
            this.module = module;
            this.jar = jar;
        }
    }

    private static final Map<Component, String> BUILT = new ConcurrentHashMap<>();

    private ChaosImages() {}

    static Path root() {
        return Path.of(System.getProperty("berth.root", "..")).toAbsolutePath().normalize();
    }

    /** The tag of the component's image, built now if no image with this content exists yet. */
    static synchronized String image(Component component) {
        return BUILT.computeIfAbsent(component, ChaosImages::build);
    }

    private static String build(Component component) {
        String baseId = ensureBaseImage();
        Path target = root().resolve(component.module).resolve("target");
        Path jar = target.resolve(component.jar);
        Path lib = target.resolve("lib");
        Path dockerfile = root().resolve("deploy").resolve(component.module).resolve("Dockerfile");
        if (!Files.isRegularFile(jar) || !Files.isDirectory(lib)) {
            throw new IllegalStateException(jar + " or " + lib + " is missing: package first (./mvnw -B -pl chaos-tests -am verify does)");
        }
        List<Path> files;
        try (Stream<Path> libs = Files.list(lib)) {
            files = Stream.concat(Stream.of(dockerfile, jar), libs.sorted()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String tag = "berth-chaos/" + component.module + ":" + contentHash(baseId, files);
        if (imageExists(tag)) return tag;
        long started = System.nanoTime();
        new ImageFromDockerfile(tag, false)
                .withFileFromPath("Dockerfile", dockerfile)
                .withFileFromPath(component.module + "/target/" + component.jar, jar)
                .withFileFromPath(component.module + "/target/lib", lib)
                .withBuildArg("BASE_IMAGE", baseImage())
                .get();
        System.out.printf("chaos: built %s in %d ms%n", tag, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        return tag;
    }

    private static Path baseImageScript() {
        return root().resolve("deploy/base-image/make-base-image.sh");
    }

    static String baseImage() {
        return BASE_REPOSITORY + ":chaos-" + contentHash("", List.of(baseImageScript()));
    }

    /** The base image's id; the image is made with the project's script when missing. */
    private static String ensureBaseImage() {
        DockerClient docker = DockerClientFactory.instance().client();
        try {
            return docker.inspectImageCmd(baseImage()).exec().getId();
        } catch (NotFoundException missing) {
            runBaseImageScript();
            return docker.inspectImageCmd(baseImage()).exec().getId();
        }
    }

    private static void runBaseImageScript() {
        Path script = baseImageScript();
        try {
            Path log = Files.createTempFile("make-base-image", ".log");
            Process process = new ProcessBuilder("bash", script.toString(), baseImage())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException(script + " failed:\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making " + baseImage(), e);
        }
    }

    private static boolean imageExists(String tag) {
        try {
            DockerClientFactory.instance().client().inspectImageCmd(tag).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /** The first 16 hex digits of a SHA-256 over {@code salt} and each file's name and content. */
    static String contentHash(String salt, List<Path> files) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(salt.getBytes(StandardCharsets.UTF_8));
            byte[] buffer = new byte[1 << 16];
            for (Path file : files) {
                digest.update(file.getFileName().toString().getBytes(StandardCharsets.UTF_8));
                try (InputStream in = Files.newInputStream(file)) {
                    for (int n; (n = in.read(buffer)) > 0; ) digest.update(buffer, 0, n);
                }
            }
            return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
